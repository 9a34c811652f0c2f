// The element list: every visible, uncovered thing on the editor screen with a type, text and box.
// `elements.list` returns them in a stable order (screen regions, then reading order; a canvas
// block is followed by its editable fields). `elements.texts` returns the visible text atoms (one
// per DOM text run or Blockly field) for measuring OCR. Boxes are viewport pixels.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const OVERLAY = '.blocklyDropDownDiv, .blocklyWidgetDiv, .ReactModalPortal, [class*="modal_modal-overlay"], ' +
    '.react-contextmenu, [class*="menu-bar_menu-bar-menu"], [role=menu], [role=listbox], [role=dialog]';
  const MENU_ITEM = '[role=menuitem], [role=option], [class*="menu_menu-item"], .blocklyMenuItem, ' +
    '.react-contextmenu-item';
  const GROUPS = {menubar: 0, tabs: 1, toolbox: 2, flyout: 3, canvas: 4, stage: 5, targets: 6, other: 7, overlay: 8};

  const clean = s => String(s || '').replace(/[\s\u00a0]+/g, ' ').trim();
  const {inViewport, rectOf, ownerBlockId, blockBox, labelPoints} = SG.screen;

  // Points to probe, nearest the centre first: centre, then a grid over the box.
  function probePoints (r, preferred) {
    const pts = (preferred || []).slice();
    pts.push([r.x + r.w / 2, r.y + r.h / 2]);
    const grid = [];
    for (const fx of [0.15, 0.3, 0.5, 0.7, 0.85]) {
      for (const fy of [0.2, 0.5, 0.8]) grid.push([r.x + r.w * fx, r.y + r.h * fy]);
    }
    const cx = r.x + r.w / 2;
    const cy = r.y + r.h / 2;
    grid.sort((a, b) => Math.hypot(a[0] - cx, a[1] - cy) - Math.hypot(b[0] - cx, b[1] - cy));
    return pts.concat(grid).filter(([x, y]) => inViewport(x, y));
  }

  // The first probe point where `owns(topmost element)` holds, or null (covered or off screen).
  function visiblePoint (r, owns, preferred) {
    if (r.w < 1 || r.h < 1) return null;
    for (const [x, y] of probePoints(r, preferred)) {
      const hit = document.elementFromPoint(x, y);
      if (hit && owns(hit)) return [x, y];
    }
    return null;
  }

  function groupOf (el) {
    if (el.closest(OVERLAY) || el.matches(MENU_ITEM)) return GROUPS.overlay;
    if (el.closest('header')) return GROUPS.menubar;
    if (el.closest('[role=tablist]')) return GROUPS.tabs;
    if (el.closest('.blocklyToolboxCategoryGroup, [class*="extension-button"]')) return GROUPS.toolbox;
    if (el.closest('.blocklyFlyout')) return GROUPS.flyout;
    if (el.closest('.injectionDiv')) return GROUPS.canvas;
    if (el.closest('[class*="stage-wrapper_stage-wrapper"]')) return GROUPS.stage;
    if (el.closest('[class*="gui_target-wrapper"]')) return GROUPS.targets;
    return GROUPS.other;
  }

  // -- Blockly blocks and fields ---------------------------------------------------------------

  // Image fields without alt text (the turn arrows): a symbol named after their icon.
  function iconText (field) {
    const root = field.getSvgRoot && field.getSvgRoot();
    return root ? ICON_TEXT[iconName(root.querySelector('image'))] || '' : '';
  }

  // A block's text: its own fields and the values of its shadow inputs, in display order.
  function blockText (block) {
    const words = [];
    for (const input of block.inputList) {
      for (const f of input.fieldRow) {
        const t = clean(f.getText()) || iconText(f);
        if (t) words.push(t);
      }
      const child = input.connection && input.connection.targetBlock();
      if (child && child.isShadow()) {
        const t = blockText(child);
        if (t) words.push(t);
      }
    }
    return words.join(' ');
  }

  function fieldKind (field) {
    const root = field.getSvgRoot && field.getSvgRoot();
    const cls = root ? root.getAttribute('class') || '' : '';
    if (!field.EDITABLE) return null;
    if (/blocklyDropdownField/.test(cls)) return 'dropdown';
    if (/blocklyTextInputField|blocklyNumberField|blocklyInputField/.test(cls)) return 'input';
    return null;
  }

  // Editable fields of a block: its own, and those of its shadow inputs (box = the shadow's shape).
  function editableFields (block) {
    const out = [];
    for (const input of block.inputList) {
      for (const f of input.fieldRow) {
        const kind = fieldKind(f);
        if (kind) out.push({field: f, kind, holder: null});
      }
      const child = input.connection && input.connection.targetBlock();
      if (child && child.isShadow()) {
        for (const ci of child.inputList) {
          for (const f of ci.fieldRow) {
            const kind = fieldKind(f);
            if (kind) out.push({field: f, kind, holder: child});
          }
        }
      }
    }
    return out;
  }

  function blockElements (ws, inFlyout, group) {
    const out = [];
    const blocks = ws.getAllBlocks(false).filter(b => !b.isShadow() &&
      !(b.isInsertionMarker && b.isInsertionMarker()));
    for (const block of blocks) {
      if (!block.pathObject || !block.pathObject.svgPath) continue;
      const box = blockBox(block);
      const shadowIds = new Set(block.getChildren(false).filter(c => c.isShadow()).map(c => c.id));
      const own = hit => ownerBlockId(hit) === block.id;
      let point = visiblePoint(box, own, labelPoints(block));
      if (!point) point = visiblePoint(box, hit => shadowIds.has(ownerBlockId(hit)));
      if (!point) continue;
      const text = blockText(block);
      const el = {type: inFlyout ? 'flyout_block' : 'block', text, text_source: 'visible',
        ...box, cx: point[0], cy: point[1], opcode: block.type, block_id: block.id,
        group, sort: [box.y, box.x, 0]};
      out.push(el);
      if (inFlyout) continue;
      editableFields(block).forEach(({field, kind, holder}, i) => {
        const root = holder ? holder.pathObject.svgPath : field.getSvgRoot();
        const fbox = rectOf(root.getBoundingClientRect());
        const owner = holder ? holder.getSvgRoot() : field.getSvgRoot();
        const fpoint = visiblePoint(fbox, hit => owner.contains(hit));
        if (!fpoint) return;
        out.push({type: kind, text: clean(field.getText()), text_source: 'visible', ...fbox,
          cx: fpoint[0], cy: fpoint[1], opcode: block.type, block_id: block.id,
          field: field.name || '', group, sort: [box.y, box.x, i + 1]});
      });
    }
    return out;
  }

  // -- HTML and other SVG elements -------------------------------------------------------------
  const TYPE_RULES = [
    ['menu_item', MENU_ITEM],
    ['tab', '[role=tab]'],
    ['category', '.blocklyToolboxCategory'],
    ['flyout_button', '.blocklyFlyoutButton'],
    ['label', '.blocklyFlyoutLabel'],
    ['checkbox', '.blocklyFlyoutCheckbox'],
    ['sprite', '[class*="sprite-selector-item_sprite-selector-item"]'],
    ['stage_selector', '[class*="stage-selector_stage-selector_"]'],
    ['menu', 'header [class*="menu-bar_hoverable"], header [aria-label$=" menu"]'],
    ['input', 'input:not([type=hidden]):not([type=file]), textarea, [contenteditable=true]'],
    ['stage', '[class*="stage_stage_"] canvas'],
    ['canvas', '.injectionDiv > .blocklySvg .blocklyMainBackground'],
    ['button', 'button, [role=button], .blocklyZoom > image']
  ];
  const ZOOM_NAMES = {'zoom-in': 'zoom in', 'zoom-out': 'zoom out', 'zoom-reset': 'reset zoom'};
  const ICON_TEXT = {'rotate-right': '\u21bb', 'rotate-left': '\u21ba', 'green-flag': 'flag'};
  const iconName = el => {
    const href = (el && (el.getAttribute('href') || el.getAttribute('xlink:href'))) || '';
    const m = /([\w-]+)\.(svg|png)/.exec(href.startsWith('data:') ? '' : href);
    return m ? m[1] : '';
  };

  function typeOf (el) {
    for (const [type, sel] of TYPE_RULES) if (el.matches(sel)) return type;
    return null;
  }

  function htmlText (el, type) {
    if (type === 'input') return {text: clean(el.value !== undefined ? el.value : el.textContent), source: 'visible'};
    if (type === 'stage' || type === 'canvas') return {text: '', source: ''};
    if (type === 'button' && el.tagName.toLowerCase() === 'image') {
      return {text: ZOOM_NAMES[iconName(el)] || 'zoom', source: 'title'};
    }
    const visible = clean(el.innerText !== undefined ? el.innerText : el.textContent);
    if (visible) return {text: visible, source: 'visible'};
    const aria = clean(el.getAttribute('aria-label'));
    if (aria) return {text: aria, source: 'aria'};
    const title = clean(el.getAttribute('title') || (el.querySelector('[title]') || {getAttribute: () => ''}).getAttribute('title'));
    if (title) return {text: title, source: 'title'};
    const img = el.querySelector && el.querySelector('img[alt]');
    return img && clean(img.alt) ? {text: clean(img.alt), source: 'title'} : {text: '', source: ''};
  }

  function inputLabel (el) {
    const aria = clean(el.getAttribute('aria-label') || el.getAttribute('placeholder'));
    if (aria) return aria;
    const label = el.closest('label');
    if (!label) return '';
    const copy = label.cloneNode(true);
    copy.querySelectorAll('input, textarea').forEach(n => n.remove());
    return clean(copy.textContent);
  }

  // Leaf text runs that no typed element contains (labels such as "Size", monitor names).
  function textRuns (captured) {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = clean(node.nodeValue);
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, .injectionDiv svg, option')) continue;
      if (captured.some(c => c.contains(parent))) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = rectOf(range.getBoundingClientRect());
      const owns = hit => hit === parent || parent.contains(hit) || hit.contains(parent);
      const point = visiblePoint(box, owns);
      if (point) out.push({node: parent, text, box, point});
    }
    return out;
  }

  function domElements () {
    const out = [];
    const captured = [];
    const all = document.querySelectorAll(TYPE_RULES.map(r => r[1]).join(', '));
    for (const el of all) {
      const type = typeOf(el);
      if (!type || captured.some(c => c.contains(el) && typeOf(c) === type)) continue;
      const box = rectOf(el.getBoundingClientRect());
      const owns = hit => hit === el || el.contains(hit) || (type === 'label' && hit.contains(el));
      const point = visiblePoint(box, owns);
      if (!point) continue;
      captured.push(el);
      const {text, source} = htmlText(el, type);
      const item = {type, text, text_source: source, ...box, cx: point[0], cy: point[1],
        group: groupOf(el), sort: [box.y, box.x, 0]};
      if (type === 'input') item.label = inputLabel(el);
      if (type === 'category' || type === 'tab') {
        item.selected = el.matches('.blocklyToolboxSelected, [aria-selected=true], [class*="tab--selected"]');
      }
      out.push(item);
    }
    for (const run of textRuns(captured)) {
      out.push({type: 'text', text: run.text, text_source: 'visible', ...run.box,
        cx: run.point[0], cy: run.point[1], group: groupOf(run.node), sort: [run.box.y, run.box.x, 0]});
    }
    return out;
  }

  function round (el) {
    for (const k of ['x', 'y', 'w', 'h', 'cx', 'cy']) el[k] = Math.round(el[k] * 10) / 10;
    return el;
  }

  function listElements () {
    SG.toolbox.flush();
    const ws = SG.workspace();
    const flyout = ws.getFlyout();
    let items = domElements();
    const onCode = SG.state.store.getState().scratchGui.editorTab.activeTabIndex === 0;
    if (onCode) {
      items = items.concat(blockElements(flyout.getWorkspace(), true, GROUPS.flyout),
        blockElements(ws, false, GROUPS.canvas));
    }
    const key = e => [e.group, Math.round(e.sort[0] / 4), e.sort[1], e.sort[2]];
    items.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
      return 0;
    });
    return items.map(e => {
      delete e.sort;
      return round(e);
    });
  }

  // Visible text atoms: Blockly field texts and HTML text runs, each with its box.
  function textAtoms () {
    SG.toolbox.flush();
    const out = [];
    const svgTexts = document.querySelectorAll('.injectionDiv svg text');
    for (const t of svgTexts) {
      const text = clean(t.textContent);
      if (!text) continue;
      const box = rectOf(t.getBoundingClientRect());
      const g = t.closest('[data-id], .blocklyFlyoutButton, .blocklyFlyoutLabel') || t;
      if (visiblePoint(box, hit => hit === t || g.contains(hit))) out.push({text, ...box});
    }
    for (const run of textRuns([])) out.push({text: run.text, ...run.box});
    for (const el of document.querySelectorAll('input:not([type=hidden]):not([type=file])')) {
      const box = rectOf(el.getBoundingClientRect());
      if (clean(el.value) && visiblePoint(box, hit => hit === el || el.contains(hit))) {
        out.push({text: clean(el.value), ...box});
      }
    }
    return out.map(round);
  }

  // Canvas blocks as Blockly holds and draws them: connections, field texts by input or field name,
  // and the share of a probe grid over the block's own shape where the block is on top.
  function blockInfo () {
    const ws = SG.workspace();
    const out = [];
    for (const block of ws.getAllBlocks(false)) {
      if (block.isShadow() || (block.isInsertionMarker && block.isInsertionMarker())) continue;
      const box = blockBox(block);
      const mine = new Set([block.id, ...block.getChildren(false).filter(c => c.isShadow()).map(c => c.id)]);
      let hits = 0;
      let probes = 0;
      for (const fx of [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]) {
        for (const fy of [0.3, 0.5, 0.7]) {
          const x = box.x + box.w * fx;
          const y = box.y + box.h * fy;
          probes++;
          if (!inViewport(x, y)) continue;
          const hit = document.elementFromPoint(x, y);
          if (hit && mine.has(ownerBlockId(hit))) hits++;
        }
      }
      const fields = {};
      for (const input of block.inputList) {
        for (const f of input.fieldRow) if (f.name) fields[f.name] = clean(f.getText());
        const child = input.connection && input.connection.targetBlock();
        if (child && child.isShadow() && input.name) {
          const texts = child.inputList.flatMap(ci => ci.fieldRow.map(f => clean(f.getText()))).filter(Boolean);
          fields[input.name] = texts.join(' ');
        }
      }
      const next = block.getNextBlock();
      const parent = block.getParent();
      out.push({id: block.id, opcode: block.type, ...box, visible: probes ? hits / probes : 0,
        next: next ? next.id : null, parent: parent ? parent.id : null, root: block.getRootBlock().id,
        fields});
    }
    return out.map(round);
  }

  // As JSON text (parsed by the Python side, like project.json): Playwright's value serialization
  // of the list's objects costs about 6 ms more a call (measured: 14 ms against 8 ms).
  SG.register('elements.list', () => JSON.stringify(listElements()));
  SG.register('elements.blockInfo', () => blockInfo());
  SG.register('elements.texts', () => textAtoms());
}());
