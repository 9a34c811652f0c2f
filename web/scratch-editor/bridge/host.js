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

  // scratch-gui mounts a new Blocks component (and disposes the old workspace) when the color
  // mode changes (Settings menu), so the component is found again whenever the known one is gone.
  let current = null;
  const mountedHooks = [];

  function isMounted (comp) {
    const ws = comp && comp.workspace;
    const svg = ws && ws.getParentSvg && ws.getParentSvg();
    return Boolean(ws && ws.getFlyout() && svg && svg.isConnected);
  }

  function blocksComponent () {
    if (isMounted(current)) return current;
    const found = findBlocklyComponent();
    if (!isMounted(found)) return null;
    current = found;
    SG.ScratchBlocks = found.ScratchBlocks;
    for (const hook of mountedHooks) hook(found);
    return found;
  }

  // The Blocks component with its workspace; fails while the editor is between two of them.
  function requireComponent () {
    const comp = blocksComponent();
    if (!comp) SG.fail('editor_remounting', 'the code area is being rebuilt; try again');
    return comp;
  }

  Object.defineProperty(SG, 'blocksComponent', {get: requireComponent});
  SG.workspace = () => requireComponent().workspace;
  // Called with each newly mounted Blocks component (e.g. to wrap its methods), starting with the
  // one mounted now, if any (the GUI may mount before a later bridge script registers its hook).
  SG.onBlocksMounted = hook => {
    mountedHooks.push(hook);
    if (isMounted(current)) hook(current);
  };
  // True when the code area is mounted and its flyout holds blocks.
  SG.editorReady = () => {
    const comp = blocksComponent();
    return Boolean(comp && comp.workspace.getFlyout().getWorkspace().getTopBlocks(false).length > 0);
  };

  SG.ready = (async () => {
    await vmReady;
    await waitFor(blocksComponent, 'the Blockly workspace', 60000);
    await waitFor(() => SG.editorReady() && SG.vm.runtime.targets.length > 1,
      'the flyout and the default project', 60000);
    return true;
  })();
}());
