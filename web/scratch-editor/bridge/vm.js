// Project and VM state: load, save, summarise, start/stop the VM's frame loop.
(function () {
  'use strict';
  const SG = window.ScratchGym;

  function base64ToBuffer (b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes.buffer;
  }

  function firstSprite (vm) {
    return vm.runtime.targets.find(t => !t.isStage && t.isOriginal) || vm.runtime.getTargetForStage();
  }

  function summary () {
    const vm = SG.vm;
    const targets = vm.runtime.targets.filter(t => t.isOriginal);
    let blocks = 0;
    let scripts = 0;
    for (const t of targets) {
      const all = Object.values(t.blocks._blocks);
      blocks += all.filter(b => !b.shadow).length;
      scripts += all.filter(b => b.topLevel && !b.shadow).length;
    }
    const editing = vm.editingTarget;
    return {
      blocks,
      scripts,
      targets: targets.map(t => t.getName()),
      editing_target: editing ? editing.getName() : null,
      running_threads: vm.runtime.threads.length
    };
  }
  SG.summary = summary;

  function costumeSkins (vm) {
    const ids = new Set();
    for (const t of vm.runtime.targets) {
      for (const c of t.sprite ? t.sprite.costumes : []) if (typeof c.skinId === 'number') ids.add(c.skinId);
    }
    return ids;
  }

  // A project loads as on a fresh page: scratch-vm never unloads an extension, so once a project
  // used the Pen its category stayed in the palette for every project loaded after it (a fresh
  // page, and ScratchWorld's harness, which opens one per task, do not show it). When a whole
  // project is installed, the extensions it does not use are set aside (their category leaves the
  // palette: the toolbox is built from runtime._blockInfo). One that a project, a sprite or the
  // Add Extension menu asks for again is put back as it was, the same instance, instead of a
  // second one being made.
  function keepExtensionsPerProject (vm) {
    if (vm._sgSetAside) return;
    const setAside = vm._sgSetAside = new Map(); // id -> {info, service}
    vm._sgDeclared = [];
    const runtime = vm.runtime;
    const manager = vm.extensionManager;
    const loaded = manager._loadedExtensions;
    function restore (id) {
      const kept = setAside.get(id);
      setAside.delete(id);
      runtime._blockInfo.push(kept.info);
      loaded.set(id, kept.service);
      return kept.info;
    }
    const install = vm.installTargets;
    vm.installTargets = function (targets, extensions, wholeProject) {
      const used = (extensions && extensions.extensionIDs) || [];
      const needed = new Set([...used, ...(wholeProject ? vm._sgDeclared : [])]);
      for (const id of Array.from(setAside.keys())) if (needed.has(id)) restore(id);
      if (wholeProject) {
        for (const info of runtime._blockInfo.slice()) {
          if (needed.has(info.id) || !loaded.has(info.id)) continue;
          setAside.set(info.id, {info, service: loaded.get(info.id)});
          runtime._blockInfo.splice(runtime._blockInfo.indexOf(info), 1);
          loaded.delete(info.id);
        }
      }
      return install.call(this, targets, extensions, wholeProject);
    };
    const loadURL = manager.loadExtensionURL;
    manager.loadExtensionURL = function (url) {
      if (!setAside.has(url)) return loadURL.call(this, url);
      runtime.emit('EXTENSION_ADDED', restore(url)); // the GUI adds its category, as on a load
      return Promise.resolve();
    };
  }
  SG.register('vm.extensions', () => ({
    loaded: Array.from(SG.vm.extensionManager._loadedExtensions.keys()),
    set_aside: Array.from((SG.vm._sgSetAside || new Map()).keys())
  }));

  // The extensions a project.json names (sb3 data: none). scratch-vm loads an extension only for
  // the blocks that use it; a project that names one without using it yet (a scene whose task
  // drags a Pen block from the palette) still shows its category, as after Add Extension.
  // Only extensions that need no device, camera or network are loaded so.
  const DECLARABLE = new Set(['pen', 'music']);
  function declaredExtensions (data) {
    if (typeof data !== 'string' && !(data && data.targets)) return [];
    try {
      const json = typeof data === 'string' ? JSON.parse(data) : data;
      return Array.isArray(json.extensions) ? json.extensions.filter(id => DECLARABLE.has(id)) : [];
    } catch (e) {
      return []; // not JSON: scratch-vm reports it
    }
  }

  // Load a project into `vm`. scratch-vm never destroys the costume skins of the project it
  // replaces, so every load would leak their textures (gigabytes over a long run): destroy the
  // skins of the old costumes that no target uses any more. A failed load keeps the old project's.
  SG.loadProjectInto = async function (vm, data) {
    keepExtensionsPerProject(vm);
    const before = costumeSkins(vm);
    const declared = declaredExtensions(data);
    try {
      vm._sgDeclared = declared;
      await vm.loadProject(data);
      for (const id of declared) {
        if (!vm.extensionManager.isExtensionLoaded(id)) await vm.extensionManager.loadExtensionURL(id);
      }
    } finally {
      vm._sgDeclared = [];
      const kept = costumeSkins(vm);
      const r = vm.renderer;
      if (r) for (const id of before) if (!kept.has(id) && r._allSkins[id]) r.destroySkin(id);
    }
  };
  const liveSkins = vm => (vm && vm.renderer ? vm.renderer._allSkins.filter(Boolean).length : 0);
  // Skins alive in the editor's renderer and the evaluation VM's (a leak check).
  SG.register('vm.skins', () => ({
    editor: liveSkins(SG.vm),
    evaluation: liveSkins(SG.evaluation && SG.evaluation.vm)
  }));

  SG.register('project.load', async ({json, sb3_base64: sb3}) => {
    const vm = SG.vm;
    vm.stopAll();
    const data = sb3 ? base64ToBuffer(sb3) : json;
    try {
      await SG.loadProjectInto(vm, data);
    } catch (e) {
      SG.fail('invalid_project', `the project could not be loaded: ${e && e.message ? e.message : e}`);
    }
    const sprite = firstSprite(vm);
    if (sprite) vm.setEditingTarget(sprite.id);
    vm.stopAll();
    return summary();
  });

  SG.register('project.json', () => SG.vm.toJSON());

  // The project as an .sb3 file (base64), as the editor's File > Save to your computer writes it.
  SG.register('project.sb3', async () => {
    const blob = await SG.vm.saveProjectSb3();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(bin);
  });
  SG.register('project.summary', () => summary());

  // A caller's own JavaScript (scratch-bench-api's custom_js, served only with --allow-js): `fn` is
  // the source of a function, called with {vm, SB, ws, payload}; returns {ok, value | error}.
  SG.register('page.customJs', async ({fn, payload}) => {
    try {
      const f = (0, eval)(String(fn)); // eslint-disable-line no-eval
      if (typeof f !== 'function') return {ok: false, code: 'INVALID_JS_FN', error: 'the source is not a function'};
      const SB = window.ScratchBlocks || window.Blockly || null;
      const value = await f({vm: SG.vm, SB, ws: SG.workspace(), payload});
      return {ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value))};
    } catch (e) {
      return {ok: false, code: 'CUSTOM_JS_ERROR', error: e && e.message ? e.message : String(e)};
    }
  });

  // The VM's frame loop runs while an action executes; `editor.settle` with stop_vm stops it when
  // no script runs, so that an idle page does not burn CPU. Drags and clicks do not need it.
  SG.register('vm.start', () => { SG.vm.start(); return true; });

  // Blocks of every original target, as the VM holds them (for tests and info).
  SG.register('vm.blocks', ({target}) => {
    const vm = SG.vm;
    const t = target ? vm.runtime.getSpriteTargetByName(target) ||
      (target === 'Stage' ? vm.runtime.getTargetForStage() : null) : vm.editingTarget;
    if (!t) SG.fail('unknown_target', `no sprite or stage named ${JSON.stringify(target)}`);
    return JSON.parse(JSON.stringify(t.blocks._blocks));
  });
}());
