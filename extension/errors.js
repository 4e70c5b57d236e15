// Stable error values for the glue (the wasm core throws the same {code, message, hint}
// shape). One place, so every tool speaks the same codes (SPEC §6).
export class ToolError extends Error {
  constructor(code, message, hint) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

export const HINTS = {
  INVALID_REQUEST: 'check the method name and parameters',
  BROWSER_PAGE_UNAVAILABLE: 'this page cannot be read or controlled (browser-internal, error or store page); navigate to a web page',
  BROWSER_SELECTOR_NOT_FOUND: 'no element matches the selector; take a snapshot without selector to see the page',
  BROWSER_SCRIPT_FAILED: 'the page refused script injection; retry after the page finishes loading',
  BROWSER_STALE_REF: 'take a new browser_snapshot and use a ref from it',
  BROWSER_TARGET_MISMATCH: 'the handle does not match the tab; list tabs and use the current handle',
  BROWSER_OPERATION_UNCERTAIN: 'the action may or may not have happened; take a snapshot to see the page before retrying',
  BROWSER_ELEMENT_OBSCURED: 'another element covers the target; close the overlay or dialog first',
  BROWSER_PAGE_CHANGING: 'the page is navigating; retry shortly',
  BROWSER_TAB_NOT_OWNED: 'open a tab with browser_tab_open, or claim this one with browser_claim_tab',
  BROWSER_WAIT_TIMEOUT: 'nothing matched in time; check the condition or raise timeout',
  BROWSER_TARGET_NOT_FOUND: 'no visible element matches the target; check it with browser_find or a snapshot',
  BROWSER_TARGET_AMBIGUOUS: 'several elements match; add index (0 is the first) or narrow the target',
  BROWSER_DIALOG_OPEN: 'the page waits for its dialog: read it with browser_dialog {}, answer it with browser_dialog {accept: true} or {accept: false}',
};

export const fail = (code, message, hint = HINTS[code]) => { throw new ToolError(code, message, hint); };

/** Error → the wire shape. Wasm errors are already `{code, message, hint}` objects. */
export function toWire(e) {
  if (e && typeof e === 'object' && typeof e.code === 'string' && e.code.match(/^[A-Z_]+$/)) {
    return { code: e.code, message: String(e.message || e.code), hint: e.hint || HINTS[e.code] || '' };
  }
  return { code: 'BROWSER_SCRIPT_FAILED', message: String(e && e.message || e), hint: HINTS.BROWSER_SCRIPT_FAILED };
}
