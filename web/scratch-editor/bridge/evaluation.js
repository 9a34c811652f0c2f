// Evaluation of the agent's project on a second VM in the same page, in deterministic virtual time.
//
// The editor's VM is only read (toJSON and its assets); tests run on `E.vm`, a VM with its own
// renderer on a detached canvas that shares the editor's storage. While the evaluation VM steps,
// Date.now, setTimeout/clearTimeout and Math.random are replaced by a virtual clock and a seeded
// generator; the patches live only inside synchronous sections, so the editor never sees them.
// Each frame advances the clock by 1/30 s; inside a frame every clock read costs TICK_MS and every
// colour query (touching color, color is touching color) COLOR_QUERY_MS, so the sequencer's
// 75%-of-a-frame budget and the 500 ms warp budget are counts of work, not wall time.
//
// Bridge functions: eval.prepare (fix the project to test), eval.run (start a test and/or run
// operations, returning a snapshot), eval.end, eval.scratchworld (a ScratchWorld script, real time).
(function () {
  'use strict';
  const SG = window.ScratchGym;

  const FRAME_MS = 1000 / 30;
  const EPOCH_MS = 1e9; // virtual Date.now at the start of each test (integer: exact arithmetic)
  const TICK_MS = 0.05; // virtual ms that each clock read inside a frame costs: bounds work by count
  // Virtual ms that one colour query costs. A loop that polls `touching color` without moving
  // anything never asks for a redraw, so the sequencer runs it until the frame's budget is spent:
  // at TICK_MS alone that is about 500 queries a frame, where the editor manages about 80 (a query
  // measured 0.3-0.5 ms on the software renderer; a GPU readback costs more). At 1 ms a frame holds
  // about 25, as a loaded editor would; the program sees the same world either way, since nothing
  // moves between those passes.
  const COLOR_QUERY_MS = 1;
  const TIMER_ID_BASE = 2 ** 30; // virtual timer ids, far above the browser's own
  const STATUS_PROMISE_WAIT = 1;

  const E = {vm: null, project: null, fingerprint: null, test: null, busy: false, baseline: null,
    clock: null};
  SG.evaluation = E;
  // The page's own clock, timers and random generator as the bridge found them: eval.recover puts
  // them back after a call was stopped midway (a stopped script runs no `finally`).
  E.realTime = {now: Date.now, setTimeout: window.setTimeout, clearTimeout: window.clearTimeout,
    random: Math.random, hasOwnProperty: Object.prototype.hasOwnProperty};

  // -- the evaluation VM ------------------------------------------------------------------------
  function constructCapturingServices (editor) {
    // scratch-vm keeps one central dispatch per page: a new VM registers itself as the 'runtime' and
    // 'extensions' service, so the editor's extension loading would reach the evaluation VM. Catch
    // the services map while the constructor replaces them (it checks hasOwnProperty first), so
    // useServices() can hand them to whichever VM is loading a project.
    const original = Object.prototype.hasOwnProperty;
    let services = null;
    Object.prototype.hasOwnProperty = function (key) { // eslint-disable-line no-extend-native
      if (key === 'runtime' && this && this.runtime === editor.runtime && !services) services = this;
      return original.call(this, key);
    };
    let vm;
    try {
      vm = new editor.constructor();
    } finally {
      Object.prototype.hasOwnProperty = original; // eslint-disable-line no-extend-native
    }
    E.services = services;
    return vm;
  }

  function useServices (vm) {
    if (!E.services) return;
    E.services.runtime = vm.runtime;
    E.services.extensions = vm.extensionManager;
  }

  // Load the prepared project into the evaluation VM (its extensions register with it, not with
  // the editor), then wait until its vector costumes are decoded (their rotation centres and sizes
  // arrive asynchronously; bounds and touching are wrong before that).
  async function loadCopy (vm) {
    useServices(vm);
    try {
      await SG.loadProjectInto(vm, E.project);
    } catch (e) {
      SG.fail('invalid_project', `the project could not be loaded: ${e && e.message ? e.message : e}`);
    } finally {
      useServices(SG.vm);
    }
    const deadline = performance.now() + 3000;
    // An SVG skin is ready when its image loaded; one with an empty view box never loads.
    const ready = s => !s || s._svgImageLoaded !== false ||
      Boolean(s._svgImage && s._svgImage.src && (s._size[0] === 0 || s._size[1] === 0));
    while (!vm.renderer._allSkins.every(ready) && performance.now() < deadline) await macrotask();
  }

  // The evaluation stage is never shown, but it must measure like the editor's: the renderer turns
  // mouse positions into stage points through the canvas's client (CSS) size (touching
  // mouse-pointer, the sprite under a click), and scripts read the canvas size as the stage's
  // edges. A detached canvas reports a client size of 0, which made those conversions infinite:
  // `touching mouse-pointer` after a mouse move then scanned unbounded bounds and never returned,
  // and a mouse down picked no sprite. Here the canvas reports the size it would be shown at.
  const STAGE_SIZE = [480, 360]; // the editor's stage at its normal ("large") size

  function setStageSize (renderer, [width, height]) {
    const canvas = renderer.canvas;
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    Object.defineProperty(canvas, 'clientWidth', {value: width, configurable: true});
    Object.defineProperty(canvas, 'clientHeight', {value: height, configurable: true});
  }

  function evaluationVM () {
    if (E.vm) return E.vm;
    const editor = SG.vm;
    const vm = constructCapturingServices(editor);
    useServices(editor);
    vm.extensionManager.nextExtensionWorker = 1000; // service names must not collide with the editor's
    const canvas = document.createElement('canvas');
    const renderer = new editor.renderer.constructor(canvas, -240, 240, -180, 180);
    setStageSize(renderer, STAGE_SIZE);
    // Nobody sees this canvas: skip the per-frame draw. Draws to a canvas that is never presented
    // pile up in the GPU process (over a gigabyte after a few thousand tests) until a readback
    // such as `touching color` has to work through them all. Touching, bounds and pen do not
    // depend on the canvas; they keep working.
    renderer.draw = function () { this._doExitDrawRegion(); };
    const isTouchingColor = renderer.isTouchingColor;
    renderer.isTouchingColor = function (...args) {
      if (E.clock) E.clock.charge(COLOR_QUERY_MS);
      return isTouchingColor.apply(this, args);
    };
    vm.attachRenderer(renderer);
    vm.attachStorage(editor.runtime.storage);
    if (editor.runtime.v2BitmapAdapter) vm.attachV2BitmapAdapter(editor.runtime.v2BitmapAdapter);
    vm.setCompatibilityMode(true);
    const rt = vm.runtime;
    rt.currentStepTime = FRAME_MS;
    rt.on('SAY', (target, type, text) => onSay(target, type, text));
    rt.on('QUESTION', q => onQuestion(q));
    rt.on('targetWasCreated', t => { if (E.test && t && !t.isOriginal) cloneId(E.test, t); });
    E.vm = vm;
    E.TimerClass = rt.sequencer.timer.constructor;
    return vm;
  }

  function targetName (t) {
    return t.isStage ? 'Stage' : t.sprite.name;
  }

  // A clone's identity for the whole test: "<sprite>#<n>", numbered per sprite in creation order.
  function cloneId (T, t) {
    if (!T) return null;
    if (!T.cloneIds) { T.cloneIds = new WeakMap(); T.cloneCounts = {}; }
    let id = T.cloneIds.get(t);
    if (!id) {
      const name = t.sprite.name;
      T.cloneCounts[name] = (T.cloneCounts[name] || 0) + 1;
      id = `${name}#${T.cloneCounts[name]}`;
      T.cloneIds.set(t, id);
    }
    return id;
  }

  const SAID_LIMIT = 5000; // a test keeps the first texts said; later ones only update bubbles

  function onSay (target, type, text) {
    const T = E.test;
    if (!T || !target) return;
    const entry = {sprite: targetName(target), clone: !target.isOriginal, type: type,
      text: String(text === undefined || text === null ? '' : text), frame: T.frame,
      clone_id: target.isOriginal ? null : cloneId(T, target)};
    if (T.said.length < SAID_LIMIT) T.said.push(entry);
    T.lastSay = entry;
  }

  function onQuestion (q) {
    const T = E.test;
    if (!T) return;
    if (q === null) T.question = null;
    else if (q === '') T.question = {text: T.lastSay ? T.lastSay.text : '', sprite: T.lastSay ? T.lastSay.sprite : null};
    else T.question = {text: String(q), sprite: null};
  }

  // -- the agent's project, copied --------------------------------------------------------------
  function storeAssets (runtime) {
    // Make every costume and sound of `runtime` loadable by id from the shared storage, so that a
    // project JSON (which names assets by md5) loads into the evaluation VM without a zip.
    const storage = SG.vm.runtime.storage;
    const helper = storage.builtinHelper;
    for (const t of runtime.targets) {
      if (!t.isOriginal) continue;
      const items = t.sprite.costumes.concat(t.sprite.sounds);
      for (const item of items) {
        const a = item.asset;
        if (!a || !a.data || !a.assetId) continue;
        if (helper.assets && helper.assets[a.assetId]) continue;
        if (helper._store) helper._store(a.assetType, a.dataFormat, a.data, a.assetId);
        else storage.cache(a.assetType, a.dataFormat, a.data, a.assetId);
      }
    }
  }

  async function sha256 (text) {
    const bytes = new TextEncoder().encode(text);
    if (window.crypto && crypto.subtle) {
      const digest = await crypto.subtle.digest('SHA-256', bytes);
      return Array.from(new Uint8Array(digest)).map(b => b.toString(16).padStart(2, '0')).join('');
    }
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (const b of bytes) {
      h1 = Math.imul(h1 ^ b, 2654435761);
      h2 = Math.imul(h2 ^ b, 1597334677);
    }
    return `fnv-${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
  }

  function base64ToBuffer (b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes.buffer;
  }

  // Fix the project that the following tests run on: the editor's current project (default), a
  // project JSON, or an .sb3. Returns its fingerprint (SHA-256 of the project JSON).
  SG.register('eval.prepare', async ({json, sb3_base64: sb3}) => {
    const vm = evaluationVM();
    endTest();
    let text;
    if (sb3) {
      useServices(vm);
      try {
        await SG.loadProjectInto(vm, base64ToBuffer(sb3));
      } catch (e) {
        SG.fail('invalid_project', `the project could not be loaded: ${e && e.message ? e.message : e}`);
      } finally {
        useServices(SG.vm);
      }
      vm.stopAll();
      storeAssets(vm.runtime);
      text = vm.toJSON();
    } else if (json) {
      text = typeof json === 'string' ? json : JSON.stringify(json);
    } else {
      storeAssets(SG.vm.runtime);
      text = SG.vm.toJSON();
    }
    E.project = text;
    E.baseline = null;
    E.fingerprint = await sha256(text);
    return {fingerprint: E.fingerprint, bytes: text.length};
  });

  // -- virtual time -----------------------------------------------------------------------------
  const mulberry32 = window.ScratchGymRandom.mulberry32; // random.js

  // Thrown by a clock read inside a frame once the test's wall-clock deadline has passed, so a
  // frame that never ends (thousands of clones each sensing every tick) is cut short.
  class WallDeadline extends Error {}

  class VirtualClock {
    constructor (seed) {
      this.frameMs = EPOCH_MS;
      this.intra = 0;
      this.timers = new Map();
      this.nextId = TIMER_ID_BASE;
      this.random = mulberry32(seed);
      this.deadline = null; // performance.now() bound, armed only while the VM steps
    }
    now () {
      if (this.deadline !== null && performance.now() > this.deadline) throw new WallDeadline();
      this.intra += TICK_MS;
      return this.frameMs + this.intra;
    }
    charge (ms) {
      this.intra += ms;
    }
    setTimeout (fn, ms, args) {
      const id = this.nextId++;
      this.timers.set(id, {due: this.frameMs + Math.max(0, Number(ms) || 0), fn, args});
      return id;
    }
    clearTimeout (id) {
      this.timers.delete(id);
    }
    fireDue () {
      let fired = 0;
      for (const [id, timer] of Array.from(this.timers.entries()).sort((a, b) => a[1].due - b[1].due || a[0] - b[0])) {
        if (timer.due > this.frameMs) break;
        this.timers.delete(id);
        fired++;
        if (typeof timer.fn === 'function') timer.fn(...(timer.args || []));
      }
      return fired;
    }
  }

  // Runs `fn` with the page's clock, timeouts and random generator on `clock`; `E.clock` is the
  // clock that work done meanwhile (a colour query) is charged to.
  function withVirtualTime (clock, fn) {
    const saved = {now: Date.now, st: window.setTimeout, ct: window.clearTimeout, random: Math.random,
      clock: E.clock};
    E.clock = clock;
    Date.now = () => clock.now();
    window.setTimeout = (cb, ms, ...args) => clock.setTimeout(cb, ms, args);
    window.clearTimeout = id => (id >= TIMER_ID_BASE ? clock.clearTimeout(id) : saved.ct.call(window, id));
    Math.random = clock.random;
    try {
      return fn();
    } finally {
      Date.now = saved.now;
      window.setTimeout = saved.st;
      window.clearTimeout = saved.ct;
      Math.random = saved.random;
      E.clock = saved.clock;
    }
  }

  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => { const r = waiting.shift(); if (r) r(); };
  function macrotask () {
    return new Promise(resolve => { waiting.push(resolve); channel.port2.postMessage(0); });
  }

  // -- one test ---------------------------------------------------------------------------------
  class ProgramError extends SG.BridgeError {}

  function endTest () {
    const T = E.test;
    E.test = null;
    if (!T || !E.vm) return;
    withVirtualTime(T.clock, () => {
      try { E.vm.runtime.stopAll(); } catch (e) { /* a broken project must not block the next test */ }
    });
  }

  function useVirtualTime (rt, clock) {
    rt.updateCurrentMSecs = function () { this.currentMSecs = clock.frameMs; };
    rt.sequencer.timer = new E.TimerClass({now: () => clock.now()});
    rt.currentMSecs = clock.frameMs;
    rt.currentStepTime = FRAME_MS;
  }

  function useRealTime (rt) {
    delete rt.updateCurrentMSecs;
    rt.sequencer.timer = new E.TimerClass();
    rt.currentMSecs = Date.now();
  }

  function resetDevices (rt) {
    const kb = rt.ioDevices.keyboard;
    if (kb && kb._keysPressed) kb._keysPressed.length = 0;
    const mouse = rt.ioDevices.mouse;
    if (mouse) {
      mouse._isDown = false;
      mouse._clientX = mouse._clientY = mouse._scratchX = mouse._scratchY = 0;
    }
  }

  function applyState (vm, state) {
    // Put targets back to given start states (x, y, direction, size, costume, visibility).
    for (const [name, s] of Object.entries(state || {})) {
      const t = name === 'Stage' ? vm.runtime.getTargetForStage() : vm.runtime.getSpriteTargetByName(name);
      if (!t) continue;
      if (s.currentCostume !== undefined) t.setCostume(s.currentCostume);
      if (t.isStage) continue;
      if (s.x !== undefined && s.y !== undefined) t.setXY(s.x, s.y, true);
      if (s.direction !== undefined) t.setDirection(s.direction);
      if (s.size !== undefined) t.setSize(s.size);
      if (s.visible !== undefined) t.setVisible(s.visible);
    }
  }

  // -- a fresh copy per test ---------------------------------------------------------------------
  // Loading the project again for every test costs 10-30 ms, more than most tests simulate. A
  // project without extensions is instead put back to the state it was loaded in: everything a
  // program can change (threads and clones via stopAll; position, direction, size, costume,
  // visibility, drag mode, rotation style, volume, effects, layer order; variable and list values,
  // variables created while running; per-target extension state; edge-triggered hats; the answer).
  // Projects with extensions (pen, music...) hold more state and are always loaded again.
  function captureBaseline (vm) {
    const targets = vm.runtime.targets.filter(t => t.isOriginal).map(t => ({
      target: t, x: t.x, y: t.y, direction: t.direction, size: t.size, visible: t.visible,
      costume: t.currentCostume, draggable: t.draggable, rotationStyle: t.rotationStyle,
      volume: t.volume, tempo: t.tempo, layer: t.isStage ? -1 : t.getLayerOrder(),
      variables: Object.fromEntries(Object.entries(t.variables).map(([id, v]) =>
        [id, Array.isArray(v.value) ? v.value.slice() : v.value]))
    }));
    return {project: E.project, targets};
  }

  function canResetInPlace (vm) {
    return E.baseline !== null && E.baseline.project === E.project &&
      vm.extensionManager._loadedExtensions.size === 0;
  }

  function resetInPlace (vm) {
    const rt = vm.runtime;
    rt.stopAll(); // threads, clones, bubbles, questions
    for (const b of E.baseline.targets) {
      const t = b.target;
      for (const id of Object.keys(t.variables)) {
        if (!(id in b.variables)) delete t.variables[id];
      }
      for (const [id, value] of Object.entries(b.variables)) {
        t.variables[id].value = Array.isArray(value) ? value.slice() : value;
      }
      t.clearEffects();
      t._customState = {};
      t.clearEdgeActivatedValues();
      t.setCostume(b.costume);
      t.volume = b.volume;
      if (t.isStage) {
        t.tempo = b.tempo;
        continue;
      }
      t.setXY(b.x, b.y, true);
      t.setDirection(b.direction);
      t.setSize(b.size);
      t.setVisible(b.visible);
      t.setDraggable(b.draggable);
      t.setRotationStyle(b.rotationStyle);
    }
    const sprites = E.baseline.targets.filter(b => !b.target.isStage).sort((a, b) => a.layer - b.layer);
    for (const b of sprites) b.target.goToFront();
    rt.emit('ANSWER', ''); // no question is pending after stopAll: this only clears the last answer
  }

  // Start a test: a fresh copy of the prepared project in the evaluation VM, at virtual time 0.
  async function beginTest ({seed = 1, max_frames: maxFrames = 900, wall_ms: wallMs = 10000, state}) {
    if (E.project === null) SG.fail('not_prepared', 'eval.prepare must be called before a test');
    const vm = evaluationVM();
    endTest();
    const clock = new VirtualClock(seed);
    const rt = vm.runtime;
    const inPlace = canResetInPlace(vm);
    if (!inPlace) {
      await loadCopy(vm);
      E.baseline = captureBaseline(vm);
    }
    useVirtualTime(rt, clock);
    resetDevices(rt);
    withVirtualTime(clock, () => {
      if (inPlace) resetInPlace(vm);
      else rt.stopAll();
      applyState(vm, state);
      rt.ioDevices.clock.resetProjectTimer();
    });
    E.test = {
      clock, frame: 0, maxFrames, deadline: performance.now() + wallMs, wallMs,
      said: [], lastSay: null, question: null, answers: [], answered: [], flush: false
    };
    return E.test;
  }

  function checkBudget (T) {
    if (T.frame >= T.maxFrames) {
      SG.fail('frame_budget', `the test used its whole budget of ${T.maxFrames} frames ` +
        `(${(T.maxFrames / 30).toFixed(1)} s of virtual time)${waitingNote(T)}`);
    }
    if (performance.now() > T.deadline) {
      SG.fail('wall_budget', `${didNotFinish(T)}: stopped at frame ${T.frame}${waitingNote(T)}`);
    }
  }

  function didNotFinish (T) {
    return `the test did not finish within ${(T.wallMs / 1000).toFixed(1)} s (its wall-clock budget)`;
  }

  function waitingNote (T) {
    return T.question ? `; the program is still waiting for an answer to ${JSON.stringify(T.question.text)}` : '';
  }

  function giveAnswer (T) {
    if (!T.question || T.answers.length === 0) return false;
    const text = T.answers.shift();
    T.answered.push({question: T.question.text, answer: text, frame: T.frame});
    T.question = null;
    withVirtualTime(T.clock, () => E.vm.runtime.emit('ANSWER', text));
    return true;
  }

  function hasPromiseWait (rt) {
    for (const th of rt.threads) if (th.status === STATUS_PROMISE_WAIT) return true;
    return false;
  }

  // Step one frame: advance the clock, fire due timers, answer a pending question, run the VM.
  async function stepFrame (T) {
    checkBudget(T);
    const rt = E.vm.runtime;
    T.frame++;
    T.clock.frameMs = EPOCH_MS + Math.floor(T.frame * 1000 / 30);
    T.clock.intra = 0;
    let fired = 0;
    try {
      fired = withVirtualTime(T.clock, () => T.clock.fireDue());
    } catch (e) {
      throw new ProgramError('program_error',
        `the program raised an error at frame ${T.frame}: ${e && e.message ? e.message : e}`);
    }
    const answered = giveAnswer(T);
    if (fired || answered || T.flush || hasPromiseWait(rt)) {
      T.flush = false;
      await macrotask(); // promise reactions (say for, ask) run before the step, as in the browser
    }
    let error = null;
    withVirtualTime(T.clock, () => {
      T.clock.deadline = T.deadline;
      try {
        rt._step();
      } catch (e) {
        error = e;
      } finally {
        T.clock.deadline = null;
      }
    });
    if (error instanceof WallDeadline) {
      E.baseline = null; // the step was cut midway: the next test loads a fresh copy
      SG.fail('wall_budget', `${didNotFinish(T)}: stopped inside frame ${T.frame}, which never finished` +
        waitingNote(T));
    }
    if (error) {
      throw new ProgramError('program_error',
        `the program raised an error at frame ${T.frame}: ${error && error.message ? error.message : error}`);
    }
  }

  // -- conditions and reads ---------------------------------------------------------------------
  function findTarget (name) {
    const rt = E.vm.runtime;
    if (name === 'Stage' || name === '_stage_') return rt.getTargetForStage();
    const t = rt.getSpriteTargetByName(name);
    if (!t) SG.fail('unknown_sprite', `the project has no sprite named ${JSON.stringify(name)}; ` +
      `sprites: ${rt.targets.filter(x => x.isOriginal && !x.isStage).map(x => x.sprite.name).join(', ')}`);
    return t;
  }

  const SNAPSHOT_LIST_ITEMS = 1000; // longer lists are cut in snapshots (read their length instead)

  function variablesOf (t) {
    const vars = {};
    const lists = {};
    for (const v of Object.values(t.variables)) {
      if (v.type === '') vars[v.name] = v.value;
      else if (v.type === 'list') lists[v.name] = v.value.slice(0, SNAPSHOT_LIST_ITEMS);
    }
    return {vars, lists};
  }

  function lookupVariable (name, sprite, type) {
    const rt = E.vm.runtime;
    const scopes = sprite ? [findTarget(sprite), rt.getTargetForStage()] : [rt.getTargetForStage()];
    for (const t of scopes) {
      for (const v of Object.values(t.variables)) if (v.type === type && v.name === name) return v;
    }
    const what = type === 'list' ? 'list' : 'variable';
    SG.fail('unknown_variable', `no ${what} named ${JSON.stringify(name)}` +
      (sprite ? ` in sprite ${sprite} or the stage` : ' on the stage (for all sprites)') +
      variableOwnersNote(name, type));
    return null;
  }

  // Where a variable the lookup did not find lives: a script that uses a variable nobody declared
  // makes it a sprite's own ("for this sprite only"), which only a read naming the sprite finds.
  function variableOwnersNote (name, type) {
    const owners = E.vm.runtime.targets.filter(t => t.isOriginal && !t.isStage &&
      Object.values(t.variables).some(v => v.type === type && v.name === name)).map(t => t.sprite.name);
    if (!owners.length) return '';
    const read = type === 'list' ? 'list' : 'var';
    return `; it is a variable for this sprite only of ${owners.join(', ')} (as a script that uses an ` +
      `undeclared variable makes it): read it with run.${read}(${JSON.stringify(name)}, ` +
      `sprite=${JSON.stringify(owners[0])}), or Var/List(..., sprite=...) and sprite = "..." in [[cases]]`;
  }

  function spriteState (t) {
    const looks = t.getCustomState('Scratch.looks');
    const costume = t.getCostumes()[t.currentCostume];
    const {vars, lists} = variablesOf(t);
    return {
      name: t.sprite.name, clone: !t.isOriginal, id: t.isOriginal ? t.sprite.name : cloneId(E.test, t), x: t.x, y: t.y, direction: t.direction,
      size: t.size, costume: costume ? costume.name : null, costume_number: t.currentCostume + 1,
      visible: t.visible, layer: t.getLayerOrder(), ghost: t.effects.ghost,
      effects: Object.assign({}, t.effects), draggable: t.draggable,
      rotation_style: t.rotationStyle, volume: t.volume,
      bubble: looks && looks.text !== '' ? {type: looks.type, text: String(looks.text)} : null,
      variables: vars, lists
    };
  }

  function runningThreads (rt) {
    return rt.threads.filter(th => !th.updateMonitor && th.stack.length > 0).length;
  }

  function readValue (q) {
    const rt = E.vm.runtime;
    const T = E.test;
    switch (q.kind) {
    case 'sprite': {
      const t = findTarget(q.sprite);
      if (t.isStage) SG.fail('bad_query', 'the stage has no sprite properties; use backdrop');
      const s = spriteState(t);
      if (!(q.prop in s)) SG.fail('bad_query', `unknown sprite property ${JSON.stringify(q.prop)}`);
      return q.prop === 'bubble' ? (s.bubble ? s.bubble.text : '') : s[q.prop];
    }
    case 'var': return lookupVariable(q.name, q.sprite, '').value;
    case 'list': return lookupVariable(q.name, q.sprite, 'list').value.slice(0, SNAPSHOT_LIST_ITEMS);
    case 'list_length': return lookupVariable(q.name, q.sprite, 'list').value.length;
    case 'backdrop': {
      const stage = rt.getTargetForStage();
      return stage.getCostumes()[stage.currentCostume].name;
    }
    case 'timer': return rt.ioDevices.clock.projectTimer();
    case 'clones': {
      const t = findTarget(q.sprite);
      return rt.targets.filter(x => !x.isOriginal && x.sprite === t.sprite).length;
    }
    case 'said': return T.said.filter(s => !q.sprite || s.sprite === q.sprite).map(s => s.text);
    case 'question': return T.question ? T.question.text : null;
    case 'asking': return T.question !== null;
    case 'threads': return runningThreads(rt);
    case 'frame': return T.frame;
    case 'touching': {
      const t = findTarget(q.sprite);
      return t.isTouchingObject(q.other === 'edge' ? '_edge_' : q.other === 'mouse' ? '_mouse_' : q.other);
    }
    default: SG.fail('bad_query', `unknown query kind ${JSON.stringify(q.kind)}`);
    }
    return null;
  }

  function asNumber (v) {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return null;
    if (typeof v === 'string' && v.trim() !== '' && !isNaN(Number(v))) return Number(v);
    return null;
  }

  // Lists equal when they have the same length and equal items (not as JavaScript's "a,b" text).
  function compareLists (op, left, right) {
    if (op !== '==' && op !== '!=') SG.fail('bad_query', `lists compare only with ==, != or contains, not ${op}`);
    const same = Array.isArray(left) && Array.isArray(right) && left.length === right.length &&
      left.every((x, i) => compare('==', x, right[i]));
    return op === '==' ? same : !same;
  }

  const ORDER_OPS = ['==', '!=', '<', '<=', '>', '>='];

  function compare (op, left, right) {
    if ((Array.isArray(left) || Array.isArray(right)) && ORDER_OPS.includes(op)) return compareLists(op, left, right);
    const ln = asNumber(left);
    const rn = asNumber(right);
    const numeric = ln !== null && rn !== null;
    switch (op) {
    case '==': return numeric ? Math.abs(ln - rn) < 1e-9 : String(left) === String(right);
    case '!=': return !compare('==', left, right);
    case '<': return numeric ? ln < rn : String(left) < String(right);
    case '<=': return numeric ? ln <= rn : String(left) <= String(right);
    case '>': return numeric ? ln > rn : String(left) > String(right);
    case '>=': return numeric ? ln >= rn : String(left) >= String(right);
    case 'contains': return Array.isArray(left) ? left.some(x => compare('==', x, right)) :
      String(left).includes(String(right));
    case 'any_contains': return Array.isArray(left) ? left.some(x => String(x).includes(String(right))) :
      String(left).includes(String(right));
    case 'in': return Array.isArray(right) && right.some(x => compare('==', left, x));
    case 'truthy': return Boolean(left) && left !== 'false' && left !== '0';
    case 'falsy': return !compare('truthy', left, right);
    default: SG.fail('bad_query', `unknown comparison ${JSON.stringify(op)}`);
    }
    return false;
  }

  function evalCond (c) {
    if (c.all) return c.all.every(evalCond);
    if (c.any) return c.any.some(evalCond);
    if (c.not) return !evalCond(c.not);
    const left = readValue(c.left);
    if (c.op === 'approx') {
      const ln = asNumber(left);
      return ln !== null && Math.abs(ln - c.right) <= (c.tolerance === undefined ? 0.5 : c.tolerance);
    }
    return compare(c.op, left, c.right);
  }

  function describeCond (c) {
    if (c.all) return c.all.map(describeCond).join(' and ');
    if (c.any) return `(${c.any.map(describeCond).join(' or ')})`;
    if (c.not) return `not (${describeCond(c.not)})`;
    let observed;
    try { observed = JSON.stringify(readValue(c.left)); } catch (e) { observed = `<${e.message}>`; }
    return `${c.label || JSON.stringify(c.left)} ${c.op} ${JSON.stringify(c.right)} (got ${observed})`;
  }

  function snapshot (T) {
    const rt = E.vm.runtime;
    const sprites = {};
    for (const t of rt.targets) {
      if (t.isStage) continue;
      const name = t.sprite.name;
      if (t.isOriginal) sprites[name] = Object.assign(spriteState(t), {clones: (sprites[name] && sprites[name].clones) || []});
      else {
        if (!sprites[name]) sprites[name] = {clones: []};
        sprites[name].clones.push(spriteState(t));
      }
    }
    const stage = rt.getTargetForStage();
    const {vars, lists} = variablesOf(stage);
    return {
      frame: T.frame, time: T.frame / 30, timer: rt.ioDevices.clock.projectTimer(),
      threads: runningThreads(rt), sprites,
      stage: {backdrop: stage.getCostumes()[stage.currentCostume].name,
        backdrop_number: stage.currentCostume + 1, variables: vars, lists},
      said: T.said.slice(), question: T.question ? T.question.text : null,
      answered: T.answered.slice(), answers_left: T.answers.length
    };
  }

  // -- operations -------------------------------------------------------------------------------
  function clientXY (x, y) {
    // Scratch stage coordinates to the mouse device's canvas coordinates (480 x 360); the device
    // ignores a coordinate of exactly 0, so nudge it.
    return {x: Math.max(0.01, Number(x) + 240), y: Math.max(0.01, 180 - Number(y)), canvasWidth: 480, canvasHeight: 360};
  }

  async function runOp (T, op) {
    const vm = E.vm;
    const rt = vm.runtime;
    switch (op.op) {
    case 'green_flag': withVirtualTime(T.clock, () => vm.greenFlag()); return null;
    case 'stop': withVirtualTime(T.clock, () => vm.stopAll()); return null;
    case 'frames': {
      for (let i = 0; i < op.n; i++) await stepFrame(T);
      return null;
    }
    case 'until': {
      if (evalCond(op.cond)) return {met: true, frames: 0};
      for (let i = 0; i < op.max_frames; i++) {
        await stepFrame(T);
        if (evalCond(op.cond)) return {met: true, frames: i + 1};
      }
      return {met: false, frames: op.max_frames};
    }
    case 'throughout': {
      // The condition must hold now and after each of the next op.frames frames.
      const from = T.frame;
      for (let i = 0; ; i++) {
        if (!evalCond(op.cond)) {
          SG.fail('expectation', `${op.message ? op.message + ': ' : ''}expected ${describeCond(op.cond)}` +
            ` on every frame from ${from} to ${from + op.frames}, but at frame ${T.frame} it did not hold${waitingNote(T)}`);
        }
        if (i >= op.frames) break;
        await stepFrame(T);
      }
      return {frames: op.frames};
    }
    case 'expect': {
      if (!evalCond(op.cond)) {
        SG.fail('expectation', `${op.message ? op.message + ': ' : ''}expected ${describeCond(op.cond)}` +
          ` at frame ${T.frame}${waitingNote(T)}`);
      }
      return null;
    }
    case 'key': {
      withVirtualTime(T.clock, () => vm.postIOData('keyboard', {key: op.key, isDown: Boolean(op.down)}));
      return null;
    }
    case 'mouse': {
      for (const k of ['x', 'y']) {
        if (op[k] !== undefined && !Number.isFinite(op[k])) {
          SG.fail('bad_op', `mouse ${k} must be a finite number of stage pixels, not ${String(op[k])}`);
        }
      }
      const data = clientXY(op.x === undefined ? rt.ioDevices.mouse.getScratchX() : op.x,
        op.y === undefined ? rt.ioDevices.mouse.getScratchY() : op.y);
      if (op.down !== undefined) data.isDown = Boolean(op.down);
      withVirtualTime(T.clock, () => vm.postIOData('mouse', data));
      return null;
    }
    case 'click': {
      const t = findTarget(op.target);
      withVirtualTime(T.clock, () => {
        if (!t.isStage) vm.postIOData('mouse', clientXY(t.x, t.y));
        rt.startHats(t.isStage ? 'event_whenstageclicked' : 'event_whenthisspriteclicked', null, t);
      });
      return null;
    }
    case 'answer': {
      T.answers.push(String(op.text));
      return null;
    }
    case 'broadcast': {
      const name = String(op.name);
      withVirtualTime(T.clock, () => rt.startHats('event_whenbroadcastreceived', {BROADCAST_OPTION: name}));
      return null;
    }
    case 'set_variable': {
      const v = lookupVariable(op.name, op.sprite, op.list ? 'list' : '');
      v.value = op.list ? op.value.slice() : op.value;
      return null;
    }
    case 'read': return readValue(op.query);
    default: SG.fail('bad_op', `unknown test operation ${JSON.stringify(op.op)}`);
    }
    return null;
  }

  async function exclusive (fn) {
    if (E.busy) SG.fail('busy', 'an evaluation is already running in this page');
    E.busy = true;
    try {
      return await fn();
    } finally {
      E.busy = false;
    }
  }

  // Run operations of the current test (starting it first when `begin` is given). Returns the
  // operations' values and a snapshot of the evaluation VM; failures raise with kind
  // expectation, frame_budget, wall_budget, program_error or a lookup error (details: snapshot).
  SG.register('eval.run', args => exclusive(async () => {
    const called = performance.now(); // the time left (wall_ms) counts from here, loading included
    if (args.begin) await beginTest(args.begin);
    const T = E.test;
    if (!T) SG.fail('no_test', 'no test is running: pass begin');
    if (args.wall_ms) T.deadline = Math.min(T.deadline, called + args.wall_ms);
    const values = [];
    try {
      for (const op of args.ops || []) values.push(await runOp(T, op));
    } catch (e) {
      if (e instanceof SG.BridgeError) {
        e.details = {snapshot: snapshot(T), op_index: values.length};
        if (args.end) endTest();
      }
      throw e;
    }
    const result = {values, snapshot: snapshot(T)};
    if (args.end) endTest();
    return result;
  }));

  SG.register('eval.end', () => { endTest(); return null; });

  // After the watchdog stopped a call that never returned (a program looping inside one frame):
  // put the page's clock and timers back, drop the evaluation VM (it was stopped mid-step; the
  // next test builds a fresh one and loads the prepared project again) and free the evaluation.
  // The editor's VM was never touched.
  SG.register('eval.recover', () => {
    const R = E.realTime;
    Date.now = R.now;
    window.setTimeout = R.setTimeout;
    window.clearTimeout = R.clearTimeout;
    Math.random = R.random;
    Object.prototype.hasOwnProperty = R.hasOwnProperty; // eslint-disable-line no-extend-native
    E.clock = null;
    waiting.length = 0;
    const old = E.vm;
    E.vm = null;
    E.test = null;
    E.baseline = null;
    E.busy = false;
    useServices(SG.vm);
    if (E.onRecover) E.onRecover();
    if (old) {
      try { old.quit(); } catch (e) { /* already broken */ }
      const lose = old.renderer && old.renderer.gl && old.renderer.gl.getExtension('WEBGL_lose_context');
      if (lose) lose.loseContext(); // the page has a limited number of WebGL contexts
    }
    return {recovered: Boolean(old)};
  });

  // -- for bridge/scratchworld.js (ScratchWorld's own scripts on the evaluation VM) ----------------
  E.internal = {evaluationVM, loadCopy, endTest, exclusive, macrotask, withVirtualTime, useRealTime,
    resetDevices, setStageSize, mulberry32, WallDeadline, STAGE_SIZE, FRAME_MS, TICK_MS, COLOR_QUERY_MS,
    TIMER_ID_BASE};
}());
