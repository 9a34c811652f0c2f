"""Feasible regions of a single-drag task: the editor's connection geometry (``geometry``), the
regions it implies (``geometric``), the regions found by probe drags (``probe``, ``search``),
the capture the drag model probes (``capture``) and the regions cache (``cache``)."""
