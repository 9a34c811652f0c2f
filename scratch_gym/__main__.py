"""``python -m scratch_gym`` is the ``scratch-gym`` command."""

import sys

from scratch_gym.cli import main

sys.exit(main())
