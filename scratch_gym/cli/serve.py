"""``scratch-gym serve``: ScratchWorld's scratch-bench-api over scratch-gym's editor (docs/serve.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from scratch_gym.cli.output import UsageError

if TYPE_CHECKING:
    from scratch_gym.serve.config import ServeConfig


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="serve ScratchWorld's HTTP API (scratch-bench-api) so their clients run here",
        description=(
            "An HTTP service that speaks ScratchWorld's scratch-bench-api: their unmodified "
            "task_runner.py and agents run against scratch-gym's editor. Binds 127.0.0.1 unless "
            "--host is given, which then requires --token. With --ocr-port it also serves "
            "ScratchWorld's OCR server (POST /ocr/detect, GET /health) there, with scratch-gym's "
            "PaddleOCR, on the same host and under the same token."
        ),
    )
    p.add_argument(
        "--scratchworld",
        required=True,
        type=Path,
        metavar="PATH",
        help="a ScratchWorld checkout: its projects and evaluation scripts; or a folder "
        "written by `tasks export-scratchworld` (its tasks are scored by their own tests, "
        "found in the shipped suite and --tasks-dir)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1; any other requires --token)",
    )
    p.add_argument("--port", type=int, default=8081, help="port (default 8081, theirs)")
    p.add_argument(
        "--token",
        default=None,
        help="bearer token every request must carry (Authorization: Bearer TOKEN)",
    )
    p.add_argument(
        "--allow-js",
        action="store_true",
        help="serve composite custom_js (a client's own page JavaScript); off by default",
    )
    p.add_argument(
        "--oracle-channel",
        action="store_true",
        help="serve the oracle's read-only privileged view of sessions (/oracle/...), for the "
        "scripted endpoint's primitive mode; off by default",
    )
    p.add_argument(
        "--time",
        choices=("virtual", "real"),
        default="virtual",
        help="evaluation scripts run in virtual time (default) or real time, as theirs",
    )
    p.add_argument(
        "--parallel",
        type=int,
        default=1,
        metavar="N",
        help="worker threads, each with its own browser (default 1)",
    )
    p.add_argument(
        "--max-sessions",
        type=int,
        default=8,
        metavar="N",
        help="open sessions at most; more get 429 (default 8)",
    )
    p.add_argument("--session-ttl", type=float, default=900.0, metavar="S",
                   help="close a session idle this many seconds (default 900, theirs)")  # fmt: skip
    p.add_argument(
        "--ocr-port",
        type=int,
        default=None,
        metavar="P",
        help="also serve ScratchWorld's OCR server on port P (9090 is their agents' default), "
        "answered by scratch-gym's PaddleOCR (needs the ocr extra); off by default",
    )


def run(args: argparse.Namespace) -> int:
    from scratch_gym.serve.config import ConfigError, ServeConfig

    try:
        config = ServeConfig(
            scratchworld=args.scratchworld,
            host=args.host,
            port=args.port,
            token=args.token,
            allow_js=args.allow_js,
            oracle_channel=args.oracle_channel,
            time=args.time,
            parallel=args.parallel,
            max_sessions=args.max_sessions,
            session_ttl_s=args.session_ttl,
            ocr_port=args.ocr_port,
        )
    except ConfigError as exc:
        raise UsageError(f"serve: {exc}") from None
    try:
        import uvicorn

        from scratch_gym.serve.app import create_app
    except ImportError as exc:
        raise UsageError(
            f"serve: {exc.name} is not installed (pip install 'scratch-gym[serve]')"
        ) from None
    if config.ocr_port is not None:
        return _run_with_ocr(config, create_app(config))
    print(f"scratch-gym serve: http://{config.host}:{config.port} ({config.root})", flush=True)
    uvicorn.run(create_app(config), host=config.host, port=config.port, log_level="warning")
    return 0


def _run_with_ocr(config: ServeConfig, app: object) -> int:
    """The main service and the OCR server in one process, each on its port; they stop together."""
    import asyncio
    import importlib.util

    from scratch_gym.ocr import OcrUnavailable, missing_packages
    from scratch_gym.serve import launch

    if importlib.util.find_spec("python_multipart") is None:
        raise UsageError(
            "serve: --ocr-port needs python-multipart (pip install 'scratch-gym[serve]')"
        )
    missing = missing_packages("paddleocr")
    if missing:
        raise UsageError(
            f"serve: --ocr-port needs {', '.join(missing)} (pip install 'scratch-gym[ocr]')"
        )
    from scratch_gym.serve.ocr_app import create_ocr_app

    try:
        ocr_app = create_ocr_app(config.token, port=config.ocr_port)
    except OcrUnavailable as exc:
        raise UsageError(f"serve: --ocr-port: {exc}") from None
    sockets = []
    for port in (config.port, config.ocr_port):
        try:
            sockets.append(launch.listen(config.host, port))
        except OSError as exc:
            for sock in sockets:
                sock.close()
            raise UsageError(
                f"serve: cannot listen on {config.host}:{port}: {exc.strerror or exc}"
            ) from None
    servers = [(launch.server(a, s), s) for a, s in zip((app, ocr_app), sockets, strict=True)]
    base = f"http://{config.host}"
    print(f"scratch-gym serve: {base}:{config.port} ({config.root}); OCR: {base}:{config.ocr_port}",
          flush=True)  # fmt: skip
    started = asyncio.run(launch.serve_together(servers))
    if not started:
        print("error: serve: a server failed to start (see its log above)", file=sys.stderr)
        return 1
    return 0
