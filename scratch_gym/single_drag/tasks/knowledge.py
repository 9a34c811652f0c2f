"""The "knowledge" setting: heuristic rules for where to grab and where to drop, given to agents.

The rules describe how the Scratch 3 editor (scratch-blocks) decides what a drag does; they
were written from the editor's behaviour (drag radius, snap radius, connection points) and checked
against the feasible regions of the stored tasks.
"""

KNOWLEDGE = """\
Rules for dragging blocks in the Scratch editor:
1. Grab a block by its own body: a word of its label or its coloured edge near the left end.
   Do not grab an input oval or a dropdown inside it (a reporter sitting in a slot is a separate
   block and would be dragged instead), nor the empty inside of a C-shaped block.
2. A block in the palette (left column) is copied when dragged out to the right; dropping it back
   over the palette deletes it. A canvas block drags every block stacked below it.
3. The block moves rigidly with the pointer: it lands where the pointer moved it, keeping the
   offset between the grab point and the block's top-left corner.
4. To stack block B below block A, drop B so that B's top-left corner is at A's bottom-left
   corner (within about 30 px at normal zoom). B's top-left notch snaps to A's bottom notch;
   dropping into the middle of a stack inserts B there.
5. To put a stack on top of block A (a hat above a stack), drop it so that its bottom-left corner
   is at A's top-left corner.
6. To fill a slot (an oval or hexagonal input), drop the reporter so that its left end is at the
   slot's left end; round reporters fit round slots, hexagonal (boolean) ones fit hexagonal slots.
7. To put a block inside a C-block (if, repeat, forever), drop it with its top-left corner just
   inside the mouth: right of the C's left arm, under the C's top bar (for 'else', under 'else').
8. The snap reach scales with the zoom: smaller blocks on screen mean a smaller tolerance.
9. When two connection points are within reach, the nearest one wins: aim precisely at the
   intended one.
"""
