// Screen geometry of blocks for scripted (privileged) agents such as the primitive oracle: where a
// block can be grabbed, where its connections and input slots are, and where the visible code area
// is. Points are viewport pixels; nothing here changes the editor.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const S = SG.screen;

  const toScreen = (ws, x, y) => {
    const m = ws.getCanvas().getScreenCTM();
    return [m.a * x + m.e, m.d * y + m.f];
  };

  // A point on the block's own shape (a label first) where the block is on top, or null.
  function grabPoint (block) {
    const pts = S.labelPoints(block);
    const r = S.blockBox(block);
    for (const fx of [0.03, 0.08, 0.5, 0.2, 0.8, 0.35, 0.65, 0.95]) {
      for (const fy of [0.5, 0.25, 0.75]) pts.push([r.x + r.w * fx, r.y + Math.min(r.h * fy, 40 * fy)]);
    }
    for (const [x, y] of pts) {
      if (S.inViewport(x, y) && S.ownerBlockId(document.elementFromPoint(x, y)) === block.id) return [x, y];
    }
    return null;
  }

  function connPoint (ws, c) {
    return c ? toScreen(ws, c.x, c.y) : null;
  }

  function editableField (block) {
    for (const input of block.inputList) {
      for (const f of input.fieldRow) if (f.EDITABLE && f.name) return f;
    }
    return null;
  }

  function describe (ws, block) {
    const out = {
      id: block.id,
      opcode: block.type,
      ...S.blockBox(block),
      grab: grabPoint(block),
      previous: connPoint(ws, block.previousConnection),
      next: connPoint(ws, block.nextConnection),
      output: connPoint(ws, block.outputConnection),
      parent: block.getParent() ? block.getParent().id : null,
      inputs: []
    };
    if (block.getProcCode) out.proccode = block.getProcCode();
    const fields = {};
    for (const input of block.inputList) {
      for (const f of input.fieldRow) {
        if (!f.name) continue;
        const root = f.getSvgRoot && f.getSvgRoot();
        const fr = root ? root.getBoundingClientRect() : null;
        fields[f.name] = {text: f.getText(), value: f.getValue(),
          center: fr && fr.width > 0 ? [fr.left + fr.width / 2, fr.top + fr.height / 2] : null};
      }
      if (!input.connection || !input.name) continue;
      const C = SG.ScratchBlocks.ConnectionType;
      const child = input.connection.targetBlock();
      const item = {name: input.name,
        kind: input.connection.type === C.NEXT_STATEMENT ? 'statement' : 'value',
        connection: connPoint(ws, input.connection),
        block: child && !child.isShadow() ? child.id : null,
        shadow: null};
      if (child && child.isShadow()) {
        const f = editableField(child);
        const sr = S.blockBox(child);
        item.shadow = {id: child.id, opcode: child.type, field: f ? f.name : null,
          text: f ? f.getText() : '', value: f ? f.getValue() : null,
          center: [sr.x + sr.w / 2, sr.y + sr.h / 2]};
      }
      out.inputs.push(item);
    }
    out.fields = fields;
    return out;
  }

  // One workspace block by id (null if it is not there).
  SG.register('geometry.block', ({id}) => {
    const ws = SG.workspace();
    const block = ws.getBlockById(id);
    return block ? describe(ws, block) : null;
  });

  // Every non-shadow workspace block, and the visible code area (right of the flyout).
  SG.register('geometry.workspace', () => {
    const ws = SG.workspace();
    const blocks = ws.getAllBlocks(false).filter(b => !b.isShadow() &&
      !(b.isInsertionMarker && b.isInsertionMarker()));
    const svg = ws.getParentSvg().getBoundingClientRect();
    const fr = ws.getFlyout().getWorkspace().getCanvas().closest('svg').getBoundingClientRect();
    const left = Math.max(svg.left, fr.right || svg.left);
    // The argument reporters of custom-block prototypes (dragging one makes a copy).
    const args = ws.getAllBlocks(false).filter(b => b.type.startsWith('argument_reporter') &&
      b.getParent() && b.getParent().type === 'procedures_prototype').map(b => ({
      ...describe(ws, b), name: b.getFieldValue('VALUE'),
      define: b.getParent().getParent() ? b.getParent().getParent().id : null}));
    return {area: {x: left, y: svg.top, w: svg.right - left, h: svg.bottom - svg.top},
      blocks: blocks.map(b => describe(ws, b)), args};
  });

  // The [label, value] options of a dropdown field of a workspace block (a shadow's id works too).
  // The open colour picker's sliders (Color 0-360, Saturation 0-1, Brightness 0-255): where each
  // track is on screen, its range and its value; [] when no picker is open.
  SG.register('geometry.colourSliders', () => {
    const div = document.querySelector('.blocklyDropDownDiv');
    if (!div || div.style.display === 'none') return [];
    return [...div.querySelectorAll('input.scratchColourSlider')].map(el => {
      const r = el.getBoundingClientRect();
      return {x: r.left, y: r.top, w: r.width, h: r.height, min: Number(el.min),
        max: Number(el.max), value: Number(el.value)};
    });
  });

  // Is a field's text editor open and focused (what typing would go into)?
  SG.register('geometry.editing', () => {
    const el = document.activeElement;
    return Boolean(el && el.classList && el.classList.contains('blocklyHtmlInput'));
  });

  SG.register('geometry.options', ({id, field}) => {
    const block = SG.workspace().getBlockById(id);
    const f = block && block.getField(field);
    if (!f || !f.getOptions) return null;
    return f.getOptions(false).map(([label, value]) => [typeof label === 'string' ? label : '', String(value)]);
  });

  // Flyout blocks now drawn (after the toolbox's deferred rebuild), with their geometry.
  SG.register('geometry.flyout', () => {
    SG.toolbox.flush();
    const fws = SG.workspace().getFlyout().getWorkspace();
    return fws.getTopBlocks(false).map(b => describe(fws, b));
  });
}());
