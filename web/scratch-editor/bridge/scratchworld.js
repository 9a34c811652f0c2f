// ScratchWorld's own evaluation scripts on the evaluation VM, in virtual time (default) or real time.
//
// A script is `async (vm, config, cleanup) => result`: it starts the VM (`vm.start()`, a 30 Hz frame
// loop), waits on timers (`setTimeout`, `setInterval`), reads the clock (`Date.now()`) and pokes the
// VM between frames. In virtual time the script gets its own `setTimeout`, `setInterval`,
// `Date` and `performance`, all on one virtual clock, and the VM's frame loop is a timer of that
// clock: the driver below fires the earliest timer (a script callback or a VM frame), lets the
// script's promise reactions run, and jumps the clock to the next timer, so waits cost no wall time.
// Every clock read costs TICK_MS of virtual time (as real reads cost real time), so a script that
// polls the clock in a loop still sees time pass; a colour query inside a frame costs COLOR_QUERY_MS
// (see evaluation.js). Inside a frame the page's Date.now, setTimeout and
// Math.random are the virtual ones only for the frame's synchronous run (the editor never sees them).
//
// The stage is the size ScratchWorld's runner gives it (it switches the editor to the small stage,
// 240 x 180, before an episode), since scripts read the canvas size as the stage's edges.
//
// Bridge function: eval.scratchworld {function, script, utils, config, timeout_ms, time: 'virtual' |
// 'real', stage: [w, h], seed}.
(function () {
  'use strict';
  const SG = window.ScratchGym;
  const E = SG.evaluation;
  const I = E.internal;

  const MIN_TIMER_MS = 1; // a zero delay still lets time move on (browsers clamp to 1-4 ms too)

  // Timers of a virtual clock have ids from TIMER_ID_BASE up. A script may stop the VM between
  // frames (stopAll clears a "say for" timer set inside a frame): route such ids to the clock.
  const realClearTimeout = E.realTime.clearTimeout;
  let activeClock = null;
  const routedClearTimeout = function (id) {
    if (typeof id === 'number' && id >= I.TIMER_ID_BASE) {
      if (activeClock) activeClock.clear(id);
      return;
    }
    realClearTimeout.call(window, id);
  };
  window.clearTimeout = routedClearTimeout;
  E.realTime.clearTimeout = routedClearTimeout;

  class ScriptClock {
    constructor (seed, origin) {
      this.t = origin;
      this.timers = new Map();
      this.nextId = I.TIMER_ID_BASE;
      this.random = I.mulberry32(seed);
      this.deadline = null; // performance.now() bound, armed only while the VM steps
      this.reads = 0;
    }
    now () {
      if (this.deadline !== null && performance.now() > this.deadline) throw new I.WallDeadline();
      this.t += I.TICK_MS;
      this.reads++;
      return this.t;
    }
    charge (ms) {
      this.t += ms;
    }
    add (fn, ms, args, repeat) {
      const id = this.nextId++;
      const delay = Math.max(MIN_TIMER_MS, Number(ms) || 0);
      this.timers.set(id, {due: this.t + delay, fn, args: args || [], every: repeat ? delay : 0});
      return id;
    }
    setTimeout (fn, ms, args) {
      return this.add(fn, ms, args, false);
    }
    clearTimeout (id) {
      this.clear(id);
    }
    clear (id) {
      this.timers.delete(id);
    }
    // The timer that fires next (earliest due time, then the one set first), or null.
    next () {
      let best = null;
      for (const [id, timer] of this.timers) {
        if (!best || timer.due < best.timer.due || (timer.due === best.timer.due && id < best.id)) {
          best = {id, timer};
        }
      }
      return best;
    }
  }

  // What the script sees as its globals: timers, Date and performance on the virtual clock.
  function scriptGlobals (clock) {
    const RealDate = Date;
    class VirtualDate extends RealDate {
      constructor (...args) {
        if (args.length === 0) super(clock.now());
        else super(...args);
      }
      static now () {
        return clock.now();
      }
    }
    const origin = clock.t;
    return {
      setTimeout: (fn, ms, ...args) => clock.add(fn, ms, args, false),
      clearTimeout: id => clock.clear(id),
      setInterval: (fn, ms, ...args) => clock.add(fn, ms, args, true),
      clearInterval: id => clock.clear(id),
      Date: VirtualDate,
      performance: {now: () => clock.now() - origin}
    };
  }

  const GLOBAL_NAMES = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'];

  // The user's own ScratchWorld checkout is trusted code: evaluate it as a CommonJS module, with
  // the given globals in its scope.
  function loadCommonJS (text, what, globals) {
    const module = {exports: {}};
    const names = Object.keys(globals || {});
    try {
      const factory = new Function('module', 'exports', ...names, text); // eslint-disable-line no-new-func
      factory(module, module.exports, ...names.map(n => globals[n]));
    } catch (e) {
      SG.fail('script_error', `${what} could not be loaded: ${e && e.message ? e.message : e}`);
    }
    return module.exports;
  }

  // The VM's frame loop as a timer of `clock`; each frame steps with the page's clock virtual.
  function useScriptClock (rt, clock, wallDeadline) {
    rt.updateCurrentMSecs = function () { this.currentMSecs = clock.t; };
    rt.sequencer.timer = new E.TimerClass({now: () => clock.now()});
    rt.currentMSecs = clock.t;
    const step = () => {
      I.withVirtualTime(clock, () => {
        clock.deadline = wallDeadline;
        try {
          rt._step();
        } finally {
          clock.deadline = null;
        }
      });
    };
    rt.start = function () {
      if (this._steppingInterval) return;
      this.currentStepTime = I.FRAME_MS;
      this._steppingInterval = clock.add(step, I.FRAME_MS, [], true);
      this.emit('RUNTIME_STARTED');
    };
    rt.quit = function () {
      if (this._steppingInterval) clock.clear(this._steppingInterval);
      this._steppingInterval = null;
    };
  }

  function releaseScriptClock (rt) {
    if (rt._steppingInterval) rt.quit();
    delete rt.start;
    delete rt.quit;
    rt._steppingInterval = null;
  }

  const message = e => String(e && e.message ? e.message : e);

  async function runVirtual (fn, vm, config, cleanup, {timeoutMs, wallMs, seed}) {
    const clock = new ScriptClock(seed, Math.floor(Date.now()));
    const wallDeadline = performance.now() + wallMs;
    const rt = vm.runtime;
    useScriptClock(rt, clock, wallDeadline);
    activeClock = clock;
    const limit = clock.t + timeoutMs;
    let outcome = null;
    let frames = 0;
    const globals = scriptGlobals(clock);
    try {
      const utils = E.swUtils ? loadCommonJS(E.swUtils, 'evaluation_utils.js', globals) : null;
      if (utils) window.EvaluationUtils = utils;
      const script = loadCommonJS(E.swScript, `${E.swFunction}.js`, globals);
      if (typeof script !== 'function') SG.fail('script_error', `${E.swFunction}.js does not export a function`);
      Promise.resolve().then(() => script(vm, config, cleanup)).then(
        value => { outcome = outcome || {ok: true, value}; },
        e => { outcome = outcome || {ok: false, error: message(e)}; });
      for (;;) {
        await I.macrotask(); // the script's promise reactions run before the next timer
        if (outcome) break;
        if (performance.now() > wallDeadline) {
          outcome = {ok: false, error: `did not finish within ${(wallMs / 1000).toFixed(1)} s of wall time ` +
            `(${((clock.t - limit + timeoutMs) / 1000).toFixed(1)} s of virtual time)`};
          break;
        }
        const next = clock.next();
        if (!next || next.timer.due > limit) {
          outcome = {ok: false, error: `timed out after ${timeoutMs / 1000} s`};
          break;
        }
        const {id, timer} = next;
        clock.t = Math.max(clock.t, timer.due);
        if (timer.every) timer.due += timer.every;
        else clock.timers.delete(id);
        if (timer.fn === undefined || timer.fn === null) continue;
        try {
          if (id === rt._steppingInterval) frames++;
          timer.fn(...timer.args);
        } catch (e) {
          if (e instanceof I.WallDeadline) {
            outcome = {ok: false, error: `did not finish within ${(wallMs / 1000).toFixed(1)} s of wall time: ` +
              'a frame never finished'};
            E.baseline = null;
            break;
          }
          // an error in a timer callback is reported on the console in a browser, and ignored
          console.warn('scratchworld script timer:', e); // eslint-disable-line no-console
        }
      }
    } finally {
      releaseScriptClock(rt);
      activeClock = null;
    }
    outcome.virtual_ms = clock.t - (limit - timeoutMs);
    outcome.frames = frames;
    return outcome;
  }

  async function runReal (fn, vm, config, cleanup, {timeoutMs}) {
    let timer = null;
    try {
      return await Promise.race([
        Promise.resolve().then(() => fn(vm, config, cleanup)).then(
          value => ({ok: true, value}),
          e => ({ok: false, error: message(e)})),
        new Promise(resolve => {
          timer = setTimeout(() => resolve({ok: false, error: `timed out after ${timeoutMs / 1000} s`}), timeoutMs);
        })
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  // Run a ScratchWorld evaluation script against a fresh copy of the prepared project and return
  // {ok, value | error, wall_ms, virtual_ms?}.
  SG.register('eval.scratchworld', args => I.exclusive(async () => {
    if (E.project === null) SG.fail('not_prepared', 'eval.prepare must be called first');
    const mode = args.time || 'virtual';
    if (mode !== 'virtual' && mode !== 'real') {
      SG.fail('bad_args', `time must be 'virtual' or 'real', not ${JSON.stringify(mode)}`);
    }
    const vm = I.evaluationVM();
    I.endTest();
    const rt = vm.runtime;
    E.baseline = null;
    await I.loadCopy(vm);
    I.useRealTime(rt);
    I.resetDevices(rt);
    rt.stopAll();
    I.setStageSize(vm.renderer, args.stage || I.STAGE_SIZE);
    const previousUtils = window.EvaluationUtils;
    const timeoutMs = args.timeout_ms || 120000;
    const cleanup = () => { try { vm.stopAll(); } catch (e) { /* ignore */ } };
    const started = performance.now();
    let outcome;
    try {
      if (mode === 'virtual') {
        E.swScript = args.script;
        E.swUtils = args.utils || null;
        E.swFunction = args.function;
        outcome = await runVirtual(null, vm, args.config || {}, cleanup,
          {timeoutMs, wallMs: args.wall_ms || timeoutMs, seed: args.seed || 1});
      } else {
        if (args.utils) window.EvaluationUtils = loadCommonJS(args.utils, 'evaluation_utils.js');
        const fn = loadCommonJS(args.script, `${args.function}.js`);
        if (typeof fn !== 'function') SG.fail('script_error', `${args.function}.js does not export a function`);
        outcome = await runReal(fn, vm, args.config || {}, cleanup, {timeoutMs});
      }
      outcome.wall_ms = performance.now() - started;
      outcome.time = mode;
      return JSON.parse(JSON.stringify(outcome));
    } finally {
      vm.quit();
      cleanup();
      I.setStageSize(vm.renderer, I.STAGE_SIZE);
      window.EvaluationUtils = previousUtils;
      E.swScript = E.swUtils = E.swFunction = null;
    }
  }));

  E.onRecover = () => {
    activeClock = null;
    E.swScript = E.swUtils = E.swFunction = null;
  };
}());
