"""Single-drag tasks: the task record and its goal relations (``task``), its feasible regions as
data (``regions``), relation kinds (``kinds``), instructions per setting (``instructions``,
``knowledge``). ScratchWorld's own drag tasks are converted into these records by
:mod:`scratch_gym.scratchworld.drag`. The bottom of ``single_drag``: imports nothing else of it."""
