"""The task generator's versions (a light module: the command line reads it at start)."""

VERSION = 7  # 3: fresh canvas sources, palette twins in view, unambiguous source phrases; 4: the
# palette as a fresh page shows it (no Pen category left by a scene before, and the Pen shown for a
# scene that names it without using it: bridge/vm.js), and an and/or of comparisons drawn; 5: a
# block whose label shows more than once may be named as the lone one or by its script's side;
# 6: the instruction is worded once the view is fitted, and its ordinals, sides and "lone" count
# only the blocks in view (``meta["in_view"]``); 7: "the end of the script that starts with 'A'"
# names only the last block of A's top-level stack, A in view (6 also said it of the last block in
# a mouth, which ends no script), and a palette block whose bare label another palette block
# shares ('set effect to': Looks and Sound) is named with its text or opcode instead
# what ``TaskGenerator(version=)`` draws: the shipped drag policy trained on 7, the one before on 5
VERSIONS = (5, 6, 7)
