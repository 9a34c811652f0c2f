// Where things are on the editor screen, in viewport pixels: the one place that reads block boxes,
// label points and hit owners, for the element list (elements.js) and the privileged geometry
// (geometry.js).
(function () {
  'use strict';
  const SG = window.ScratchGym;

  const rectOf = r => ({x: r.left, y: r.top, w: r.width, h: r.height});

  SG.screen = {
    rectOf,
    inViewport: (x, y) => x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight,
    // The id of the Blockly block whose SVG group holds `hit` (an element under a point), or null.
    ownerBlockId (hit) {
      const g = hit && hit.closest('[data-id]');
      return g ? g.getAttribute('data-id') : null;
    },
    // A block's own shape (its inputs included, not the blocks under it) as {x, y, w, h}.
    blockBox: block => rectOf(block.pathObject.svgPath.getBoundingClientRect()),
    // Centres of a block's drawn, non-editable labels (its words and icons): where a person
    // would point at the block.
    labelPoints (block) {
      const pts = [];
      for (const input of block.inputList) {
        for (const f of input.fieldRow) {
          if (f.EDITABLE || !f.getSvgRoot || !f.getSvgRoot()) continue;
          const r = f.getSvgRoot().getBoundingClientRect();
          if (r.width > 0) pts.push([r.left + r.width / 2, r.top + r.height / 2]);
        }
      }
      return pts;
    }
  };
}());
