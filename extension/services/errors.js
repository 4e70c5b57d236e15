// Stable error values for the glue (the wasm core throws the same {code, message, hint}
// shape). Every code and its next-step hint are written once, in errors.json, which the
// Bridge reads too (bridge/src/wire.rs) and the core's codes are checked against.
export class ToolError extends Error {
  constructor(code, message, hint) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/** Code → hint, from errors.json (read once per worker life; `ready` in core.js awaits it,
 * and every call awaits `ready`). A JSON module import would be simpler, but a restarted
 * service worker fails to load one. */
export const HINTS = {};
export const hintsLoaded = fetch(new URL('../errors.json', import.meta.url)).then((r) => r.json()).then((h) => { Object.assign(HINTS, h); });

export const fail = (code, message, hint = HINTS[code]) => { throw new ToolError(code, message, hint); };

/** Error → the wire shape. Wasm errors are already `{code, message, hint}` objects. */
export function toWire(e) {
  if (e && typeof e === 'object' && typeof e.code === 'string' && e.code.match(/^[A-Z_]+$/)) {
    return { code: e.code, message: String(e.message || e.code), hint: e.hint || HINTS[e.code] || '' };
  }
  const message = String(e && e.message || e);
  // A DevTools command the browser refused ({"code":-32000,"message":"Element is not
  // focusable"}): what it said, and a hint that fits it (the default one is about pages that
  // refuse script, which a retry after loading does not fix here).
  const refused = message.match(/^\{"code":-?\d+,"message":"((?:[^"\\]|\\.)*)"/);
  if (refused) return { code: 'BROWSER_SCRIPT_FAILED', message: `the browser refused the command: ${refused[1]}`, hint: 'take a new snapshot and act on what it shows; this element may not take that action' };
  return { code: 'BROWSER_SCRIPT_FAILED', message, hint: HINTS.BROWSER_SCRIPT_FAILED };
}
