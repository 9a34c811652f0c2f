"""The test API: ``run``, the object a task's test functions drive.

Actions (green flag, keys, clicks, answers, frames...) are queued and sent to the page together with
the next read, in one ``eval.run`` bridge call; reads come from the snapshot that call returns, so a
test costs a few round trips whatever it does. Example::

    def test_moves_right(run):
        run.green_flag()
        run.frames(30)
        assert run.sprite("Cat").x > 50

Every failure inside the page (an ``expect`` that does not hold, a used-up frame or wall budget, an
error raised by the program, an unknown sprite) raises :class:`TestFailure` with its message.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from scratch_gym.editor.bridge import EvalRun
from scratch_gym.editor.page import BridgeError
from scratch_gym.tasks.conditions import Cond
from scratch_gym.tasks.schema import Budget

FPS = 30
TEST_FAILURE_KINDS = frozenset(
    {
        "expectation",
        "frame_budget",
        "wall_budget",
        "program_error",
        "unknown_sprite",
        "unknown_variable",
        "invalid_project",
    }
)


class TestFailure(AssertionError):
    """A test failed in the page; the message says why."""

    __test__ = False  # not a pytest test class


class Utterance(str):
    """A text said or thought, with when and by whom: compares and prints as the text.

    ``sprite``: the sprite's name; ``kind``: ``"say"`` or ``"think"``; ``frame``: the frame at
    which the bubble appeared; ``time``: the same in virtual seconds since the test began;
    ``clone_id``: the clone's id (see :attr:`SpriteState.id`) or None for an original sprite.
    """

    sprite: str
    kind: str
    frame: int
    time: float
    clone_id: str | None

    def __new__(cls, entry: dict[str, Any]) -> Utterance:
        self = super().__new__(cls, entry["text"])
        self.sprite = entry["sprite"]
        self.kind = entry.get("type", "say")
        self.frame = int(entry.get("frame", 0))
        self.time = self.frame / FPS
        self.clone_id = entry.get("clone_id")
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        entry = {"text": str(self), "sprite": self.sprite, "type": self.kind}
        entry.update(frame=self.frame, clone_id=self.clone_id)
        return (Utterance, (entry,))


@dataclass(frozen=True)
class SpriteState:
    """One sprite (or clone) as the evaluation VM holds it at the snapshot."""

    name: str
    x: float
    y: float
    direction: float
    size: float
    costume: str | None
    costume_number: int
    visible: bool
    layer: int | None
    ghost: float
    bubble: str | None
    bubble_type: str | None
    variables: dict[str, Any]
    lists: dict[str, list[Any]]
    effects: dict[str, float] = field(default_factory=dict)
    draggable: bool = False
    rotation_style: str = "all around"
    volume: float = 100
    clone: bool = False
    clones: tuple[SpriteState, ...] = ()
    said: tuple[Utterance, ...] = ()
    id: str = ""  # the sprite's name, or for a clone "<name>#<n>" (n-th clone made in the test)

    @classmethod
    def from_json(cls, data: dict[str, Any], said: tuple[Utterance, ...] = ()) -> SpriteState:
        bubble = data.get("bubble") or None
        return cls(
            name=data["name"],
            x=data["x"],
            y=data["y"],
            direction=data["direction"],
            size=data["size"],
            costume=data["costume"],
            costume_number=data["costume_number"],
            visible=data["visible"],
            layer=data["layer"],
            ghost=data["ghost"],
            bubble=bubble["text"] if bubble else None,
            bubble_type=bubble["type"] if bubble else None,
            variables=dict(data["variables"]),
            lists={k: list(v) for k, v in data["lists"].items()},
            effects=dict(data["effects"]),
            draggable=data["draggable"],
            rotation_style=data["rotation_style"],
            volume=data["volume"],
            clone=data["clone"],
            clones=tuple(cls.from_json(c) for c in data.get("clones", ())),
            said=said,
            id=data.get("id") or data["name"],
        )


@dataclass(frozen=True)
class VMState:
    """The whole evaluation VM after the last batch of operations."""

    data: dict[str, Any] = field(repr=False)

    @property
    def frame(self) -> int:
        return self.data["frame"]

    def sprite(self, name: str) -> SpriteState:
        sprites = self.data["sprites"]
        if name not in sprites or "x" not in sprites[name]:
            known = ", ".join(n for n, s in sprites.items() if "x" in s) or "none"
            raise TestFailure(f"the project has no sprite named {name!r} (sprites: {known})")
        said = tuple(Utterance(s) for s in self.data["said"] if s["sprite"] == name)
        return SpriteState.from_json(sprites[name], said)


class EvalRunner(Protocol):
    """What sends a test's operations to the page: ``page.bridge`` (its ``eval_run``), or the
    :class:`~scratch_gym.tasks.watchdog.Watchdog` that stops a call which never returns."""

    def eval_run(
        self, ops: list[dict[str, Any]], *, wall_ms: int, begin: dict[str, Any] | None = None
    ) -> EvalRun: ...


class Run:
    """Drives one test on the evaluation VM (see the module docstring)."""

    def __init__(
        self,
        runner: EvalRunner,
        *,
        budget: Budget,
        seed: int = 1,
        start_state: dict[str, Any] | None = None,
    ) -> None:
        self._runner = runner
        self._budget = budget
        self._deadline = time.monotonic() + budget.wall_s
        self._begin: dict[str, Any] | None = {
            "seed": seed,
            "max_frames": budget.frames,
            "wall_ms": int(budget.wall_s * 1000),
            "state": start_state or {},
        }
        self._ops: list[dict[str, Any]] = []
        self._snapshot: VMState | None = None
        self.calls = 0

    # -- actions (queued) -----------------------------------------------------------------------
    def _queue(self, op: str, **args: Any) -> Run:
        self._ops.append({"op": op, **args})
        return self

    def green_flag(self) -> Run:
        """Click the green flag (stops everything first, as Scratch does)."""
        return self._queue("green_flag")

    def stop(self) -> Run:
        """Click the stop sign."""
        return self._queue("stop")

    def frames(self, n: int) -> Run:
        """Run ``n`` frames (30 per second of virtual time)."""
        if n < 0:
            raise ValueError("frames must be >= 0")
        return self._queue("frames", n=int(n))

    def seconds(self, s: float) -> Run:
        """Run for ``s`` seconds of virtual time."""
        return self.frames(round(s * FPS))

    def key_down(self, key: str) -> Run:
        """Hold a key: a character, or ``space``, ``left arrow``... (Scratch's key names)."""
        return self._queue("key", key=_dom_key(key), down=True)

    def key_up(self, key: str) -> Run:
        """Release a held key."""
        return self._queue("key", key=_dom_key(key), down=False)

    def press(self, key: str, frames: int = 2) -> Run:
        """Press a key, hold it for ``frames`` frames, release it."""
        return self.key_down(key).frames(frames).key_up(key)

    def click(self, target: str) -> Run:
        """Click a sprite (runs its "when this sprite clicked" scripts) or ``"Stage"``."""
        return self._queue("click", target=target)

    def mouse_move(self, x: float, y: float) -> Run:
        """Move the mouse pointer to stage coordinates (x, y)."""
        return self._queue("mouse", x=x, y=y)

    def mouse_down(self) -> Run:
        """Press the mouse button where the pointer is (clicks what is drawn there)."""
        return self._queue("mouse", down=True)

    def mouse_up(self) -> Run:
        """Release the mouse button."""
        return self._queue("mouse", down=False)

    def answer(self, *texts: Any) -> Run:
        """Queue answers for ``ask`` prompts, given in order as questions come."""
        for text in texts:
            self._queue("answer", text=str(text))
        return self

    def broadcast(self, message: str) -> Run:
        """Send a broadcast as if a script had."""
        return self._queue("broadcast", name=message)

    def set_variable(self, name: str, value: Any, sprite: str | None = None) -> Run:
        """Set a variable (the sprite's own, else the stage's) as if a script had."""
        return self._queue("set_variable", name=name, value=value, sprite=sprite)

    def set_list(self, name: str, items: list[Any], sprite: str | None = None) -> Run:
        """Replace a list's items as if a script had."""
        return self._queue("set_variable", name=name, value=list(items), sprite=sprite, list=True)

    def expect(self, cond: Cond, message: str = "") -> Run:
        """Check ``cond`` now, in the page; the test fails with ``message`` if it does not hold."""
        return self._queue("expect", cond=cond.spec, message=message)

    def throughout(
        self, cond: Cond, frames: int | None = None, seconds: float | None = None, message: str = ""
    ) -> Run:
        """Run ``frames`` frames (or ``seconds``), checking ``cond`` now and after every frame;
        the test fails at the first frame where it does not hold (unlike :meth:`until`, which
        returns as soon as a condition holds)."""
        if (frames is None) == (seconds is None):
            raise ValueError("throughout needs frames or seconds (one of them)")
        n = int(frames) if frames is not None else round(float(seconds) * FPS)  # type: ignore[arg-type]
        if n < 0:
            raise ValueError("frames must be >= 0")
        return self._queue("throughout", cond=cond.spec, frames=n, message=message)

    always = throughout

    # -- reads (send the queue) -----------------------------------------------------------------
    def until(self, cond: Cond, frames: int = 300) -> bool:
        """Run frames until ``cond`` holds (checked every frame); False if it did not within ``frames``."""
        self._queue("until", cond=cond.spec, max_frames=int(frames))
        return bool(self.sync()[-1]["met"])

    def wait_until(self, cond: Cond, frames: int = 300, message: str = "") -> int:
        """Like :meth:`until`, but fail the test when ``cond`` never holds; returns frames used."""
        self._queue("until", cond=cond.spec, max_frames=int(frames))
        result = self.sync()[-1]
        if not result["met"]:
            what = message or f"the condition never held within {frames} frames"
            raise TestFailure(f"{what}{self._waiting_note()}")
        return int(result["frames"])

    def sync(self) -> list[Any]:
        """Send queued operations now (reads do it themselves); returns their values."""
        if not self._ops and self._begin is None and self._snapshot is not None:
            return []
        ops, self._ops = self._ops, []
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TestFailure(f"the test ran past its wall-clock budget of {self._budget.wall_s} s")
        begin, self._begin = self._begin, None
        self.calls += 1
        try:
            result = self._runner.eval_run(ops, wall_ms=int(left * 1000), begin=begin)
        except BridgeError as exc:
            details = exc.details if isinstance(exc.details, dict) else {}
            if details.get("snapshot"):
                self._snapshot = VMState(details["snapshot"])
            if exc.kind in TEST_FAILURE_KINDS:
                raise TestFailure(str(exc)) from None
            raise
        self._snapshot = VMState(result["snapshot"])
        return result["values"]

    @property
    def snapshot(self) -> VMState:
        self.sync()
        assert self._snapshot is not None
        return self._snapshot

    def sprite(self, name: str) -> SpriteState:
        """The original sprite ``name`` now (its clones under ``.clones``)."""
        return self.snapshot.sprite(name)

    def clones(self, name: str) -> tuple[SpriteState, ...]:
        """The clones of ``name`` that exist now, oldest first. Each keeps its ``id``
        (``"<name>#<n>"``) for the whole test, so clones can be followed across reads."""
        return self.sprite(name).clones

    def clone(self, clone_id: str) -> SpriteState | None:
        """The clone with this ``id`` now, or None once it is deleted."""
        name = clone_id.rpartition("#")[0]
        return next((c for c in self.clones(name) if c.id == clone_id), None)

    def var(self, name: str, sprite: str | None = None) -> Any:
        """A variable's value (the sprite's own, else the stage's)."""
        return self._lookup(name, sprite, "variables")

    def list(self, name: str, sprite: str | None = None) -> list[Any]:
        """A list's items (the sprite's own list, else the stage's)."""
        return self._lookup(name, sprite, "lists")

    def _lookup(self, name: str, sprite: str | None, kind: str) -> Any:
        snap = self.snapshot
        if sprite is not None:
            own = getattr(snap.sprite(sprite), kind)
            if name in own:
                return own[name]
        stage = snap.data["stage"][kind]
        if name in stage:
            return stage[name]
        what = "list" if kind == "lists" else "variable"
        where = f"sprite {sprite} or the stage" if sprite else "the stage (for all sprites)"
        owners = [
            n for n, s in snap.data["sprites"].items() if name in s.get(kind, {}) and n != sprite
        ]
        note = ""
        if owners:
            read = "list" if kind == "lists" else "var"
            note = (
                f"; it is a {what} for this sprite only of {', '.join(owners)} (as a script that"
                f" uses an undeclared {what} makes it): read it with "
                f"run.{read}({name!r}, sprite={owners[0]!r})"
            )
        raise TestFailure(f"no {what} named {name!r} in {where}{note}")

    def said(self, sprite: str | None = None) -> list[Utterance]:
        """What was said or thought since the test began, in order (by ``sprite``, or by
        anyone): texts that also carry ``frame``, ``time``, ``sprite``, ``kind``, ``clone_id``."""
        return [Utterance(s) for s in self.snapshot.data["said"] if sprite in (None, s["sprite"])]

    def touching(self, sprite: str, other: str) -> bool:
        """Is ``sprite`` touching ``other`` (a sprite, ``"edge"`` or ``"mouse"``)?"""
        self._queue("read", query={"kind": "touching", "sprite": sprite, "other": other})
        return bool(self.sync()[-1])

    @property
    def backdrop(self) -> str:
        """The stage's backdrop name."""
        return self.snapshot.data["stage"]["backdrop"]

    @property
    def timer(self) -> float:
        """Scratch's ``timer`` reporter, in seconds of virtual time."""
        return self.snapshot.data["timer"]

    @property
    def question(self) -> str | None:
        """The question an ``ask`` waits on, or None."""
        return self.snapshot.data["question"]

    @property
    def threads(self) -> int:
        """How many scripts are running."""
        return self.snapshot.data["threads"]

    @property
    def frame(self) -> int:
        """Frames run since the test began (30 per second of virtual time)."""
        return self.snapshot.frame

    @property
    def time(self) -> float:
        """Virtual seconds since the test began."""
        return self.snapshot.frame / FPS

    @property
    def frames_run(self) -> int:
        """Frames simulated so far, as of the last round trip (sends nothing)."""
        return self._snapshot.frame if self._snapshot is not None else 0

    def _waiting_note(self) -> str:
        if self._snapshot is not None and self._snapshot.data.get("question") is not None:
            q = self._snapshot.data["question"]
            return f"; the program is still waiting for an answer to {q!r}"
        return ""

    def close(self) -> None:
        """Send what is still queued (a test's trailing expectations)."""
        if self._ops:
            self.sync()


_KEY_NAMES = {
    "space": " ",
    "left arrow": "ArrowLeft",
    "right arrow": "ArrowRight",
    "up arrow": "ArrowUp",
    "down arrow": "ArrowDown",
    "enter": "Enter",
}


def _dom_key(key: str) -> str:
    """Scratch's key names to the DOM key values the VM's keyboard device expects."""
    return _KEY_NAMES.get(key.lower(), key) if len(key) > 1 else key
