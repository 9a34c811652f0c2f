// The page's random generator, seeded. It is loaded before the editor, so what the editor draws
// at random comes out the same on every newly loaded page: the colour swatches of the palette's
// colour inputs (drawn once, when the palette is first built), the ids of new blocks. Unseeded,
// two runs of the same oracle actions showed other swatches (shopping-basket) and placed a new
// custom block's definition elsewhere (power); seeded, they give the same screens. Math.random
// stays this one function.
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
