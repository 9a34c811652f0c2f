"""Visual Perception QA: questions about editor screenshots, answered from the editor itself.

``make_scene`` (scenes), ``make_questions`` (questions), ``scene_questions``/``export``/``load``
(dataset) and ``PerceptionEnv`` (``ScratchWorld-Perception-v0``).
"""
