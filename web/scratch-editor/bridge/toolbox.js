// The flyout rebuild, deferred while nothing looks at it (text-observation environments).
//
// scratch-gui rebuilds the whole flyout (every category, every block) whenever the toolbox XML
// changes (selecting another sprite or the stage) and after a variable, list or custom block is
// made: about 100 ms of block creation, layout and paint. It already skips that work while the
// Code tab is hidden and does it when the tab shows again. With deferral on, scratch-gym does the
// same while no one looks: the GUI's request is recorded, not run, and the rebuild happens on
// flush(), which everything that reads or shows the flyout calls first (a painted settle,
// screenshots and input from Python, the element list, block boxes, the catalogue, the drag
// views, composite add_block's editor defaults). The toolbox XML, the workspace and the VM are
// updated as always; only the flyout's blocks wait.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  let deferring = false;
  let pending = false;
  let rebuilds = 0;

  // Wraps a newly mounted Blocks component's requestToolboxUpdate and updateToolbox (scratch-gui
  // blocks.jsx); host.js calls this once for each component it finds.
  function patch (comp) {
    const request = comp.requestToolboxUpdate;
    const update = comp.updateToolbox;
    comp.requestToolboxUpdate = function () {
      if (!deferring) return request.call(this);
      clearTimeout(this.toolboxUpdateTimeout);
      // Truthy, as while the GUI's own timer is pending: withToolboxUpdates() queues until flush.
      this.toolboxUpdateTimeout = 'deferred';
      pending = true;
    };
    comp.updateToolbox = function () {
      pending = false;
      rebuilds++;
      return update.call(this);
    };
  }

  function flush () {
    if (!pending || !SG.editorReady()) return false;
    SG.blocksComponent.updateToolbox();
    return true;
  }

  // Does the pending rebuild change the flyout's fixed blocks (another target's toolbox XML), not
  // only its variable and My Blocks categories?
  function paletteChanged () {
    const comp = SG.blocksComponent;
    return pending && SG.state.store.getState().scratchGui.toolbox.toolboxXML !== comp._renderedToolboxXML;
  }

  SG.toolbox = {flush, paletteChanged};

  // A newly mounted code area builds its own flyout: nothing is pending for it.
  SG.onBlocksMounted(comp => {
    pending = false;
    patch(comp);
  });

  // Turning deferral off rebuilds a pending flyout at once.
  SG.register('toolbox.defer', ({enabled}) => {
    deferring = Boolean(enabled);
    if (!deferring) flush();
    return {deferring, pending};
  });

  SG.register('toolbox.flush', () => ({rebuilt: flush()}));

  SG.register('toolbox.state', () => ({deferring, pending, rebuilds}));
}());
