// The Blockly workspace: the fixed editor view, settle detection and block geometry.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const DEFAULT_SCALE = 0.675; // scratch-gui's startScale

  function closeOverlays () {
    const SB = SG.ScratchBlocks;
    try { if (SB.hideChaff) SB.hideChaff(); } catch (e) { /* nothing open */ }
    try { SB.DropDownDiv && SB.DropDownDiv.hideWithoutAnimation(); } catch (e) { /* none */ }
    try { SB.WidgetDiv && SB.WidgetDiv.hide(); } catch (e) { /* none */ }
    try { SB.ContextMenu && SB.ContextMenu.hide && SB.ContextMenu.hide(); } catch (e) { /* none */ }
    const store = SG.state.store;
    const menus = store.getState().scratchGui.menus;
    for (const name of Object.keys(menus)) {
      if (menus[name]) store.dispatch({type: 'scratch-gui/menus/CLOSE_MENU', menu: name});
    }
    const modals = store.getState().scratchGui.modals;
    for (const name of Object.keys(modals)) {
      if (modals[name]) store.dispatch({type: 'scratch-gui/modals/CLOSE_MODAL', modal: name});
    }
  }

  // The editor's own settings an agent can change from the menu bar, as a new page has them.
  const DEFAULT_SETTINGS = {locale: 'en', colorMode: 'default', theme: 'default'};

  // The settings now, and whether any differs from a new page's.
  SG.register('editor.settings', () => {
    const state = SG.state.store.getState();
    const now = {locale: state.locales.locale, colorMode: state.scratchGui.settings.colorMode,
      theme: state.scratchGui.settings.theme};
    return {...now, changed: Object.keys(now).some(k => now[k] !== DEFAULT_SETTINGS[k])};
  });

  // What this page has that a new page has not: extensions loaded now (pen, music, ...: by the
  // project or Add Extension; the next project that does not use one sets it aside, see vm.js)
  // and turbo mode (loading another project keeps it). A page with any is not reused (page.py).
  SG.register('editor.leftovers', () => [
    ...Array.from(SG.vm.extensionManager._loadedExtensions.keys()),
    ...(SG.vm.runtime.turboMode ? ['turbo mode'] : [])
  ]);

  // Code tab, Motion category with the flyout at its top, workspace at default scroll and zoom.
  SG.register('view.reset', () => {
    closeOverlays();
    if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
    const store = SG.state.store;
    if (store.getState().scratchGui.editorTab.activeTabIndex !== 0) {
      store.dispatch({type: 'scratch-gui/navigation/ACTIVATE_TAB', activeTabIndex: 0});
    }
    const ws = SG.workspace();
    const flyout = ws.getFlyout();
    const tb = ws.getToolbox();
    const motion = tb.getToolboxItems()[0];
    if (tb.getSelectedItem() !== motion) tb.setSelectedItem(motion);
    flyout.scrollTarget = undefined; // cancels the flyout's scroll animation
    flyout.scrollToStart();
    ws.setScale(DEFAULT_SCALE);
    ws.scroll(0, 0);
    return viewState();
  });

  function viewState () {
    const ws = SG.workspace();
    return {
      scroll_x: ws.scrollX,
      scroll_y: ws.scrollY,
      scale: ws.scale,
      flyout_scroll_y: ws.getFlyout().getWorkspace().scrollY,
      tab: SG.state.store.getState().scratchGui.editorTab.activeTabIndex
    };
  }
  SG.register('view.state', () => viewState());

  // The GUI's stage size, 'large' (a new page's) or 'small' (what the stage-size buttons set):
  // sets it when `size` is given, waits for the layout and Blockly to follow, returns the size.
  // Sets the stage size (the code area is wider beside the small stage) and waits (a few frames)
  // for the GUI to lay the page out again and Blockly to resize.
  async function setStageSize (size) {
    const store = SG.state.store;
    if (store.getState().scratchGui.stageSize.stageSize === size) return;
    const before = SG.workspace().getParentSvg().getBoundingClientRect().width;
    store.dispatch({type: 'scratch-gui/StageSize/SET_STAGE_SIZE', stageSize: size});
    for (let i = 0; i < 30; i++) {
      await SG.frames(1);
      if (SG.workspace().getParentSvg().getBoundingClientRect().width !== before) break;
    }
    window.dispatchEvent(new Event('resize'));
    await SG.frames(2);
  }
  SG.setStageSize = setStageSize;
  SG.register('view.stageSize', async ({size}) => {
    const now = () => SG.state.store.getState().scratchGui.stageSize.stageSize;
    if (size === undefined || size === null || size === now()) return now();
    if (size !== 'large' && size !== 'small') {
      SG.fail('bad_args', `size must be 'large' or 'small', not ${JSON.stringify(size)}`);
    }
    await setStageSize(size);
    return now();
  });
  SG.register('view.set', ({scroll_x: x, scroll_y: y, scale}) => {
    const ws = SG.workspace();
    if (scale) ws.setScale(scale);
    ws.scroll(x || 0, y || 0);
    return viewState();
  });

  // Does the VM hold what the workspace shows? The one definition, used by settling
  // (`editor.settle`) and by composite edits (composite.js) alike:
  // - every non-shadow workspace block is in the VM with the same parent, and as many as the VM
  //   has. Left out: shadows in the count (Blockly 12 keeps no workspace block for a shadow hidden
  //   under a reporter, the VM does), and the argument reporters of a custom block's prototype
  //   (the workspace gives them new ids);
  // - `fields`: shadows too are in the VM with the same parent, and every editable field's value
  //   (a typed number, a picked option) has reached the VM;
  // - `variables`: every variable and list of the workspace exists in the VM (Blockly delivers
  //   VAR_CREATE on a later task).
  // Positions are left out: they need not agree (a loaded project's custom block definition can
  // stand elsewhere on the workspace than the VM has it, measured).
  function editableFields (block) {
    const out = [];
    for (const input of block.inputList) {
      for (const f of input.fieldRow) if (f.name && f.EDITABLE) out.push(f);
    }
    return out;
  }
  SG.editableFields = editableFields;

  function workspaceAgreesWithVm ({fields = false, variables = false} = {}) {
    const target = SG.vm.editingTarget;
    if (!target) return true;
    const vmBlocks = target.blocks._blocks;
    const inPrototype = parent => Boolean(parent) && parent.type === 'procedures_prototype';
    let n = 0;
    for (const b of SG.workspace().getAllBlocks(false)) {
      if (b.isInsertionMarker && b.isInsertionMarker()) continue;
      const parent = b.getParent();
      if (inPrototype(parent)) continue;
      if (b.isShadow() && !fields) continue;
      if (!b.isShadow()) n++;
      const v = vmBlocks[b.id];
      if (!v || (v.parent || null) !== (parent ? parent.id : null)) return false;
      if (fields) {
        for (const f of editableFields(b)) {
          const vf = v.fields[f.name];
          if (vf && String(vf.id || vf.value) !== String(f.getValue())) return false;
        }
      }
    }
    let m = 0;
    for (const id in vmBlocks) {
      const v = vmBlocks[id];
      const parent = v.parent ? vmBlocks[v.parent] : null;
      if (!v.shadow && !(parent && parent.opcode === 'procedures_prototype')) m++;
    }
    if (n !== m) return false;
    if (!variables) return true;
    return SG.workspace().getVariableMap().getAllVariables().every(
      v => (v.type !== '' && v.type !== 'list') || Boolean(target.lookupVariableById(v.getId())));
  }
  SG.workspaceAgreesWithVm = workspaceAgreesWithVm;

  // What the screen shows, as state: the view, the tab, the editing target, images and where
  // the top blocks stand. The VM's blocks are not in it: settling asks the workspace to agree
  // with them instead (workspaceAgreesWithVm), frame by frame. Scroll offsets are rounded to a
  // thousandth of a pixel: Blockly recomputes them after a drop with float noise (-5.7e-14
  // against 0) that no pixel shows.
  function fingerprint () {
    const ws = SG.workspace();
    const fine = v => Math.round(v * 1000) / 1000;
    const parts = [fine(ws.scrollX), fine(ws.scrollY), ws.scale,
      fine(ws.getFlyout().getWorkspace().scrollY),
      SG.state.store.getState().scratchGui.editorTab.activeTabIndex,
      SG.vm.editingTarget ? SG.vm.editingTarget.id : '', imagesFingerprint()];
    for (const b of ws.getTopBlocks(false)) {
      const xy = b.getRelativeToSurfaceXY();
      parts.push(b.id, Math.round(xy.x), Math.round(xy.y));
    }
    return parts.join('|');
  }

  // Images still decoding (the sprite watermark, costume thumbnails) would make screenshots differ.
  function imagesPending () {
    for (const img of document.images) {
      if (!img.complete) return true;
    }
    return false;
  }

  function imagesFingerprint () {
    let out = '';
    for (const img of document.images) out += img.src.length + ':' + img.src.slice(-24) + ';';
    return out;
  }

  // A deleted block's shrinking copy (Blockly's disposal effect, in its animation layer, whose
  // one empty group holds it) shows for a few frames after the block left the workspace; a press
  // there hits the copy.
  function disposing () {
    const layer = document.querySelector('.blocklyAnimationLayer');
    return Boolean(layer && layer.querySelector('path'));
  }

  function isDragging () {
    const ws = SG.workspace();
    return Boolean((ws.isDragging && ws.isDragging()) || SG.state.store.getState().scratchGui.blockDrag);
  }

  // The editor's state now, or null while it cannot be still (not ready, dragging, decoding, a
  // deleted block's copy shrinking).
  function stillFingerprint () {
    const busy = !SG.editorReady() || isDragging() || imagesPending() || disposing();
    return busy ? null : fingerprint();
  }

  // With `fromCall` the first fingerprint is taken at once, before any frame, so that `stable`
  // frames suffice (not `stable` + 1); a change in any of them starts the count again. Each frame
  // is judged on a timer started after its animation-frame callbacks: Blockly hands its queued
  // events (a drop's move: new parent and position) to its listeners, the VM among them, on a
  // timer it starts in an animation-frame callback of its own, asked for when the drop happened,
  // so that timer runs first. So the VM has a drop by the first frame's check, and that frame
  // counts as still: a drop settles in two frames (it took four while the VM's blocks were part
  // of the fingerprint, as the VM changed a frame after the workspace).
  async function settle (timeoutMs, stable, fromCall = false) {
    const start = performance.now();
    let last = fromCall ? stillFingerprint() : null;
    let same = 0;
    let frames = 0;
    for (;;) {
      await SG.frames(1);
      await new Promise(resolve => setTimeout(resolve, 0));
      frames++;
      const fp = stillFingerprint();
      if (fp !== null && fp === last && workspaceAgreesWithVm()) same++;
      else same = 0;
      last = fp;
      if (same >= stable) return {settled: true, frames, ms: performance.now() - start};
      if (performance.now() - start > timeoutMs) return {settled: false, frames, ms: performance.now() - start};
    }
  }

  // Without waiting for paint (for text observations): resolves once no drag is in progress, the
  // workspace agrees with the VM, and the editor's deferred updates have run (scratch-gui queues
  // its toolbox refresh with setTimeout 0, before this function's first timer).
  async function quiesce (timeoutMs) {
    const start = performance.now();
    for (;;) {
      await new Promise(resolve => setTimeout(resolve, 0));
      if (SG.editorReady() && !isDragging() && workspaceAgreesWithVm()) {
        return {settled: true, frames: 0, ms: performance.now() - start};
      }
      if (performance.now() - start > timeoutMs) return {settled: false, frames: 0, ms: performance.now() - start};
    }
  }

  // Resolves when no drag is in progress, no image is decoding, the workspace agrees with the VM,
  // and nothing changed over `stable_frames` consecutive animation frames (with from_call, counted
  // from the call itself: one frame less); or after timeout_ms (settled = false). `stable_frames` 0
  // does not wait for frames at all (see quiesce). With stop_vm, the VM's frame loop is then
  // stopped if no script runs (after one last VM step that draws the stage and updates the GUI,
  // if either is pending), and the editor settles again.
  SG.register('editor.settle', async ({timeout_ms: timeoutMs = 3000, stable_frames: stable = 2,
    stop_vm: stopVm = false, from_call: fromCall = false}) => {
    if (stable > 0) SG.toolbox.flush(); // a painted frame shows the flyout
    const wait = stable > 0 ? settle : quiesce;
    const first = await wait(timeoutMs, stable, fromCall);
    const rt = SG.vm.runtime;
    if (!stopVm || rt.threads.length > 0) {
      return {...first, vm_running: rt._steppingInterval !== null};
    }
    if (!rt.redrawRequested && !rt._refreshTargets) {
      SG.vm.quit(); // nothing to draw or to tell the GUI: stopping changes nothing on screen
      return {...first, vm_running: false};
    }
    // One last frame (also when the loop was not running: edits can leave a GUI update pending).
    rt._step();
    SG.vm.quit();
    const second = await wait(timeoutMs, stable, fromCall);
    return {settled: first.settled && second.settled, frames: first.frames + second.frames,
      ms: first.ms + second.ms, vm_running: false};
  });

  // Screen boxes of blocks, for tests and scripted agents: {id, opcode, in_flyout, x, y, w, h}.
  SG.register('workspace.blockBoxes', ({flyout = true, canvas = true}) => {
    if (flyout) SG.toolbox.flush();
    const ws = SG.workspace();
    const out = [];
    const add = (b, inFlyout) => {
      const r = b.getSvgRoot().getBoundingClientRect();
      out.push({id: b.id, opcode: b.type, in_flyout: inFlyout, shadow: b.isShadow(),
        x: r.left, y: r.top, w: r.width, h: r.height});
    };
    if (canvas) ws.getAllBlocks(false).forEach(b => add(b, false));
    if (flyout) ws.getFlyout().getWorkspace().getAllBlocks(false).forEach(b => add(b, true));
    return out;
  });
}());
