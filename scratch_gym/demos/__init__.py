"""Oracle demonstrations as Minari datasets (``scratch-gym demos``).

* :mod:`scratch_gym.demos.format`: the dataset's observation/action/info format, as the Gymnasium
  wrapper ``DemoFormat`` that ``dataset.recover_environment()`` rebuilds;
* :mod:`scratch_gym.demos.record`: one episode captured and staged on disk;
* :mod:`scratch_gym.demos.collect`: a suite recorded on workers, resumable, built into a dataset.
"""

from __future__ import annotations

from scratch_gym.demos.collect import DemoReport, DemoResumeError, collect
from scratch_gym.demos.format import DEFAULT_OBS_SIZE, DemoFormat, make_demo_env, parse_obs_size

__all__ = [
    "DEFAULT_OBS_SIZE",
    "DemoFormat",
    "DemoReport",
    "DemoResumeError",
    "collect",
    "make_demo_env",
    "parse_obs_size",
]
