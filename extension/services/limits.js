// budget.rs's limits in the worker (`limits()` of the wasm module), set once by core.js
// when the core loads, before any call runs (call() awaits `ready`). It imports nothing, so
// any module can read the limits without an import cycle.
// Owns: that one binding. Must never: hold a limit of its own.

/** budget.rs's source-side limits, by name (undefined until the core has loaded). */
export let limits;
let loaded;
/** Resolves with the limits once the core has loaded. */
export const limitsLoaded = new Promise((resolve) => { loaded = resolve; });

export function setLimits(l) {
  limits = l;
  loaded(l);
}
