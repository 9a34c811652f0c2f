"""Single-drag tasks: the task record and its goal relations (``task``), its feasible regions as
data (``regions``), relation kinds (``kinds``), instructions per setting (``instructions``,
``knowledge``) and ScratchWorld's tasks converted (``scratchworld``). The bottom of
``single_drag``: imports nothing else of it."""
