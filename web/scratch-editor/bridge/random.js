// The page's random generator, seeded. It is loaded before the editor, so what the editor draws
// at random comes out the same on every newly loaded page: the colour swatches of the palette's
// colour inputs (drawn once, when the palette is first built) and the ids of new blocks (they
// decide where Blockly bumps the neighbours of a new custom block's definition). So the same
// actions give the same screens on any page. Math.random stays this one function.
(function () {
  'use strict';
  function mulberry32 (seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  Math.random = mulberry32(0);
  window.ScratchGymRandom = {mulberry32};
}());
