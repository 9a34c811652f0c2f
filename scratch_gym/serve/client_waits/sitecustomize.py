"""Caps ScratchWorld's fixed waits in their client process (imported by Python at start-up when
this folder is on the client's ``PYTHONPATH``, see ``scratch_gym.serve.dropin.client_env``).

Their runners sleep a fixed time after each step ("wait a bit for the action to take effect": 2 s
a turn, 3 s after a session opens, 5 s after set-up, 12 s a drag task). ``scratch-gym serve``
answers a request only once its effect is settled, so those waits only add wall time. With
``SCRATCH_GYM_WAIT_CAP_S`` set, every ``time.sleep`` in the process waits at most that many
seconds; their code is not touched.
"""

import os
import time

_CAP_S = float(os.environ.get("SCRATCH_GYM_WAIT_CAP_S", "inf"))
_sleep = time.sleep


def sleep(seconds: float) -> None:
    """``time.sleep``, waiting at most ``SCRATCH_GYM_WAIT_CAP_S`` seconds."""
    _sleep(min(seconds, _CAP_S))


time.sleep = sleep
