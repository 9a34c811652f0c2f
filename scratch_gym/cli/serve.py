"""``scratch-gym serve``: ScratchWorld's scratch-bench-api over scratch-gym's editor (docs/serve.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from scratch_gym.cli.output import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="serve ScratchWorld's HTTP API (scratch-bench-api) so their clients run here",
        description=(
            "An HTTP service that speaks ScratchWorld's scratch-bench-api: their unmodified "
            "task_runner.py and agents run against scratch-gym's editor. Binds 127.0.0.1 unless "
            "--host is given, which then requires --token."
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
    print(f"scratch-gym serve: http://{config.host}:{config.port} ({config.root})", flush=True)
    uvicorn.run(create_app(config), host=config.host, port=config.port, log_level="warning")
    return 0
