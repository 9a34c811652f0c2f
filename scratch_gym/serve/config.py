"""The service's options (``scratch-gym serve``'s arguments) and the rules they must follow."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scratch_gym.scratchworld.evaluation import TIME_MODES
from scratch_gym.scratchworld.tasks import ScratchWorldCheckout

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_PORT = 8081  # scratch-bench-api's, so their clients' default --api_url finds us
MAX_BODY_BYTES = 1_000_000  # request bodies above this get 413


class ConfigError(ValueError):
    """An option or combination of options that the service refuses to start with."""


@dataclass(frozen=True)
class ServeConfig:
    """What ``serve`` runs with. ``parallel``: worker threads, each owning one browser;
    ``max_sessions``: open sessions at most (429 beyond); ``session_ttl_s``: an idle session is
    closed after this long; ``max_body_bytes``: the request body cap; ``oracle_channel``: serve
    the oracle's read-only privileged view of sessions (:mod:`.oracle_channel`, test tools only);
    ``ocr_port``: also serve ScratchWorld's OCR server there, on ``host`` (:mod:`.ocr_app`)."""

    scratchworld: Path
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token: str | None = None
    allow_js: bool = False
    oracle_channel: bool = False
    time: str = "virtual"
    parallel: int = 1
    max_sessions: int = 8
    session_ttl_s: float = 900.0
    max_body_bytes: int = MAX_BODY_BYTES
    ocr_port: int | None = None

    def __post_init__(self) -> None:
        if self.host not in LOOPBACK and not self.token:
            raise ConfigError(
                f"--host {self.host} is not loopback: give --token so that every request "
                "must carry it (Authorization: Bearer TOKEN)"
            )
        if self.time not in TIME_MODES:
            raise ConfigError(f"--time {self.time!r} (allowed: {', '.join(TIME_MODES)})")
        if self.parallel < 1:
            raise ConfigError(f"--parallel {self.parallel} (allowed: 1 or more)")
        if self.max_sessions < 1:
            raise ConfigError(f"--max-sessions {self.max_sessions} (allowed: 1 or more)")
        if self.token is not None and len(self.token) < 8:
            raise ConfigError("--token must be at least 8 characters")
        if self.ocr_port is not None:
            if not 0 < self.ocr_port < 65536:
                raise ConfigError(f"--ocr-port {self.ocr_port} (allowed: 1 to 65535)")
            if self.ocr_port == self.port:
                raise ConfigError(
                    f"--ocr-port {self.ocr_port} is the service's --port: give another port"
                )
        ScratchWorldCheckout(self.scratchworld)  # raises when it is not a checkout

    @property
    def root(self) -> Path:
        return Path(self.scratchworld).expanduser().resolve()
