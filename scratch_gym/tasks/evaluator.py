"""Execution-based evaluation: a task's tests run on a copy of a project in the page.

:class:`Evaluator` fixes the project to test (the editor's current one, or given data), runs each
test on a fresh copy in the evaluation VM (virtual time, budgets per test) and caches results by
the project's fingerprint, so an unchanged project is not evaluated twice.
"""

from __future__ import annotations

import linecache
import time
import traceback
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol

from scratch_gym.editor.page import BridgeError, EditorPage, PageDeadError
from scratch_gym.tasks.declarative import StepError, run_steps
from scratch_gym.tasks.projects import ProjectData, resolve, start_state
from scratch_gym.tasks.schema import Task, TestSpec
from scratch_gym.tasks.test_api import FPS, Run, TestFailure
from scratch_gym.tasks.watchdog import Watchdog


@dataclass(frozen=True)
class TestResult:
    """One test's outcome; ``frames`` of virtual time it ran, ``wall_s`` it took."""

    __test__ = False  # not a pytest test class

    name: str
    passed: bool
    message: str = ""
    frames: int = 0
    wall_s: float = 0.0

    def to_info(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "message": self.message}


@dataclass(frozen=True)
class EvaluationResult:
    """All tests of one evaluation; ``psr`` = passed / total, ``success`` = all passed.

    ``stopped_early``: the evaluation stopped at its first failed test (``until_failure``), so
    ``tests`` holds only the tests up to that one and ``psr`` is over those.
    """

    tests: tuple[TestResult, ...]
    fingerprint: str = ""
    wall_s: float = 0.0
    cached: bool = False
    stopped_early: bool = False

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def psr(self) -> float:
        return self.passed / len(self.tests) if self.tests else 0.0

    @property
    def success(self) -> bool:
        return bool(self.tests) and all(t.passed for t in self.tests)

    @property
    def virtual_s(self) -> float:
        """Virtual time simulated over all tests, in seconds."""
        return sum(t.frames for t in self.tests) / FPS

    def failed(self) -> list[TestResult]:
        return [t for t in self.tests if not t.passed]

    def to_info(self) -> dict[str, Any]:
        """What the environment puts in ``info``: tests, psr and success."""
        return {
            "tests": [t.to_info() for t in self.tests],
            "psr": self.psr,
            "success": self.success,
        }

    def signature(self) -> tuple[tuple[str, bool, str], ...]:
        """The outcome without timings (what must repeat exactly)."""
        return tuple((t.name, t.passed, t.message) for t in self.tests)


class ExternalSuite(Protocol):
    """A suite that scores a prepared project its own way (e.g. ScratchWorld scripts)."""

    def run(self, page: EditorPage) -> list[TestResult]: ...


class Evaluator:
    """Runs a task's tests against projects in ``page``, caching results by project fingerprint.

    ``evaluate()`` tests the editor's current project (read only: the agent's VM and view are not
    touched); ``evaluate(project)`` tests given project data (dict, .sb3 bytes or a task's
    ``ProjectRef``) without loading it into the editor.
    """

    def __init__(self, page: EditorPage, task: Task, cache_size: int = 64) -> None:
        self.page = page
        self.task = task
        self.cache_size = cache_size
        self._cache: OrderedDict[str, EvaluationResult] = OrderedDict()
        self._start_state: dict[str, Any] | None = None
        self.evaluations = 0

    def evaluate(
        self, project: ProjectData | None = None, *, until_failure: bool = False
    ) -> EvaluationResult:
        """Run every test (``until_failure``: stop at the first failed one; not cached)."""
        started = time.perf_counter()
        fingerprint = self._prepare(project)
        hit = self._cache.get(fingerprint)
        if hit is not None:
            self._cache.move_to_end(fingerprint)
            return EvaluationResult(hit.tests, fingerprint, time.perf_counter() - started, True)
        tests = self.run_prepared(until_failure=until_failure)
        stopped_early = len(tests) < len(self.task.tests)
        elapsed = time.perf_counter() - started
        result = EvaluationResult(tuple(tests), fingerprint, elapsed, stopped_early=stopped_early)
        self.evaluations += 1
        if stopped_early:
            return result
        self._cache[fingerprint] = result
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return result

    def run_prepared(self, *, until_failure: bool = False) -> list[TestResult]:
        """Run the tests on the project the page has prepared (``bridge.eval_prepare``), without
        the cache (``until_failure``: stop at the first failed test)."""
        if self.task.external is not None:
            return self.task.external.run(self.page)
        tests: list[TestResult] = []
        for spec in self.task.tests:
            tests.append(self._run_test(spec))
            if until_failure and not tests[-1].passed:
                break
        return tests

    def clear_cache(self) -> None:
        self._cache.clear()

    # -- internals ------------------------------------------------------------------------------
    def _prepare(self, project: ProjectData | None) -> str:
        data = None if project is None else resolve(project)
        return self.page.bridge.eval_prepare(data)["fingerprint"]

    @property
    def start_state(self) -> dict[str, Any]:
        """Sprite states of the starting project that each test begins from (reset_sprites)."""
        if self._start_state is None:
            task = self.task
            use = task.reset_sprites and task.start is not None
            self._start_state = start_state(task.start) if use else {}
        return self._start_state

    def _run_test(self, spec: TestSpec) -> TestResult:
        seed = zlib.crc32(f"{self.task.id}/{spec.name}".encode())
        guarded = Watchdog(self.page, spec.budget.wall_s)  # ends even a call that never returns
        run = Run(guarded, budget=spec.budget, seed=seed, start_state=self.start_state)
        started = time.perf_counter()
        message = ""
        try:
            if spec.function is not None:
                spec.function(run)
            else:
                run_steps(run, spec.steps or ())
            run.close()
            passed = True
        except PageDeadError:
            raise
        except TestFailure as exc:
            passed, message = False, str(exc)
        except AssertionError as exc:
            test_file = spec.function.__code__.co_filename if spec.function else None
            passed, message = False, _assertion_message(exc, test_file)
        except StepError as exc:
            passed, message = False, f"invalid test step: {exc}"
        except BridgeError as exc:
            passed, message = False, f"{exc.kind}: {exc}"
        except Exception as exc:  # a test that raises is a failed test with its message
            passed, message = False, f"{type(exc).__name__}: {exc}"
        return TestResult(spec.name, passed, message, run.frames_run, time.perf_counter() - started)


def _assertion_message(exc: AssertionError, test_file: str | None) -> str:
    """The assertion's message, with the failing line of the test file."""
    text = str(exc)
    frames = traceback.extract_tb(exc.__traceback__)
    chosen = next((f for f in reversed(frames) if f.filename == test_file), None)
    if chosen is None and frames:
        chosen = frames[-1]
    where = ""
    if chosen is not None:
        line = (chosen.line or linecache.getline(chosen.filename, chosen.lineno or 0)).strip()
        where = f"{line} ({chosen.filename.rsplit('/', 1)[-1]}:{chosen.lineno})"
    if text:
        return f"{text} [{where}]" if where else text
    return f"assertion failed: {where}" if where else "assertion failed"
