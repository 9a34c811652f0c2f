"""``scratch-gym serve``: an HTTP service that speaks ScratchWorld's scratch-bench-api.

ScratchWorld's own clients and agents (``task_runner.py``, the single-step drag runner) run
unchanged against scratch-gym's editor: sessions, screenshots, element lists, mouse and keyboard
actions, projects and evaluation answer with the same fields, shapes and status codes as the
original service. Layout: :mod:`.config` (options), :mod:`.worker` (one thread per browser),
:mod:`.sessions` (the session table), :mod:`.handlers` (what each route does on a page),
:mod:`.app` (the FastAPI routes and the security rules), :mod:`.ocr_app` (their OCR server's
routes, ``--ocr-port``) and :mod:`.launch` (both servers in one process). See docs/serve.md.
"""
