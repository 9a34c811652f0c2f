// scratch-gym bridge core: one registry of named functions that Python calls with JSON arguments.
// Every call from Python goes through ScratchGym.call(name, args); arguments are data, never code.
(function () {
  'use strict';
  const handlers = Object.create(null);

  class BridgeError extends Error {
    constructor (kind, message, details) {
      super(message);
      this.kind = kind;
      this.details = details || null;
    }
  }

  const ScratchGym = {
    handlers,
    BridgeError,
    vm: null,
    state: null,
    register (name, fn) {
      if (handlers[name]) throw new Error(`bridge function ${name} registered twice`);
      handlers[name] = fn;
    },
    fail (kind, message, details) {
      throw new BridgeError(kind, message, details);
    },
    // Returns {ok, value} or {ok: false, kind, error, details}; never throws to Python.
    async call (name, args) {
      const fn = handlers[name];
      if (!fn) return {ok: false, kind: 'unknown_function', error: `no bridge function named ${name}`};
      try {
        const value = await fn(args || {});
        return {ok: true, value: value === undefined ? null : value};
      } catch (e) {
        return {
          ok: false,
          kind: e.kind || e.name || 'Error',
          error: String(e && e.message ? e.message : e),
          details: e.details || null
        };
      }
    },
    // Wait for `n` animation frames (used for settle detection).
    frames (n) {
      return new Promise(resolve => {
        let left = n;
        const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      });
    }
  };
  window.ScratchGym = ScratchGym;
}());
