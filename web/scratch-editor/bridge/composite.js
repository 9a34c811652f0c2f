// Composite mode: semantic edits of the editing target's program, made through the Blockly
// workspace API (blocks created, connected and changed as the editor's own gestures do), so that
// the GUI's change listeners update the VM exactly as they do for a user's edit. Arguments arrive
// as JSON data. An edit that cannot be made fails with kind 'invalid_action' before it changes
// anything; Python turns that into the agent's error message.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const MARGIN = 24; // workspace units between a placed script and its neighbours
  const GRID = 16;
  const VARIABLE_TYPES = {'': 'variable', 'list': 'list', 'broadcast_msg': 'broadcast'};
  const GETTERS = new Set(['data_variable', 'data_listcontents']);

  const invalid = message => SG.fail('invalid_action', message);
  const ws = () => SG.workspace();
  const SB = () => SG.ScratchBlocks;

  function blockById (id) {
    const b = ws().getBlockById(id);
    if (!b || b.isShadow()) SG.fail('stale_index', `block ${id} is not in the workspace`);
    return b;
  }

  // Runs `fn` as one event group (one user gesture for the VM and for undo) and renders it.
  function grouped (fn) {
    const E = SB().Events;
    E.setGroup(true);
    try {
      return fn();
    } finally {
      E.setGroup(false);
      SB().renderManagement.triggerQueuedRenders();
    }
  }

  function originalTargets () {
    return SG.vm.runtime.targets.filter(t => t.isOriginal);
  }

  // -- observation ---------------------------------------------------------------------------

  function labelText (label) {
    if (label && typeof label === 'object') return String(label.alt || label.src || '');
    return String(label);
  }

  function isVariableField (f) {
    return f instanceof SB().FieldVariable || typeof f.getVariable === 'function';
  }

  function variableType (f) {
    const v = f.getVariable ? f.getVariable() : null;
    if (v) return v.getType();
    return f.defaultType || (f.variableTypes && f.variableTypes[0]) || '';
  }

  // One editable field: its value (variables: the name), display text and choices.
  function describeField (f) {
    if (isVariableField(f)) {
      const type = variableType(f);
      const v = f.getVariable ? f.getVariable() : null;
      const names = ws().getVariablesOfType(type).map(x => x.getName()).sort();
      return {kind: VARIABLE_TYPES[type] || 'variable', value: v ? v.getName() : f.getText(),
        text: f.getText(), options: names.map(n => [n, n])};
    }
    if (SB().FieldColourSlider && f instanceof SB().FieldColourSlider) {
      return {kind: 'colour', value: String(f.getValue()), text: String(f.getValue()), options: null};
    }
    if (f instanceof SB().FieldDropdown) {
      let options = [];
      try { options = f.getOptions(false); } catch (e) { options = []; }
      return {kind: 'menu', value: String(f.getValue()), text: f.getText(),
        options: options.map(([label, value]) => [labelText(label), String(value)])};
    }
    return {kind: 'text', value: String(f.getValue()), text: f.getText(), options: null};
  }

  const editableFields = block => SG.editableFields(block);

  // The slots of a block in display order: its own fields and its value inputs (a literal or
  // menu in the input's shadow, a block in it, or an empty boolean slot).
  function describeSlots (block) {
    const out = [];
    const C = SB().ConnectionType;
    for (const input of block.inputList) {
      for (const f of input.fieldRow) {
        if (f.name && f.EDITABLE) out.push({name: f.name, input: false, ...describeField(f)});
      }
      const conn = input.connection;
      if (!conn || conn.type !== C.INPUT_VALUE) continue;
      const child = conn.targetBlock();
      if (child && !child.isShadow()) {
        out.push({name: input.name, input: true, kind: 'block', holds: child.id});
      } else if (child) {
        const f = editableFields(child)[0];
        if (f) out.push({name: input.name, input: true, ...describeField(f)});
      } else {
        out.push({name: input.name, input: true, kind: 'empty'});
      }
    }
    return out;
  }

  function targetState (t) {
    const costume = t.getCostumes()[t.currentCostume];
    return {name: t.getName(), is_stage: t.isStage, x: t.x, y: t.y, direction: t.direction,
      size: t.size, visible: t.visible, costume: costume ? costume.name : ''};
  }

  function variablesInScope (target) {
    const stage = SG.vm.runtime.getTargetForStage();
    const out = [];
    for (const owner of target.isStage ? [stage] : [target, stage]) {
      for (const v of Object.values(owner.variables)) {
        out.push({name: v.name, type: VARIABLE_TYPES[v.type] || v.type,
          scope: owner.isStage ? 'all' : 'sprite', value: v.value});
      }
    }
    return out;
  }

  function editingBlocks () {
    const t = SG.vm.editingTarget;
    return {target: t ? t.getName() : null, is_stage: t ? t.isStage : false,
      blocks: t ? JSON.parse(JSON.stringify(t.blocks._blocks)) : {}};
  }

  SG.register('composite.blocks', () => editingBlocks());

  // After an edit: wait until the GUI's listeners (fired from Blockly's event queue on a timer)
  // have updated the VM, then return `result` with the target's blocks as the VM now holds them.
  async function finish (result) {
    const start = performance.now();
    do {
      await new Promise(resolve => setTimeout(resolve, 0));
    } while (!SG.workspaceAgreesWithVm({fields: true, variables: true}) &&
      performance.now() - start < 1000);
    return {...result, ...editingBlocks()};
  }

  SG.register('composite.observe', () => {
    const target = SG.vm.editingTarget;
    const slots = {};
    for (const b of ws().getAllBlocks(false)) {
      if (b.isShadow() || (b.isInsertionMarker && b.isInsertionMarker())) continue;
      slots[b.id] = describeSlots(b);
    }
    return {
      ...editingBlocks(),
      targets: originalTargets().map(targetState),
      variables: target ? variablesInScope(target) : [],
      slots,
      running: SG.vm.runtime.threads.length
    };
  });

  // ScratchWorld's composite view (scratch_gym/observations/scratchworld_pseudocode.py formats
  // it): the editing target's VM blocks in the VM's script order, each workspace block's dropdown
  // labels (as `getOptions()` lists them) and box, and the names the target can choose from.
  SG.register('composite.scratchworldView', () => {
    const vm = SG.vm;
    const t = vm.editingTarget;
    if (!t) SG.fail('invalid_action', 'no editing target');
    const stage = vm.runtime.getTargetForStage();
    const options = {};
    const boxes = {};
    for (const b of ws().getAllBlocks(false)) {
      if (b.isInsertionMarker && b.isInsertionMarker()) continue;
      const fields = {};
      for (const input of b.inputList) {
        for (const f of input.fieldRow) {
          if (!f.name || typeof f.getOptions !== 'function') continue;
          try {
            const opts = f.getOptions();
            if (Array.isArray(opts)) fields[f.name] = opts.map(o => (Array.isArray(o) ? o[0] : o));
          } catch (e) { /* no options: the formatter's fallback applies */ }
        }
      }
      if (Object.keys(fields).length) options[b.id] = fields;
      if (b.isShadow()) continue;
      const xy = b.getRelativeToSurfaceXY();
      const r = b.getBoundingRectangle();
      const box = r && r.topLeft ? {left: r.topLeft.x, top: r.topLeft.y, right: r.bottomRight.x,
        bottom: r.bottomRight.y} : null;
      boxes[b.id] = {x: xy.x, y: xy.y, box};
    }
    const vars = owner => Object.entries(owner.variables).map(([id, v]) => ({id, name: v.name, type: v.type}));
    const assets = list => list.map(a => ({name: a.name, id: a.assetId || a.md5ext || null}));
    return {
      target: {id: t.id, name: t.getName(), is_stage: t.isStage},
      blocks: JSON.parse(JSON.stringify(t.blocks._blocks)),
      scripts: t.blocks.getScripts().slice(),
      options,
      boxes,
      targets: originalTargets().map(x => ({id: x.id, name: x.getName(), is_stage: !!x.isStage})),
      variables: vars(t),
      stage_variables: t.isStage ? [] : vars(stage),
      names: {
        variables: t.getAllVariableNamesInScopeByType('', true) || [],
        lists: t.getAllVariableNamesInScopeByType('list', true) || [],
        stage_variables: stage.getAllVariableNamesInScopeByType('') || [],
        stage_lists: stage.getAllVariableNamesInScopeByType('list') || []
      },
      costumes: assets(t.getCostumes()),
      sounds: assets(t.sprite.sounds),
      backdrops: assets(stage.getCostumes())
    };
  });

  // -- targets and variables -------------------------------------------------------------------

  SG.register('composite.select', ({name, stage}) => {
    const vm = SG.vm;
    const target = stage ? vm.runtime.getTargetForStage()
      : originalTargets().find(t => !t.isStage && t.getName() === name);
    if (!target) {
      const names = originalTargets().filter(t => !t.isStage).map(t => t.getName());
      invalid(`no sprite named ${JSON.stringify(name)}; sprites: ${names.join(', ') || '(none)'}`);
    }
    if (vm.editingTarget !== target) vm.setEditingTarget(target.id);
    return target.getName();
  });

  // As the editor's "Make a Variable" / "Make a List" dialog: the same name checks, the same
  // variable model and VAR_CREATE event (which the VM turns into a local or global variable).
  SG.register('composite.addVariable', ({name, type, local}) => {
    const vm = SG.vm;
    const target = vm.editingTarget;
    const what = type === 'list' ? 'list' : 'variable';
    const trimmed = String(name).trim();
    if (!trimmed) invalid(`a ${what} name must not be empty`);
    if (local && target.isStage) {
      invalid(`the stage's ${what}s are for all sprites; use scope "all" (or select a sprite)`);
    }
    if (ws().getVariable(trimmed, type)) {
      invalid(`a ${what} named ${JSON.stringify(trimmed)} already exists in this sprite's scope`);
    }
    if (!local && vm.runtime.getAllVarNamesOfType(type).includes(trimmed)) {
      invalid(`a sprite already has a ${what} named ${JSON.stringify(trimmed)}; ` +
        `a ${what} for all sprites needs a name no sprite uses`);
    }
    const Model = SB().registry.getClassFromOptions(SB().registry.Type.VARIABLE_MODEL, ws().options, true);
    const model = new Model(ws(), trimmed, type, undefined, Boolean(local), false);
    grouped(() => {
      ws().getVariableMap().addVariable(model);
      SB().Events.fire(new (SB().Events.get(SB().Events.VAR_CREATE))(model));
    });
    return finish({name: trimmed, id: model.getId()});
  });

  // -- placing blocks ----------------------------------------------------------------------------

  function overlaps (a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  // A free spot of the visible workspace for a w x h script (workspace units), scanning columns
  // from the top left; below everything (scrolled into view) when the view is full.
  function freeSpot (w, h, moving) {
    const view = ws().getMetricsManager().getViewMetrics(true);
    const rects = ws().getTopBlocks(false).filter(b => !moving.has(b.id)).map(b => {
      const r = b.getBoundingRectangle();
      return {left: r.left - MARGIN, right: r.right + MARGIN, top: r.top - MARGIN, bottom: r.bottom + MARGIN};
    });
    const x0 = view.left + MARGIN;
    const y0 = view.top + MARGIN;
    for (let x = x0; x + w <= view.left + view.width - MARGIN || x === x0; x += GRID * 4) {
      for (let y = y0; y + h <= view.top + view.height - MARGIN; y += GRID) {
        const box = {left: x, right: x + w, top: y, bottom: y + h};
        if (!rects.some(r => overlaps(r, box))) return {x, y, visible: true};
      }
    }
    const bottom = rects.reduce((m, r) => Math.max(m, r.bottom), y0);
    return {x: x0, y: bottom, visible: false};
  }

  // A new block is first rendered where it is made (the origin), a detached one where it was.
  // After a render the editor bumps unconnected neighbours near a block's connections away by a
  // random offset, which would move (and reorder) the scripts there; such blocks go to a free spot
  // instead, so `fn` (make or unplug, then placeFree) runs without bumps.
  function unbumped (fn) {
    const proto = SB().BlockSvg.prototype;
    const bump = proto.bumpNeighbours;
    proto.bumpNeighbours = function () {};
    try {
      return fn();
    } finally {
      proto.bumpNeighbours = bump;
    }
  }

  function placeFree (block) {
    SB().renderManagement.triggerQueuedRenders();
    const size = block.getHeightWidth();
    const moving = new Set(block.getDescendants(false).map(b => b.id));
    const spot = freeSpot(size.width, size.height, moving);
    const xy = block.getRelativeToSurfaceXY();
    block.moveBy(spot.x - xy.x, spot.y - xy.y);
    if (!spot.visible) {
      SB().renderManagement.triggerQueuedRenders();
      ws().scrollBoundsIntoView(block.getBoundingRectangle());
    }
    return block;
  }

  // -- creating blocks ---------------------------------------------------------------------------

  async function ensureExtension (opcode) {
    const id = opcode.split('_')[0];
    if (id !== 'pen' || SG.vm.extensionManager.isExtensionLoaded(id)) return;
    await SG.vm.extensionManager.loadExtensionURL(id);
    const start = performance.now();
    while (!SB().Blocks[opcode]) {
      if (performance.now() - start > 10000) SG.fail('timeout', `the ${id} extension did not load`);
      await SG.frames(1);
    }
  }

  function variableByName (type, name) {
    const all = ws().getVariablesOfType(type);
    return all.find(v => v.getName() === name) || null;
  }

  // The variable a new block's variable field refers to: the named one, or the flyout's default.
  function resolveVariable (type, name, creates) {
    const what = VARIABLE_TYPES[type];
    const all = ws().getVariablesOfType(type).sort((a, b) => a.getName().localeCompare(b.getName()));
    if (name === null || name === undefined) {
      if (all.length) return {id: all[0].getId()};
      if (type === 'broadcast_msg') return {create: 'message1'};
      invalid(`there is no ${what} in scope; make one with add_${what} first`);
    }
    const found = variableByName(type, String(name));
    if (found) return {id: found.getId()};
    if (creates) return {create: String(name)};
    invalid(`no ${what} named ${JSON.stringify(name)} in scope; ${what}s: ` +
      `${all.map(v => v.getName()).join(', ') || '(none)'} (add_${what} makes one)`);
  }

  // A saved state without block ids. Blockly keeps the ids of shadow states even with saveIds
  // false, so every block made from the flyout's state would reuse the flyout shadow's id once
  // it is free in the workspace, e.g. after a reporter covered (and disposed) an earlier copy's
  // shadow, which the VM still holds: two blocks would then share one shadow in the VM.
  function withoutIds (state) {
    if (Array.isArray(state)) return state.map(withoutIds);
    if (!state || typeof state !== 'object') return state;
    const out = {};
    for (const [k, v] of Object.entries(state)) if (k !== 'id') out[k] = withoutIds(v);
    return out;
  }

  // The block's saved state: the flyout's block when the flyout has one (the editor's exact
  // defaults, dynamic menus included), else built from the catalogue entry. A deferred flyout is
  // rebuilt first when it shows another target's blocks; a rebuild pending only for new variables
  // changes no default (variable fields are set from `names` below).
  function initialState (spec) {
    if (SG.toolbox.paletteChanged()) SG.toolbox.flush();
    const fly = ws().getFlyout().getWorkspace().getTopBlocks(false).find(b => b.type === spec.opcode);
    if (fly) {
      return withoutIds(SB().serialization.blocks.save(fly, {addCoordinates: false,
        addNextBlocks: false, saveIds: false}));
    }
    const state = {type: spec.opcode, fields: {}, inputs: {}};
    for (const arg of spec.args) {
      if (arg.kind === 'field') state.fields[arg.name] = arg.default;
      else if (arg.kind === 'variable') state.fields[arg.name] = {};
      else if (arg.shadow) {
        const shadow = {type: arg.shadow, fields: {}};
        shadow.fields[arg.field] = arg.kind === 'broadcast' ? {} : arg.default;
        state.inputs[arg.name] = {shadow};
      }
    }
    return state;
  }

  SG.register('composite.addBlock', async ({spec, names = {}}) => {
    if (!SB().Blocks[spec.opcode]) await ensureExtension(spec.opcode);
    if (!SB().Blocks[spec.opcode]) invalid(`the editor has no block ${spec.opcode}`);
    // Resolve variable, list and broadcast references first: nothing changes if one is wrong.
    const refs = [];
    for (const arg of spec.args) {
      if (arg.kind === 'variable') {
        const key = VARIABLE_TYPES[arg.variable_type] || 'variable';
        refs.push({arg, ref: resolveVariable(arg.variable_type, names[key], key === 'broadcast')});
      } else if (arg.kind === 'broadcast') {
        refs.push({arg, ref: resolveVariable('broadcast_msg', names.broadcast, true)});
      }
    }
    const state = initialState(spec);
    let block = null;
    grouped(() => {
      for (const {arg, ref} of refs) {
        const type = arg.kind === 'broadcast' ? 'broadcast_msg' : arg.variable_type;
        const variable = ref.id ? ws().getVariableById(ref.id)
          : ws().getVariableMap().createVariable(ref.create, type);
        const id = variable.getId();
        if (arg.kind === 'broadcast') {
          const shadow = state.inputs[arg.name].shadow;
          shadow.fields = {...shadow.fields, [arg.field]: {id}};
        } else if (GETTERS.has(spec.opcode)) {
          // The reporters' getter field saves its state as XML text.
          const xml = SB().utils.xml.createElement('field');
          xml.setAttribute('name', arg.name);
          xml.setAttribute('id', id);
          xml.setAttribute('variabletype', type);
          xml.textContent = variable.getName();
          state.fields = {...(state.fields || {}), [arg.name]: SB().utils.xml.domToText(xml)};
        } else {
          state.fields = {...(state.fields || {}), [arg.name]: {id}};
        }
      }
      block = unbumped(() => placeFree(SB().serialization.blocks.append(state, ws())));
    });
    return finish({id: block.id});
  });

  // -- custom blocks (My Blocks) -------------------------------------------------------------------

  function xmlElement (tag, attrs = {}) {
    const el = SB().utils.xml.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    return el;
  }

  function prototypeOf (proccode) {
    return ws().getAllBlocks(false).find(b => b.type === 'procedures_prototype' &&
      b.getProcCode() === proccode) || null;
  }

  function newUid () {
    const U = SB().utils;
    return U.idGenerator ? U.idGenerator.genUid() : U.genUid();
  }

  // Adds a block from its XML as the editor's own My Blocks code does, placed in free space.
  function appendXml (dom) {
    let block = null;
    grouped(() => {
      block = unbumped(() => placeFree(SB().Xml.domToBlock(dom, ws())));
    });
    return finish({id: block.id});
  }

  // What the "Make a Block" dialog's callback builds: a define block whose custom_block statement
  // holds a prototype with the dialog's mutation (fresh argument ids, '' / 'false' defaults).
  SG.register('composite.addDefinition', ({proccode, names, kinds, warp}) => {
    if (prototypeOf(proccode)) invalid(`a custom block ${JSON.stringify(proccode)} is already defined here`);
    const mutation = xmlElement('mutation', {
      proccode,
      argumentids: JSON.stringify(names.map(() => newUid())),
      argumentnames: JSON.stringify(names),
      argumentdefaults: JSON.stringify(kinds.map(k => (k === 'b' ? 'false' : ''))),
      warp: String(Boolean(warp))
    });
    const def = xmlElement('block', {type: 'procedures_definition'});
    const statement = xmlElement('statement', {name: 'custom_block'});
    const proto = xmlElement('block', {type: 'procedures_prototype'});
    proto.appendChild(mutation);
    statement.appendChild(proto);
    def.appendChild(statement);
    return appendXml(def);
  });

  // A call block as the My Blocks palette makes it: the prototype's mutation on procedures_call.
  SG.register('composite.addCall', ({proccode}) => {
    const proto = prototypeOf(proccode);
    if (!proto) invalid(`no custom block ${JSON.stringify(proccode)} is defined here`);
    const call = xmlElement('block', {type: 'procedures_call'});
    call.appendChild(proto.mutationToDom(true));
    return appendXml(call);
  });

  // A copy of a define block's argument reporter, as dragging it out of the prototype makes.
  SG.register('composite.addArgument', ({opcode, name}) => {
    const reporter = xmlElement('block', {type: opcode});
    const field = xmlElement('field', {name: 'VALUE'});
    field.textContent = name;
    reporter.appendChild(field);
    return appendXml(reporter);
  });

  // -- connecting blocks -------------------------------------------------------------------------

  const REASONS = {
    1: 'a block cannot connect to itself',
    2: 'the connection types do not fit',
    4: 'Scratch refuses this block in that place (its shape does not fit the slot)',
    6: 'the target is a shadow block',
    8: 'the block cannot have both a value and a stack connection'
  };

  function lastInStack (block) {
    let b = block;
    while (b.getNextBlock()) b = b.getNextBlock();
    return b;
  }

  function canConnect (a, b) {
    const r = ws().connectionChecker.canConnectWithReason(a, b, false);
    if (r !== SB().Connection.CAN_CONNECT) invalid(REASONS[r] || `Blockly refused the connection (reason ${r})`);
  }

  function statementInput (block, name) {
    const C = SB().ConnectionType;
    const inputs = block.inputList.filter(i => i.connection && i.connection.type === C.NEXT_STATEMENT);
    const input = inputs.find(i => i.name === name);
    if (!input) {
      invalid(inputs.length ? `the target's statement inputs are ${inputs.map(i => i.name).join(', ')}`
        : 'the target has no statement input (it is not a C-block)');
    }
    return input.connection;
  }

  function valueInput (block, name) {
    const C = SB().ConnectionType;
    const inputs = block.inputList.filter(i => i.connection && i.connection.type === C.INPUT_VALUE);
    const input = inputs.find(i => i.name === name);
    if (!input) {
      invalid(inputs.length ? `the target's value inputs are ${inputs.map(i => i.name).join(', ')}`
        : 'the target has no value inputs');
    }
    return input.connection;
  }

  function needsTopNotch (s) {
    if (!s.previousConnection) {
      invalid(s.outputConnection ? 'the source is a reporter; it goes into an input (value_into)'
        : 'the source is a hat block: it starts a script, so nothing can be above it');
    }
  }

  // The source's stack ends in a cap (or forever): it can only go where nothing follows.
  function needsOpenEnd (s, follower) {
    if (follower && !lastInStack(s).nextConnection) {
      invalid('the source stack ends with a cap block (nothing can go below it), ' +
        'but there are blocks after that place');
    }
  }

  // Keep `anchor` where it was on screen by moving the script it now belongs to.
  function keepInPlace (anchor, before) {
    SB().renderManagement.triggerQueuedRenders();
    const after = anchor.getRelativeToSurfaceXY();
    const root = anchor.getRootBlock();
    root.moveBy(before.x - after.x, before.y - after.y);
  }

  SG.register('composite.connect', async ({source, target, placement, input}) => {
    const s = blockById(source);
    const t = blockById(target);
    if (s === t) invalid('a block cannot connect to itself');
    if (s.getDescendants(false).includes(t)) {
      invalid('the target is inside or below the source, which would move with it');
    }
    let plan;
    if (placement === 'stack_after') {
      needsTopNotch(s);
      if (!t.nextConnection) {
        invalid(t.outputConnection ? 'the target is a reporter; only stacks of blocks have blocks after them'
          : 'nothing can go below the target (a cap block or a forever loop ends its stack)');
      }
      needsOpenEnd(s, t.getNextBlock());
      canConnect(s.previousConnection, t.nextConnection);
      plan = () => s.previousConnection.connect(t.nextConnection);
    } else if (placement === 'stack_before') {
      if (!t.previousConnection) {
        invalid(t.outputConnection ? 'the target is a reporter; only stacks of blocks have blocks above them'
          : 'the target is a hat block: it starts its script, so nothing can go above it');
      }
      const last = lastInStack(s);
      if (!last.nextConnection) invalid('the source stack ends with a cap block; nothing can go below it');
      const parent = t.previousConnection.targetConnection;
      if (parent) {
        needsTopNotch(s);
        canConnect(s.previousConnection, parent);
        plan = () => s.previousConnection.connect(parent);
      } else {
        canConnect(last.nextConnection, t.previousConnection);
        const before = t.getRelativeToSurfaceXY();
        plan = () => { last.nextConnection.connect(t.previousConnection); keepInPlace(t, before); };
      }
    } else if (placement === 'statement_into') {
      const conn = statementInput(t, input);
      needsTopNotch(s);
      needsOpenEnd(s, conn.targetBlock());
      canConnect(s.previousConnection, conn);
      plan = () => s.previousConnection.connect(conn);
    } else if (placement === 'value_into') {
      const conn = valueInput(t, input);
      if (!s.outputConnection) {
        invalid('the source is a stack block; only reporters and booleans go into an input');
      }
      canConnect(s.outputConnection, conn);
      plan = () => s.outputConnection.connect(conn);
    } else if (placement === 'wrap') {
      const C = SB().ConnectionType;
      const first = s.inputList.find(i => i.connection && i.connection.type === C.NEXT_STATEMENT);
      if (!first) invalid('the source is not a C-block, so it cannot wrap blocks');
      if (first.connection.targetBlock()) invalid('the source C-block already holds blocks');
      if (s.getNextBlock()) invalid('the source C-block has blocks below it; detach them first');
      if (!t.previousConnection) {
        invalid(t.outputConnection ? 'the target is a reporter; a C-block wraps stacks of blocks'
          : 'the target is a hat block: a C-block cannot hold it');
      }
      canConnect(first.connection, t.previousConnection);
      const parent = t.previousConnection.targetConnection;
      if (parent) canConnect(s.previousConnection, parent);
      const before = t.getRelativeToSurfaceXY();
      plan = () => {
        if (s.getParent()) s.unplug(false);
        if (parent) {
          t.previousConnection.disconnect();
          s.previousConnection.connect(parent);
          first.connection.connect(t.previousConnection);
        } else {
          first.connection.connect(t.previousConnection);
          keepInPlace(t, before);
        }
      };
    } else {
      invalid(`unknown placement ${JSON.stringify(placement)}`);
    }
    grouped(() => {
      if (s.getParent() && placement !== 'wrap') s.unplug(false);
      plan();
    });
    return finish({});
  });

  // -- detaching, deleting, fields -----------------------------------------------------------------

  SG.register('composite.detach', async ({id}) => {
    const b = blockById(id);
    if (!b.getParent()) invalid('the block is already the top of a script');
    grouped(() => unbumped(() => {
      b.unplug(false);
      placeFree(b);
    }));
    return finish({});
  });

  SG.register('composite.delete', async ({id}) => {
    const b = blockById(id);
    if (b.type === 'procedures_definition') {
      // As the editor: a custom block that is still called cannot lose its definition.
      const proto = b.getInput('custom_block').connection.targetBlock();
      const code = proto ? proto.getProcCode() : null;
      const calls = ws().getAllBlocks(false).filter(x => x.type === 'procedures_call' &&
        x.getProcCode() === code);
      if (calls.length) {
        invalid(`${calls.length} block(s) still call ${JSON.stringify(code)}; delete them first`);
      }
    }
    const below = new Set(); // blocks that stay: those below it (a hat takes its script along)
    for (let n = b.previousConnection ? b.getNextBlock() : null; n; n = n.getNextBlock()) {
      n.getDescendants(false).forEach(x => below.add(x.id));
    }
    const removed = b.getDescendants(false).filter(x => !x.isShadow() && !below.has(x.id)).length;
    grouped(() => b.dispose(true, false));
    return finish({removed});
  });

  function matchOption (options, value) {
    const text = String(value);
    const exact = options.find(([label, v]) => v === text || label === text);
    if (exact) return exact[1];
    const low = text.trim().toLowerCase();
    const loose = options.find(([label, v]) => v.toLowerCase() === low || label.toLowerCase() === low);
    return loose ? loose[1] : null;
  }

  function fieldToSet (block, name) {
    const direct = editableFields(block).find(f => f.name === name);
    if (direct) return direct;
    const input = block.getInput(name);
    const C = SB().ConnectionType;
    if (input && input.connection && input.connection.type === C.INPUT_VALUE) {
      const child = input.connection.targetBlock();
      if (!child) invalid(`${name} is an empty boolean slot: put a block into it with value_into`);
      if (!child.isShadow()) {
        invalid(`${name} holds a block; detach or delete that block to edit the value underneath`);
      }
      const f = editableFields(child)[0];
      if (f) return f;
    }
    const names = describeSlots(block).filter(x => x.kind !== 'empty' && x.kind !== 'block').map(x => x.name);
    invalid(`the block has no field ${JSON.stringify(name)}; its fields: ${names.join(', ') || '(none)'}`);
  }

  SG.register('composite.setField', async ({id, name, value}) => {
    const block = blockById(id);
    const f = fieldToSet(block, name);
    const described = describeField(f);
    let newValue;
    let creates = null;
    if (isVariableField(f)) {
      const type = variableType(f);
      const v = variableByName(type, String(value));
      if (v) newValue = v.getId();
      else if (type === 'broadcast_msg' && String(value).trim()) creates = String(value).trim();
      else {
        invalid(`no ${VARIABLE_TYPES[type]} named ${JSON.stringify(value)} in scope; choices: ` +
          `${described.options.map(o => o[0]).join(', ') || '(none)'}`);
      }
    } else if (described.kind === 'menu') {
      newValue = matchOption(described.options, value);
      if (newValue === null) {
        invalid(`${JSON.stringify(value)} is not a choice of ${name}; choices: ` +
          described.options.map(([label, v]) => (label === v ? label : `${label} (${v})`)).join(', '));
      }
    } else {
      newValue = String(value);
      const checked = f.doClassValidation_ ? f.doClassValidation_(newValue) : newValue;
      const validator = f.getValidator ? f.getValidator() : null;
      const final = checked === null || checked === undefined ? null
        : (validator ? validator.call(f, checked) : checked);
      if (final === null) invalid(`${JSON.stringify(value)} is not a valid value for ${name}`);
      if (final !== undefined && String(final) !== newValue) {
        invalid(`${JSON.stringify(value)} is not a valid value for ${name} (the editor would make it ` +
          `${JSON.stringify(String(final))})`);
      }
    }
    grouped(() => {
      if (creates) newValue = ws().getVariableMap().createVariable(creates, 'broadcast_msg').getId();
      f.setValue(newValue);
    });
    return finish({});
  });

  // -- running -----------------------------------------------------------------------------------

  SG.register('composite.run', () => {
    SG.vm.greenFlag();
    return {threads: SG.vm.runtime.threads.length};
  });

  SG.register('composite.stop', () => {
    SG.vm.stopAll();
    return true;
  });
}());
