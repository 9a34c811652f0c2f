// The program model's view of the editor: the block definitions of the flyout (for the block
// catalogue), project round trips through the VM, and deterministic runs of a loaded project.
(function () {
  'use strict';
  const SG = window.ScratchGym;

  function optionLabel (label) {
    if (label && typeof label === 'object') return {image: label.src || '', alt: label.alt || ''};
    return String(label);
  }

  function describeField (SB, f) {
    if (f instanceof SB.FieldImage) return {image: String(f.getValue() || ''), alt: f.altText || ''};
    if (SB.FieldColourSlider && f instanceof SB.FieldColourSlider) {
      return {field: f.name, kind: 'colour', value: f.getValue()};
    }
    if (f instanceof SB.FieldVariable) {
      const v = f.getVariable ? f.getVariable() : null;
      return {field: f.name, kind: 'variable', variable_type: v ? v.getType() : (f.defaultType || ''),
        value: f.getText()};
    }
    if (f instanceof SB.FieldDropdown) {
      let options = [];
      try { options = f.getOptions(false); } catch (e) { options = []; }
      return {field: f.name, kind: 'dropdown', value: f.getValue(),
        dynamic: Boolean(f.isOptionListDynamic && f.isOptionListDynamic()),
        options: options.map(([label, value]) => [optionLabel(label), value])};
    }
    if (f instanceof SB.FieldNumber) return {field: f.name, kind: 'number', value: String(f.getValue())};
    if (f instanceof SB.FieldTextInput) return {field: f.name, kind: 'text', value: String(f.getValue())};
    if (f instanceof SB.FieldLabel || !f.name) {
      const text = f.getText ? f.getText() : '';
      return text ? {label: text} : null;
    }
    return {field: f.name, kind: 'other', value: String(f.getValue())};
  }

  // A block as the editor defines it: its connections, and its parts in display order.
  function describe (SB, block) {
    const out = block.outputConnection;
    const parts = [];
    for (const input of block.inputList) {
      for (const f of input.fieldRow) {
        const d = describeField(SB, f);
        if (d) parts.push(d);
      }
      if (!input.connection) continue;
      if (input.type === SB.NEXT_STATEMENT) {
        parts.push({statement: input.name});
        continue;
      }
      const target = input.connection.targetBlock();
      parts.push({input: input.name, check: input.connection.getCheck(),
        shadow: target && target.isShadow() ? describe(SB, target) : null});
    }
    let mutation = null;
    if (block.mutationToDom) {
      const dom = block.mutationToDom();
      if (dom) mutation = SB.Xml.domToText(dom);
    }
    return {
      opcode: block.type,
      output: Boolean(out),
      output_check: out ? out.getCheck() : null,
      previous: Boolean(block.previousConnection),
      next: Boolean(block.nextConnection),
      parts,
      mutation
    };
  }

  function flyoutBlocks () {
    SG.toolbox.flush();
    return SG.workspace().getFlyout().getWorkspace().getTopBlocks(true);
  }

  // Show `target` in the editor and wait until the flyout holds every opcode of `require` and
  // has stopped changing.
  async function showTarget (target, require) {
    const vm = SG.vm;
    vm.setEditingTarget(target.id);
    const want = [target.isStage ? 'event_whenstageclicked' : 'event_whenthisspriteclicked',
      ...require];
    const start = performance.now();
    let last = '';
    let stable = 0;
    while (stable < 5) {
      if (performance.now() - start > 20000) {
        SG.fail('timeout', `the flyout did not show ${want.join(', ')} for ${target.getName()}`);
      }
      await SG.frames(2);
      const types = flyoutBlocks().map(b => b.type);
      const key = types.join(',');
      stable = want.every(t => types.includes(t)) && key === last ? stable + 1 : 0;
      last = key;
    }
  }

  // Every block of the flyout, for the first sprite and for the stage, described from the editor's
  // own definitions. `project` (JSON text) sets up the names that dynamic menus list.
  SG.register('catalogue.extract', async ({project, require = {}, of_sprite: ofSprite}) => {
    const vm = SG.vm;
    const SB = SG.ScratchBlocks;
    if (!vm.extensionManager.isExtensionLoaded('pen')) {
      await vm.extensionManager.loadExtensionURL('pen');
    }
    if (project) await SG.loadProjectInto(vm, project);
    const result = {scratch_blocks_version: SB.VERSION || null, targets: {}};
    const sprite = vm.runtime.targets.find(t => !t.isStage && t.isOriginal);
    for (const target of [sprite, vm.runtime.getTargetForStage()]) {
      await showTarget(target, require[target.isStage ? 'stage' : 'sprite'] || []);
      result.targets[target.isStage ? 'stage' : 'sprite'] = flyoutBlocks().map(b => describe(SB, b));
    }
    // The properties `sensing_of` offers for a sprite (the flyout shows the stage's).
    const of = flyoutBlocks().find(b => b.type === 'sensing_of');
    const menu = of && of.getInput('OBJECT').connection.targetBlock();
    if (menu && ofSprite) {
      menu.setFieldValue(ofSprite, 'OBJECT');
      await SG.frames(3);
      result.of_sprite_properties = of.getField('PROPERTY').getOptions(false).map(o => o[1]);
    }
    return result;
  });

  // Load each project (JSON text) in turn and return what the VM serialises back, with an error
  // text for a project the VM refused. Used to batch round trips through the real VM.
  SG.register('catalogue.roundtrip', async ({projects}) => {
    const vm = SG.vm;
    const out = [];
    for (const project of projects) {
      try {
        vm.stopAll();
        await SG.loadProjectInto(vm, project);
        out.push({ok: true, project: vm.toJSON()});
      } catch (e) {
        out.push({ok: false, error: String(e && e.message ? e.message : e)});
      }
    }
    vm.stopAll();
    return out;
  });

  // Deterministic run of the loaded project: green flag, then `steps` VM steps without the frame
  // loop. Returns each original target's state afterwards.
  SG.register('catalogue.run', async ({steps = 1, green_flag: flag = true}) => {
    const vm = SG.vm;
    const rt = vm.runtime;
    vm.quit();
    vm.stopAll();
    if (flag) vm.greenFlag();
    for (let i = 0; i < steps; i++) rt._step();
    const state = {};
    for (const t of rt.targets.filter(x => x.isOriginal)) {
      const vars = {};
      for (const v of Object.values(t.variables)) {
        if (v.type === '' || v.type === 'list') vars[v.name] = v.value;
      }
      state[t.getName()] = {
        x: t.x, y: t.y, direction: t.direction, size: t.size, visible: t.visible,
        costume: t.getCostumes()[t.currentCostume].name, variables: vars,
        clones: rt.targets.filter(c => c.sprite === t.sprite && !c.isOriginal).length
      };
    }
    state._threads = rt.threads.length;
    vm.stopAll();
    return state;
  });
}());
