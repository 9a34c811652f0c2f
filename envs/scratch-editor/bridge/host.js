// Mounts the pinned Scratch GUI into #app and resolves ScratchGym.ready when the VM, the Blockly
// workspace and the flyout are there.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const el = document.getElementById('app');
  let vmResolve;
  const vmReady = new Promise(resolve => { vmResolve = resolve; });

  GUI.setAppElement(el);
  SG.state = new GUI.EditorState({locale: 'en'});
  GUI.createStandaloneRoot(SG.state, el).render({
    canSave: false,
    canEditTitle: false,
    backpackVisible: false,
    showComingSoon: false,
    projectId: GUI.defaultProjectId,
    onVmInit: vm => { SG.vm = vm; vmResolve(vm); }
  });

  function findBlocklyComponent () {
    // The Blocks component holds both the Blockly workspace and the ScratchBlocks module; walk up
    // the React fibers from the nearest DOM ancestor of the injection div that has one.
    let el = document.querySelector('.injectionDiv');
    const fiberKey = e => Object.keys(e).find(k => k.startsWith('__reactFiber$'));
    while (el && !fiberKey(el)) el = el.parentElement;
    if (!el) return null;
    let fiber = el[fiberKey(el)];
    while (fiber) {
      const node = fiber.stateNode;
      if (node && node.workspace && node.ScratchBlocks) return node;
      fiber = fiber.return;
    }
    return null;
  }

  async function waitFor (predicate, what, timeoutMs) {
    const start = performance.now();
    for (;;) {
      const v = predicate();
      if (v) return v;
      if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise(r => setTimeout(r, 25));
    }
  }

  SG.ready = (async () => {
    await vmReady;
    const comp = await waitFor(findBlocklyComponent, 'the Blockly workspace', 60000);
    SG.ScratchBlocks = comp.ScratchBlocks;
    SG.blocksComponent = comp;
    SG.workspace = () => comp.workspace;
    await waitFor(() => {
      const fly = SG.workspace().getFlyout();
      return fly && fly.getWorkspace().getTopBlocks(false).length > 0 && SG.vm.runtime.targets.length > 1;
    }, 'the flyout and the default project', 60000);
    return true;
  })();
}());
