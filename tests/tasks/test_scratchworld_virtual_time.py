"""ScratchWorld-format evaluation scripts in virtual time: the same verdicts and measurements as in
real time, on a small checkout made here (timers, intervals, the clock, the VM's frame loop, the
small stage); and a script that never returns is stopped by the watchdog."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scratch_gym.program import ProjectBuilder
from scratch_gym.scratchworld import ScratchWorldCheckout, ScratchWorldSuite
from scratch_gym.tasks import Evaluator

FIXTURE_UTILS = (
    Path(__file__).resolve().parent.parent
    / "fixtures"
    / "scratchworld"
    / "scratch-bench-api"
    / "api"
    / "evaluation_scripts"
    / "evaluation_utils.js"
)

# Waits, then glides: the script times both with Date.now, samples x with setInterval, checks
# the stage's edges from the canvas, and waits on a case timeout that must not fire.
GOLDEN = """
when @greenFlag clicked
go to x: (0) y: (0)
wait (2) seconds
say [ready]
glide (1) secs to x: (100) y: (0)
say [there]
"""

SCRIPT = """
module.exports = async (vm, config, cleanup) => {
  const EU = window.EvaluationUtils;
  const details = [];
  details.push(await EU.runCaseWithTimeout({
    caseName: 'says_ready_after_two_seconds', timeoutMs: 6000,
    run: () => new Promise(resolve => {
      const started = Date.now();
      vm.runtime.on('SAY', (target, type, text) => {
        if (text === 'ready') {
          const ms = Date.now() - started;
          resolve({passed: ms >= 1900 && ms <= 2600, meta: {ms}});
        }
      });
      EU.startVM(vm);
    }),
    afterCase: () => vm.runtime.stopAll()
  }));
  details.push(await EU.runCaseWithTimeout({
    caseName: 'glides_to_100_within_a_second_after', timeoutMs: 8000,
    run: async () => {
      const sprite = EU.findSprite(vm, 'Sprite1');
      const xs = [];
      const sampler = setInterval(() => xs.push(Math.round(sprite.x)), 250);
      EU.startVM(vm);
      await EU.wait(3600);
      clearInterval(sampler);
      const reached = xs.findIndex(x => x >= 100);
      const moving = xs.filter((x, i) => i > 0 && x > xs[i - 1]).length;
      return {passed: reached >= 11 && reached <= 16 && moving >= 3, meta: {xs, reached, moving}};
    },
    afterCase: () => vm.runtime.stopAll()
  }));
  const canvas = vm.runtime.renderer.gl.canvas; // ScratchWorld reads the stage's edges here
  const edges = {right: canvas.width / 2, top: canvas.height / 2};
  details.push({name: 'small_stage', passed: edges.right === 120 && edges.top === 90, meta: edges});
  cleanup();
  const passed = details.filter(d => d.passed).length;
  return {success: passed === details.length, passed_tests: passed,
    total_tests: details.length, details};
};
"""

NEVER_RETURNS = """
module.exports = async (vm) => {
  vm.greenFlag();
  for (;;) { vm.runtime.targets.length; }
};
"""


def make_checkout(root: Path, name: str, script: str, golden: str = GOLDEN) -> ScratchWorldCheckout:
    """A ScratchWorld checkout with one task ``name``: start = the default cat, golden = GOLDEN."""
    tasks = root / "tasks" / "create"
    static = root / "scratch-gui" / "static"
    scripts = root / "scratch-bench-api" / "api" / "evaluation_scripts"
    for folder in (tasks, static, scripts):
        folder.mkdir(parents=True, exist_ok=True)
    ProjectBuilder().save_sb3(static / f"{name}.sb3")
    ProjectBuilder().sprite("Sprite1", scripts=golden).save_sb3(static / f"{name}_golden.sb3")
    (scripts / f"{name}.js").write_text(script)
    (scripts / "evaluation_utils.js").write_text(FIXTURE_UTILS.read_text())
    task = {
        "name": name,
        "type": "create",
        "instruction": "Wait 2 s, say ready, glide to x 100 in 1 s.",
        "initial_project": f"{name}.sb3",
        "evaluation": {"function": name, "timeout": 20},
    }
    (tasks / f"{name}.json").write_text(json.dumps(task))
    return ScratchWorldCheckout(root)


def outcomes(page, root: Path, name: str, time: str) -> dict[str, object]:
    checkout = ScratchWorldCheckout(root, time=time)
    task = checkout.load(name)
    golden = Evaluator(page, task).evaluate(checkout.golden_path(name).read_bytes())
    start = Evaluator(page, task).evaluate(task.start.path.read_bytes())
    return {"golden": golden, "start": start}


def test_virtual_time_gives_the_real_time_verdicts(page, tmp_path):
    make_checkout(tmp_path, "wait_and_glide", SCRIPT)
    virtual = outcomes(page, tmp_path, "wait_and_glide", "virtual")
    real = outcomes(page, tmp_path, "wait_and_glide", "real")
    assert virtual["golden"].success, virtual["golden"].to_info()
    assert [t.passed for t in virtual["start"].tests] == [False, False, True]
    for project in ("golden", "start"):
        verdicts = {
            mode: [(t.name, t.passed) for t in r[project].tests]
            for mode, r in (("virtual", virtual), ("real", real))
        }
        assert verdicts["virtual"] == verdicts["real"], (project, virtual[project], real[project])
    # the waits were simulated, not waited for: the start project's first case ran into its
    # 6 s timeout in virtual time; the whole script simulated 6 + 3.6 s
    assert "Timeout after 6 seconds" in virtual["start"].tests[0].message
    assert virtual["golden"].virtual_s >= 5.5


def test_real_time_stays_available_and_modes_are_checked(tmp_path):
    checkout = make_checkout(tmp_path, "wait_and_glide", SCRIPT)
    suite = checkout.load("wait_and_glide").external
    assert isinstance(suite, ScratchWorldSuite) and suite.time == "virtual"
    assert suite.with_time("real").time == "real"
    assert (
        ScratchWorldCheckout(tmp_path, time="real").load("wait_and_glide").external.time == "real"
    )
    with pytest.raises(ValueError, match="time must be one of virtual, real"):
        ScratchWorldCheckout(tmp_path, time="fast")
    # the runner's suite: `scratch-gym eval --suite scratchworld --scratchworld PATH --time real`
    from scratch_gym.suites import make_suite

    flags = {"time": "--time", "scratchworld": "--scratchworld"}
    real = make_suite("scratchworld", labels=flags, scratchworld=str(tmp_path), time="real")
    assert [t.external.time for t in real.select()] == ["real"]
    assert real.load("wait_and_glide").external.time == "real"
    default = make_suite("scratchworld", scratchworld=str(tmp_path))
    assert [t.external.time for t in default.select()] == ["virtual"]
    with pytest.raises(ValueError, match="option --time does not apply to the tasks suite"):
        make_suite("tasks", labels=flags, time="real")


def test_a_script_that_never_returns_is_stopped_and_the_editor_is_kept(page, tmp_path):
    checkout = make_checkout(tmp_path, "spins", NEVER_RETURNS)
    spinning = checkout.load("spins")
    spinning = replace(spinning, external=replace(spinning.external, timeout_s=1.0))
    before = page.project_json()
    result = Evaluator(page, spinning).evaluate(checkout.golden_path("spins").read_bytes())
    (test,) = result.tests
    assert not test.passed and "did not finish within 2.0 s" in test.message, test
    # the next evaluation in the same page runs, and the agent's project was not touched
    make_checkout(tmp_path, "wait_and_glide", SCRIPT)
    after = outcomes(page, tmp_path, "wait_and_glide", "virtual")
    assert after["golden"].success, after["golden"].to_info()
    assert page.project_json() == before


# A loop polling a colour that is nowhere on the stage: it never asks for a redraw, so each frame
# runs it until the frame's work budget is spent. The script reports the passes per frame.
POLLING = """
when @greenFlag clicked
set [n v] to (0)
forever
  change [n v] by (1)
  if <touching color [#1505ff]?> then
    move (10) steps
  end
end
"""

COUNTS_PASSES = """
module.exports = async (vm, config, cleanup) => {
  const EU = window.EvaluationUtils;
  const sprite = EU.findSprite(vm, 'Sprite1');
  const n = () => Number(Object.values(sprite.variables).find(v => v.name === 'n').value);
  EU.startVM(vm);
  vm.greenFlag();
  await EU.wait(100);
  const first = n();
  await EU.wait(1000);
  const perFrame = (n() - first) / 30;
  cleanup();
  return {success: perFrame >= 10 && perFrame <= 30, passed_tests: 1, total_tests: 1,
    details: [{name: 'tens_of_passes_a_frame', passed: perFrame >= 10 && perFrame <= 30,
      meta: {perFrame}}]};
};
"""


def test_a_colour_query_costs_scratchworld_frames_as_it_costs_ours(page, tmp_path):
    """ScratchWorld's clock charges a colour query as the task evaluation's does: a polling loop
    runs tens of passes a frame, not the ~500 that clock reads alone would allow."""
    checkout = make_checkout(tmp_path, "polls", COUNTS_PASSES, golden=POLLING)
    result = Evaluator(page, checkout.load("polls")).evaluate(
        checkout.golden_path("polls").read_bytes()
    )
    assert result.success, result.to_info()
