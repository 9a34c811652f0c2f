"""The task generator's versions (a light module: the command line reads it at start)."""

VERSION = 6  # 3: fresh canvas sources, palette twins in view, unambiguous source phrases; 4: the
# palette as a fresh page shows it (no Pen category left by a scene before, and the Pen shown for a
# scene that names it without using it: bridge/vm.js), and an and/or of comparisons drawn; 5: a
# block whose label shows more than once may be named as the lone one or by its script's side;
# 6: the instruction is worded once the view is fitted, and its ordinals, sides and "lone" count
# only the blocks in view (``meta["in_view"]``)
VERSIONS = (5, 6)  # what ``TaskGenerator(version=)`` draws: the shipped drag policy trained on 5
