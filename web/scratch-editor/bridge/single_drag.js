// Single-Step Drag: task views, which block a drag picked up, undoing a probe drag, and the
// connection geometry from which regions of generated tasks are derived.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const tracker = {installed: false, dragged: null, baseline: null, known: null};

  function target () {
    const t = SG.vm.editingTarget;
    if (!t) SG.fail('no_target', 'no editing target');
    return t;
  }

  // The structure of the editing target's blocks (what a drag can change), as one string.
  function structure () {
    const blocks = target().blocks._blocks;
    const parts = [];
    for (const id of Object.keys(blocks).sort()) {
      const b = blocks[id];
      const inputs = Object.keys(b.inputs).sort().map(n => `${n}=${b.inputs[n].block}/${b.inputs[n].shadow}`);
      const xy = b.topLevel ? `${Math.round(b.x)},${Math.round(b.y)}` : '';
      parts.push(`${id}:${b.opcode}:${b.parent}:${b.next}:${b.topLevel}:${xy}:${inputs.join(',')}`);
    }
    return parts.join('|');
  }

  function onEvent (e) {
    if (e.type !== 'drag' || !e.isStart || tracker.dragged) return;
    const block = SG.workspace().getBlockById(e.blockId);
    tracker.dragged = {
      id: e.blockId,
      opcode: block ? block.type : null,
      from_flyout: tracker.known ? !tracker.known.has(e.blockId) : null
    };
  }

  // Makes the sprite named `name` (or the stage, by its name) the editing target.
  async function selectTarget (name) {
    const vm = SG.vm;
    const runtime = vm.runtime;
    const stage = runtime.getTargetForStage();
    const t = runtime.getSpriteTargetByName(name) || (stage && stage.getName() === name ? stage : null);
    if (!t) SG.fail('unknown_target', `no sprite or stage named ${JSON.stringify(name)}`);
    if (vm.editingTarget === t) return;
    vm.setEditingTarget(t.id);
    await SG.frames(2);
  }

  // Selects a category, scrolls the flyout and the workspace, sets the zoom: all without animation.
  // flyout_offset is added to the category's own scroll position (workspace units of the flyout).
  // Optional: `target` (a sprite's or the stage's name) becomes the editing target first;
  // `stage_size` ('large' by default, or 'small') lays the GUI out; `translate` [tx, ty] then sets
  // the workspace canvas' translation directly (screen px from the code area's top-left corner),
  // past the scroll limits too, as ScratchWorld's single-drag tasks set their workspace_state;
  // `flyout_anchor` [opcode, nth, y] scrolls the palette on until that block is centred at y.
  SG.register('single_drag.view', async ({category = 'motion', flyout_offset: offset = 0,
    scroll_x: sx = 0, scroll_y: sy = 0, scale = 0.675, target: targetName = null,
    stage_size: stageSize = 'large', translate = null, flyout_anchor: flyoutAnchor = null}) => {
    if (targetName) await selectTarget(targetName);
    await SG.setStageSize(stageSize);
    SG.toolbox.flush();
    const ws = SG.workspace();
    const flyout = ws.getFlyout();
    const tb = ws.getToolbox();
    const item = tb.getToolboxItems().find(i => i.getId && i.getId() === category);
    if (!item) SG.fail('unknown_category', `no toolbox category ${JSON.stringify(category)}`);
    if (tb.getSelectedItem() !== item) tb.setSelectedItem(item);
    flyout.scrollTarget = undefined;
    const base = (flyout.scrollPositions.get(item.getName()) || 0) * flyout.getWorkspace().scale;
    const fws = flyout.getWorkspace();
    fws.scrollbar.setY(Math.max(0, base + offset));
    if (flyoutAnchor) {
      // Then scroll on so that the nth palette block of the opcode is centred at screen y.
      const [opcode, nth, y] = flyoutAnchor;
      const box = b => b.getSvgRoot().getBoundingClientRect();
      const found = fws.getTopBlocks(false).filter(b => b.type === opcode)
        .sort((a, b) => box(a).top - box(b).top);
      if (found.length <= nth) {
        SG.fail('unknown_block', `the palette shows ${found.length} ${opcode} block(s), not ${nth + 1}`);
      }
      const r = box(found[nth]);
      fws.scrollbar.setY(Math.max(0, base + offset + (r.top + r.height / 2 - y)));
    }
    ws.setScale(scale);
    ws.scroll(sx, sy);
    let forced = false;
    if (translate) {
      // The canvas sits at (scroll + the palette's width); scroll there through Blockly (its
      // scrollbars then agree, and later resizes keep it), else past the limits by hand.
      const [tx, ty] = translate;
      const m = ws.getMetrics();
      ws.scroll(tx - m.absoluteLeft, ty - m.absoluteTop);
      const now = ws.getOriginOffsetInPixels ? ws.getOriginOffsetInPixels() : {x: NaN, y: NaN};
      if (Math.abs(now.x - tx) > 0.5 || Math.abs(now.y - ty) > 0.5) {
        ws.scrollX = tx - m.absoluteLeft;
        ws.scrollY = ty - m.absoluteTop;
        ws.translate(tx, ty);
        forced = true;
      }
    }
    const origin = ws.getOriginOffsetInPixels();
    return {scroll_x: ws.scrollX, scroll_y: ws.scrollY, scale: ws.scale, forced,
      origin: [origin.x, origin.y],
      flyout_scroll_y: -flyout.getWorkspace().scrollY, category,
      target: SG.vm.editingTarget ? SG.vm.editingTarget.getName() : null,
      stage_size: SG.state.store.getState().scratchGui.stageSize.stageSize};
  });

  // Remembers the current blocks as the state to restore (unless keep_baseline: after a restore
  // the state to compare with stays the first one) and starts watching for the next drag.
  SG.register('single_drag.arm', ({keep_baseline: keep = false}) => {
    const ws = SG.workspace();
    if (!tracker.installed) {
      ws.addChangeListener(onEvent);
      tracker.installed = true;
    }
    ws.clearUndo();
    tracker.dragged = null;
    tracker.known = new Set(ws.getAllBlocks(false).map(b => b.id));
    if (!keep || tracker.baseline === null) tracker.baseline = structure();
    return {blocks: tracker.known.size};
  });

  // Which block the last drag picked up: {id, opcode, from_flyout} or null (nothing was dragged).
  SG.register('single_drag.dragged', () => tracker.dragged);

  // Undoes everything since `arm`; ok is whether the VM's blocks are back to the armed state.
  // The VM hears of the undo through Blockly's events, a frame or so later: wait for it.
  SG.register('single_drag.undo', async ({max_frames: maxFrames = 20}) => {
    const ws = SG.workspace();
    let n = 0;
    while (ws.getUndoStack().length > 0 && n < 50) {
      ws.undo(false);
      n++;
    }
    ws.clearUndo();
    tracker.dragged = null;
    // Equal to the baseline on two consecutive frames (late events from the drop would show).
    let frames = 0;
    let same = 0;
    while (same < 2 && frames < maxFrames) {
      await SG.frames(1);
      frames++;
      same = tracker.baseline !== null && structure() === tracker.baseline ? same + 1 : 0;
    }
    return {ok: same >= 2, undone: n, frames};
  });

  SG.register('single_drag.structure', () => structure());

  // Which block a press at each point would drag: the block under the point (a shadow stands for
  // its parent), by hit testing. Returns the points of `points` that would drag block `id`.
  SG.register('single_drag.hitTest', ({id, points}) => {
    const ws = SG.workspace();
    const fws = ws.getFlyout().getWorkspace();
    const out = [];
    for (const [x, y] of points) {
      const el = document.elementFromPoint(x, y);
      const group = el && el.closest ? el.closest('g[data-id]') : null;
      if (!group) continue;
      let block = ws.getBlockById(group.getAttribute('data-id')) ||
        fws.getBlockById(group.getAttribute('data-id'));
      while (block && block.isShadow() && block.getParent()) block = block.getParent();
      if (block && block.id === id) out.push([x, y]);
    }
    return out;
  });

  // Connection geometry in screen pixels, for deriving feasible regions without drags.
  // For each non-shadow block of the main workspace: its screen box (without children) and its
  // connections {type, x, y, input, target}; also the flyout's blocks and the snap radius in px.
  // Sent as JSON text, as `single_drag.capture` is (below).
  SG.register('single_drag.geometry', () => JSON.stringify(geometry()));
  function geometry () {
    const ws = SG.workspace();
    const SB = SG.ScratchBlocks;
    const typeName = {};
    typeName[SB.INPUT_VALUE] = 'input';
    typeName[SB.OUTPUT_VALUE] = 'output';
    typeName[SB.NEXT_STATEMENT] = 'next';
    typeName[SB.PREVIOUS_STATEMENT] = 'previous';
    const svg = ws.getParentSvg().getBoundingClientRect();
    // Screen positions through the block group's own transform (right in the palette too).
    const describe = (b) => {
      const m = b.getSvgRoot().getScreenCTM();
      const toScreen = (o) => [m.a * o.x + m.c * o.y + m.e, m.b * o.x + m.d * o.y + m.f];
      const r = b.getSvgRoot().getBoundingClientRect();
      const path = b.pathObject && b.pathObject.svgPath ? b.pathObject.svgPath.getBoundingClientRect() : r;
      const conns = b.getConnections_(false).map(c => {
        const [x, y] = toScreen(c.getOffsetInBlock());
        const input = c.type === SB.INPUT_VALUE || c.type === SB.NEXT_STATEMENT ?
          (b.inputList.find(i => i.connection === c) || {}).name || null : null;
        return {type: typeName[c.type], x, y, input, check: c.getCheck ? c.getCheck() : null,
          target: c.targetBlock() ? c.targetBlock().id : null,
          target_shadow: c.targetBlock() ? c.targetBlock().isShadow() : null};
      });
      return {id: b.id, opcode: b.type, shadow: b.isShadow(), top: !b.getParent(), origin: [m.e, m.f],
        box: [r.left, r.top, r.width, r.height], path: [path.left, path.top, path.width, path.height],
        connections: conns};
    };
    const fws = ws.getFlyout().getWorkspace();
    const m = ws.getMetrics();
    return {
      svg: [svg.left, svg.top, svg.width, svg.height],
      // The code area on screen (the workspace's visible part, right of the palette).
      canvas_rect: [svg.left + m.absoluteLeft, svg.top + m.absoluteTop, m.viewWidth, m.viewHeight],
      scale: ws.scale,
      flyout_scale: fws.scale,
      snap_radius_px: SB.config.snapRadius * ws.scale,
      connecting_radius_px: SB.config.connectingSnapRadius * ws.scale,
      canvas: ws.getAllBlocks(false).map(b => describe(b)),
      flyout: fws.getTopBlocks(false).map(b => describe(b))
    };
  }
  // What decides a drag, for the fast drag model: which block a press at each point of a grid
  // would pick up (`labels`, row-major, 0 = none, else 1 + index into `picks`), the drag
  // constants of this editor (workspace units), the workspace's screen rect (a drop outside it
  // reverts the drag) and the palette's (a drop over it deletes the block).
  // Sent as JSON text: Playwright checks every number of a returned object in Python, which
  // for the 230,400 labels of a 2 px grid cost about 4.5 s a capture; the text parses in ms.
  SG.register('single_drag.capture', ({step = 2}) => JSON.stringify(pickMap(step)));
  function pickMap (step) {
    const ws = SG.workspace();
    const flyout = ws.getFlyout();
    const fws = flyout.getWorkspace();
    const cfg = SG.ScratchBlocks.config;
    const W = window.innerWidth;
    const H = window.innerHeight;
    const cols = Math.ceil(W / step);
    const rows = Math.ceil(H / step);
    const labels = new Array(cols * rows).fill(0);
    const picks = [];
    const index = new Map();
    const pickAt = (x, y) => {
      const el = document.elementFromPoint(x, y);
      const group = el && el.closest ? el.closest('g[data-id]') : null;
      if (!group) return 0;
      const id = group.getAttribute('data-id');
      let block = ws.getBlockById(id);
      const inFlyout = !block;
      if (inFlyout) block = fws.getBlockById(id);
      if (!block) return 0;
      if (inFlyout) {
        block = block.getRootBlock();
      } else {
        while (block && block.isShadow() && block.getParent()) block = block.getParent();
      }
      if (!block || block.isShadow()) return 0;
      const key = (inFlyout ? 'f:' : 'w:') + block.id;
      if (!index.has(key)) {
        index.set(key, picks.length + 1);
        picks.push({id: block.id, opcode: block.type, flyout: inFlyout});
      }
      return index.get(key);
    };
    // Only points inside some block's box can hit a block. Inside those boxes, hit testing runs
    // on a coarse lattice (every `coarse` fine points); a coarse cell whose four corners pick the
    // same block is filled, the others are tested point by point.
    const coarse = 4;
    const area = ws.getParentSvg().getBoundingClientRect();
    const todo = new Uint8Array(cols * rows);
    for (const b of ws.getTopBlocks(false).concat(fws.getTopBlocks(false))) {
      const box = b.getSvgRoot().getBoundingClientRect();
      const c0 = Math.max(0, Math.floor(box.left / step));
      const c1 = Math.min(cols - 1, Math.ceil(box.right / step));
      const r0 = Math.max(Math.floor(area.top / step), Math.floor(box.top / step));
      const r1 = Math.min(rows - 1, Math.ceil(Math.min(box.bottom, area.bottom) / step));
      if (c1 < c0 || r1 < r0) continue;
      for (let r = r0; r <= r1; r++) todo.fill(1, r * cols + c0, r * cols + c1 + 1);
    }
    // Hit testing walks the whole SVG: palette blocks scrolled out of view are hidden meanwhile.
    const shown = flyout.svgGroup_.getBoundingClientRect();
    const hidden = fws.getTopBlocks(false).map(b => b.getSvgRoot()).filter(g => {
      const box = g.getBoundingClientRect();
      return box.bottom < shown.top || box.top > shown.bottom;
    });
    for (const g of hidden) g.style.display = 'none';
    const ccols = Math.ceil(cols / coarse) + 1;
    const crows = Math.ceil(rows / coarse) + 1;
    const lattice = new Int32Array(ccols * crows).fill(-1);
    const latticeAt = (cr, cc) => {
      const k = cr * ccols + cc;
      if (lattice[k] < 0) lattice[k] = pickAt(cc * coarse * step, cr * coarse * step);
      return lattice[k];
    };
    for (let cr = 0; cr < crows - 1; cr++) {
      for (let cc = 0; cc < ccols - 1; cc++) {
        const r0 = cr * coarse;
        const c0 = cc * coarse;
        let any = false;
        for (let r = r0; r < Math.min(rows, r0 + coarse) && !any; r++) {
          for (let c = c0; c < Math.min(cols, c0 + coarse); c++) if (todo[r * cols + c]) { any = true; break; }
        }
        if (!any) continue;
        const a = latticeAt(cr, cc);
        const same = a === latticeAt(cr, cc + 1) && a === latticeAt(cr + 1, cc) && a === latticeAt(cr + 1, cc + 1);
        for (let r = r0; r < Math.min(rows, r0 + coarse); r++) {
          for (let c = c0; c < Math.min(cols, c0 + coarse); c++) {
            if (!todo[r * cols + c]) continue;
            labels[r * cols + c] = same ? a : (r === r0 && c === c0 ? a : pickAt(c * step, r * step));
          }
        }
      }
    }
    for (const g of hidden) g.style.display = '';
    const rect = (el) => {
      if (!el) return null;
      const b = el.getBoundingClientRect();
      return [b.left, b.top, b.width, b.height];
    };
    const toolbox = ws.getToolbox();
    return {
      step, cols, rows, labels, picks,
      workspace_rect: rect(ws.getParentSvg()),
      flyout_rect: rect(flyout.svgGroup_),
      toolbox_rect: rect(toolbox && toolbox.HtmlDiv),
      config: {drag_radius: cfg.dragRadius, flyout_drag_radius: cfg.flyoutDragRadius,
        snap_radius: cfg.snapRadius, connecting_snap_radius: cfg.connectingSnapRadius,
        current_connection_preference: cfg.currentConnectionPreference,
        drag_angle_range: flyout.dragAngleRange_}
    };
  }
}());
