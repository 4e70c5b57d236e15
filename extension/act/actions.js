// Actions with real input events (CDP `Input.*`) on a node the wasm core resolved from a
// ref. Glue only: find the node's session, make sure it is connected, compute its click
// point, check that nothing covers it, dispatch. Anything that fails after the first input
// event was sent is `BROWSER_OPERATION_UNCERTAIN` and is never retried here.
import { fail, ToolError, HINTS } from '../services/errors.js';
import { ready } from '../services/core.js';
import { limits } from '../services/limits.js';

const KEYS = {
  Enter: [13, 'Enter', '\r'], Tab: [9, 'Tab'], Escape: [27, 'Escape'], Backspace: [8, 'Backspace'], Delete: [46, 'Delete'],
  ArrowUp: [38, 'ArrowUp'], ArrowDown: [40, 'ArrowDown'], ArrowLeft: [37, 'ArrowLeft'], ArrowRight: [39, 'ArrowRight'],
  Home: [36, 'Home'], End: [35, 'End'], PageUp: [33, 'PageUp'], PageDown: [34, 'PageDown'], Space: [32, 'Space', ' '], ' ': [32, 'Space', ' '],
};
const MODIFIERS = { Alt: 1, Control: 2, Ctrl: 2, Meta: 4, Cmd: 4, Shift: 8 };

/** Parses `Enter`, `a`, `Control+a`, `Shift+Tab`. */
export function parseKey(spec) {
  if (typeof spec !== 'string' || !spec) fail('INVALID_REQUEST', 'key must be a non-empty string such as "Enter" or "Control+a"');
  const parts = spec === '+' ? ['+'] : spec.split('+').filter(Boolean);
  const key = parts.pop();
  let modifiers = 0;
  for (const m of parts) {
    if (!(m in MODIFIERS)) fail('INVALID_REQUEST', `unknown modifier ${m}`, 'use Alt, Control, Meta or Shift');
    modifiers |= MODIFIERS[m];
  }
  if (KEYS[key]) {
    const [code, name, text] = KEYS[key];
    return { key: name === 'Space' ? ' ' : name, code: name, windowsVirtualKeyCode: code, text: modifiers & ~8 ? undefined : text, modifiers };
  }
  if ([...key].length !== 1) fail('INVALID_REQUEST', `unknown key ${key}`, `use one character or one of ${Object.keys(KEYS).join(', ')}`);
  const upper = key.toUpperCase();
  const vk = /[A-Z0-9]/.test(upper) ? upper.charCodeAt(0) : 0;
  return { key, code: /[A-Z]/.test(upper) ? `Key${upper}` : undefined, windowsVirtualKeyCode: vk, text: modifiers & ~8 ? undefined : key, modifiers };
}

async function dispatchKey(send, k) {
  const base = { key: k.key, code: k.code, windowsVirtualKeyCode: k.windowsVirtualKeyCode, modifiers: k.modifiers };
  await send('Input.dispatchKeyEvent', { type: k.text ? 'keyDown' : 'rawKeyDown', ...base, text: k.text, unmodifiedText: k.text });
  await send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

/** Is the node still in its document? */
export async function isConnected(session, backendNodeId) {
  try {
    const { object } = await session.send('DOM.resolveNode', { backendNodeId });
    const { result } = await session.send('Runtime.callFunctionOn', {
      objectId: object.objectId, functionDeclaration: 'function () { return this.isConnected; }', returnByValue: true,
    });
    await session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    return result.value === true;
  } catch {
    return false;
  }
}

async function callOn(session, backendNodeId, fn, args = []) {
  const { object } = await session.send('DOM.resolveNode', { backendNodeId });
  try {
    const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', {
      objectId: object.objectId, functionDeclaration: fn, arguments: args.map((value) => ({ value })), returnByValue: true, awaitPromise: true,
    });
    if (exceptionDetails) fail('BROWSER_SCRIPT_FAILED', 'the page threw while preparing the action');
    return result.value;
  } finally {
    session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  }
}

/** Offset of a session's viewport in the tab's top viewport (OOPIF chains). */
async function frameOffset(all, session) {
  let dx = 0, dy = 0;
  let cur = session;
  for (let guard = 0; cur.session && guard < 16; guard++) {
    const parent = all.find((s) => s.session === (cur.parentSession || '')) || all[0];
    const { backendNodeId } = await parent.send('DOM.getFrameOwner', { frameId: cur.frameId });
    const { model } = await parent.send('DOM.getBoxModel', { backendNodeId });
    dx += model.content[0];
    dy += model.content[1];
    cur = parent;
  }
  return [dx, dy];
}

/**
 * The center of the node's first visible box as `[x, y, index]`, in the coordinates CDP
 * reports for its session (the root viewport for a same-process iframe, the frame's own
 * for an out-of-process one); `index` is the box's place among its client rects. Null
 * without a box.
 */
async function boxCenter(session, backendNodeId) {
  const { quads } = await session.send('DOM.getContentQuads', { backendNodeId }).catch(() => ({ quads: [] }));
  const all = quads || [];
  let i = all.findIndex((q) => Math.abs((q[4] - q[0]) * (q[5] - q[1])) > 0.5);
  if (i < 0) i = 0;
  const q = all[i];
  return q ? [(q[0] + q[2] + q[4] + q[6]) / 4, (q[1] + q[3] + q[5] + q[7]) / 4, i] : null;
}

const same = (a, b) => a && b && Math.abs(a[0] - b[0]) < 0.5 && Math.abs(a[1] - b[1]) < 0.5;

/**
 * Brings the node into view instantly (a page's `scroll-behavior: smooth` would otherwise
 * animate the scroll while we measure) and waits until its box stops moving (a scroll or
 * transition the page runs itself). Returns the stable center.
 */
async function stableCenter(session, backendNodeId, center) {
  await callOn(session, backendNodeId, `function (center) {
    const r = this.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    if (center || !inside) this.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }`, [center]).catch(() => session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId }).catch(() => {}));
  let last = await boxCenter(session, backendNodeId);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 30));
    const now = await boxCenter(session, backendNodeId);
    if (same(now, last)) return now;
    if (!now && !last) return null; // no box at all: nothing is moving
    last = now;
  }
  fail('BROWSER_ELEMENT_OBSCURED', 'the element kept moving (a scroll or animation did not stop)', 'wait for the page to settle, then take a new snapshot');
}

/** The point (top-viewport CSS pixels) where an element would take a click. */
export function pointOf(all, session, backendNodeId) {
  return clickPoint(all, session, backendNodeId);
}

/**
 * A left-button drag from one point to another: pressed, moved in steps, released. An HTML5
 * drag the page starts (draggable elements) is intercepted by CDP and dropped at the end
 * point with its data; mouse-driven drags (sliders, sortable lists on mouse events) get the
 * moves themselves. `{html5}` says which happened.
 */
export async function dragBetween(all, tabId, from, to) {
  const top = all[0];
  let data = null;
  const onEvent = (source, method, params) => {
    if (source.tabId === tabId && method === 'Input.dragIntercepted') data = params.data;
  };
  chrome.debugger.onEvent.addListener(onEvent);
  let dispatched = false;
  const input = async (m, p) => { dispatched = true; return top.send(m, p); };
  const mouse = (type, [x, y], extra = {}) => input('Input.dispatchMouseEvent', { type, x, y, button: 'left', ...extra });
  try {
    await top.send('Input.setInterceptDrags', { enabled: true });
    await mouse('mouseMoved', from, { button: 'none' });
    await mouse('mousePressed', from, { clickCount: 1, buttons: 1 });
    const steps = limits.dragSteps;
    for (let i = 1; i <= steps && !data; i++) {
      await mouse('mouseMoved', [from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps], { buttons: 1 });
    }
    if (!data) await new Promise((r) => setTimeout(r, 50)); // an intercepted drag reports late
    if (data) {
      for (const type of ['dragEnter', 'dragOver', 'drop']) await input('Input.dispatchDragEvent', { type, x: to[0], y: to[1], data });
    }
    await mouse('mouseReleased', to, { clickCount: 1 });
    return { html5: !!data };
  } catch (e) {
    if (dispatched) throw new ToolError('BROWSER_OPERATION_UNCERTAIN', `the drag was started but did not finish: ${String(e.message).slice(0, limits.causeChars)}`, HINTS.BROWSER_OPERATION_UNCERTAIN);
    throw e;
  } finally {
    chrome.debugger.onEvent.removeListener(onEvent);
    top.send('Input.setInterceptDrags', { enabled: false }).catch(() => {});
  }
}

async function clickPoint(all, session, backendNodeId) {
  try {
    return await checkedPoint(all, session, backendNodeId, false);
  } catch (e) {
    // Covered where it is (a sticky header over a row at the viewport's edge): once more
    // from the middle of the viewport.
    if (e.code !== 'BROWSER_ELEMENT_OBSCURED') throw e;
    return checkedPoint(all, session, backendNodeId, true);
  }
}

async function checkedPoint(all, session, backendNodeId, centered) {
  const center = await stableCenter(session, backendNodeId, centered);
  if (!center) fail('BROWSER_ELEMENT_OBSCURED', 'the element has no visible box to act on', 'it may be hidden or collapsed; take a new snapshot');
  const [x, y, box] = center;
  // What would receive a click at that point, within the node's own document (its own
  // coordinates: the same box's center there)? A point outside the frame's viewport
  // receives nothing and is a failure, never "not covered".
  const hit = await callOn(session, backendNodeId, `function (box) {
    const r = this.getClientRects()[box] || this.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 'offscreen';
    let e = document.elementFromPoint(x, y);
    while (e && e.shadowRoot) { const inner = e.shadowRoot.elementFromPoint(x, y); if (!inner || inner === e) break; e = inner; }
    if (!e) return 'none';
    if (e === this || this.contains(e) || (e.getRootNode && e.getRootNode().host && this.contains(e.getRootNode().host))) return 'self';
    const lbl = this.labels && [...this.labels].some((l) => l === e || l.contains(e));
    return lbl ? 'self' : (e.localName + (e.id ? '#' + e.id : ''));
  }`, [box]);
  if (hit === 'offscreen') fail('BROWSER_ELEMENT_OBSCURED', 'the element is outside the viewport and could not be scrolled into it', 'scroll its container, then take a new snapshot');
  if (hit !== 'self' && hit !== 'none') {
    fail('BROWSER_ELEMENT_OBSCURED', `another element (${String(hit).slice(0, limits.echoChars)}) covers the target`);
  }
  // Nothing may have moved between the check and the click.
  if (!same(await boxCenter(session, backendNodeId), center)) fail('BROWSER_ELEMENT_OBSCURED', 'the element moved while it was checked', 'take a new snapshot and try again');
  const [dx, dy] = await frameOffset(all, session);
  return [x + dx, y + dy];
}

/** Does the node (or something inside it, shadow roots included) hold the focus? */
const HAS_FOCUS = `function () {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return !!a && (a === this || this.contains(a) || (this.shadowRoot && this.shadowRoot.contains(a)));
}`;

/**
 * Focus check around text input: before the first key, a target without the focus fails
 * (nothing was sent, retryable); after input started, a page that moved the focus away
 * makes the outcome unknown (where did the keys go?).
 */
async function assertFocused(session, backendNodeId, started) {
  if (await callOn(session, backendNodeId, HAS_FOCUS)) return;
  if (started) throw new ToolError('BROWSER_OPERATION_UNCERTAIN', 'the page moved the focus away from the field while typing: some keys may have gone elsewhere', HINTS.BROWSER_OPERATION_UNCERTAIN);
  fail('BROWSER_ELEMENT_OBSCURED', 'the field did not keep the focus (the page moved it elsewhere)', 'take a new snapshot; close whatever takes the focus, then try again');
}

/**
 * The field a page put in place of the one being typed into (a search box a skin swaps for
 * its own on focus, e.g. MediaWiki's Vector 2022, which loads it then): the focused element,
 * when the target is gone (out of the document, or no longer rendered), the focused element is
 * a text field of the same kind (never a password field unless the target was one), and it
 * holds what was typed so far (`typed`: its value ends with it; the page carried it over).
 * Its backend node id, or null: then the focus went elsewhere, and the usual rule holds.
 */
const REPLACEMENT = `function (typed) {
  const doc = this.ownerDocument || document;
  let a = doc.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === this || this.contains(a)) return null;
  const kind = (e) => e.isContentEditable ? 'editable' : e.localName === 'textarea' ? 'text' : e.localName === 'input' ? (/^(text|search|email|url|tel|number|)$/.test(e.type) ? 'text' : e.type) : null;
  const was = kind(this), now = kind(a);
  if (!now || (now !== was && !(was === 'editable' || now === 'editable')) || (now === 'password') !== (was === 'password')) return null;
  const gone = !this.isConnected || this.getClientRects().length === 0 || getComputedStyle(this).visibility === 'hidden';
  if (!gone) return null;
  const value = 'value' in a ? a.value : a.textContent;
  return value.endsWith(typed) ? a : null;
}`;

/** `REPLACEMENT` for the field `backendNodeId`: the replacement's backend node id, or null. */
async function replacementOf(session, backendNodeId, typed) {
  try {
    const { object } = await session.send('DOM.resolveNode', { backendNodeId });
    const { result } = await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: REPLACEMENT, arguments: [{ value: typed }], returnByValue: false });
    session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    if (!result?.objectId) return null;
    const { node } = await session.send('DOM.describeNode', { objectId: result.objectId });
    session.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => {});
    return node?.backendNodeId ?? null;
  } catch {
    return null; // the old node is gone from the process's memory too: no proof of a replacement
  }
}

/** The focus check of text input that follows a replacement field (`replacementOf`): the
 * backend node id keys go to now, and whether it changed. */
async function focusedField(session, backendNodeId, started, typed) {
  if (await callOn(session, backendNodeId, HAS_FOCUS).catch(() => false)) return [backendNodeId, false];
  const next = await replacementOf(session, backendNodeId, typed);
  if (next) return [next, true];
  await assertFocused(session, backendNodeId, started);
  return [backendNodeId, false];
}

/**
 * Inputs whose value the platform only takes whole, in one format (typing into their
 * segments gives other dates): set like a picker would, then verified.
 */
const VALUE_FORMATS = {
  date: [/^\d{4,}-\d{2}-\d{2}$/, 'YYYY-MM-DD'],
  time: [/^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, 'HH:MM or HH:MM:SS'],
  'datetime-local': [/^\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, 'YYYY-MM-DDTHH:MM'],
  month: [/^\d{4,}-\d{2}$/, 'YYYY-MM'],
  week: [/^\d{4,}-W\d{2}$/, 'YYYY-Www'],
  color: [/^#[0-9a-fA-F]{6}$/, '#rrggbb'],
  range: [/^-?\d+(\.\d+)?$/, 'a number within the range'],
};

/** The `type` of an `<input>` that takes a whole formatted value, else null. */
async function formattedType(session, backendNodeId) {
  const t = await callOn(session, backendNodeId, 'function () { return this instanceof HTMLInputElement ? this.type : null; }');
  return Object.hasOwn(VALUE_FORMATS, t) ? t : null;
}

/** Sets a formatted input's value as a picker does (native setter, input + change). */
async function setFormatted(session, backendNodeId, type, text, markStarted) {
  const [re, format] = VALUE_FORMATS[type];
  if (!re.test(text)) fail('INVALID_REQUEST', `a ${type} field takes ${format}, not ${JSON.stringify(text).slice(0, limits.echoChars)}`, `pass the value as ${format}`);
  markStarted();
  const now = await callOn(session, backendNodeId, `function (v) {
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    set.call(this, v);
    this.dispatchEvent(new Event('input', { bubbles: true }));
    this.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: this.value, valid: this.validity.valid };
  }`, [text]);
  if (now.value !== text) {
    // The platform put another value in (a range clamps and snaps to its step).
    fail('INVALID_REQUEST', `the ${type} field did not take ${JSON.stringify(text).slice(0, limits.echoChars)}: it now holds ${JSON.stringify(now.value).slice(0, limits.echoChars)}`, 'pass a value within its min, max and step');
  }
  // Held, but outside min/max: the page's own validation will say so; so do we.
  return now.valid ? {} : { invalid: true };
}

/**
 * The element text goes into for a target: the target when it takes text, else the one
 * enabled, rendered field inside it (a combobox's or a spin button's wrapper holding its
 * <input>, a rich editor's frame around its contenteditable; shadow roots included), the
 * focused one first, else the target itself when it reads keys (a select's or a list box's
 * type-ahead). Null when it takes no text.
 */
const EDITABLE_OF = `function () {
  const takes = (e) => e.isContentEditable || e.localName === 'textarea'
    || (e.localName === 'input' && !/^(button|submit|reset|checkbox|radio|file|image|hidden)$/.test(e.type));
  if (takes(this)) return this;
  const found = [];
  const visit = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (takes(e) && !e.disabled && e.getClientRects().length && !(e.parentElement && e.parentElement.isContentEditable)) found.push(e);
      if (e.shadowRoot) visit(e.shadowRoot);
      if (found.length > 8) return;
    }
  };
  visit(this.shadowRoot || this);
  if (this.shadowRoot) visit(this);
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  // (Keys mean something to a select and to a focusable widget that reads them: type-ahead.)
  const keyed = this.localName === 'select' || ((this.tabIndex >= 0 || this.hasAttribute('tabindex'))
    && /^(listbox|combobox|grid|treegrid|tree|menu|menubar|spinbutton|slider|textbox|searchbox|tablist|radiogroup)$/.test(this.getAttribute('role') || ''));
  return found.find((e) => e === a) || found[0] || (keyed ? this : null);
}`;

/** `EDITABLE_OF` for node `backendNodeId`: the backend node id text goes into, or null. */
async function editableOf(session, backendNodeId) {
  const { object } = await session.send('DOM.resolveNode', { backendNodeId });
  try {
    const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: EDITABLE_OF, returnByValue: false });
    if (exceptionDetails) fail('BROWSER_SCRIPT_FAILED', 'the page threw while the field was looked up');
    if (!result?.objectId) return null;
    const { node } = await session.send('DOM.describeNode', { objectId: result.objectId });
    session.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => {});
    return node?.backendNodeId ?? null;
  } finally {
    session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  }
}

/** Runs one action on a resolved node. `all` are the tab's sessions, `session` the node's. */
export async function act(all, session, backendNodeId, action, params) {
  const top = all[0];
  let dispatched = false;
  const input = async (m, p) => { dispatched = true; return top.send(m, p); };
  try {
    switch (action) {
      case 'click': {
        const [x, y] = await clickPoint(all, session, backendNodeId);
        const button = params.button || 'left';
        const clickCount = params.doubleClick ? 2 : 1;
        await input('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
        await input('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button, clickCount });
        await input('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button, clickCount });
        return {};
      }
      case 'hover': {
        const [x, y] = await clickPoint(all, session, backendNodeId);
        await input('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
        return {};
      }
      case 'upload': {
        // The paths were checked (absolute, existing, canonical) by the Bridge.
        const paths = params.paths;
        if (!Array.isArray(paths) || !paths.length || paths.some((p) => typeof p !== 'string')) fail('INVALID_REQUEST', 'upload needs paths: a list of absolute file paths');
        const isFile = await callOn(session, backendNodeId, 'function () { return this.localName === "input" && this.type === "file" && !this.disabled; }');
        if (!isFile) fail('INVALID_REQUEST', 'that element is not an enabled file input', 'use the ref of the file input (input type=file) itself');
        const multiple = await callOn(session, backendNodeId, 'function () { return this.multiple; }');
        if (paths.length > 1 && !multiple) fail('INVALID_REQUEST', 'this file input takes one file');
        dispatched = true;
        await session.send('DOM.setFileInputFiles', { files: paths, backendNodeId });
        return { files: paths.length };
      }
      case 'fill':
      case 'type': {
        // A widget's ref (a combobox wrapper) types into the field it holds.
        const target = await editableOf(session, backendNodeId);
        if (!target) fail('INVALID_REQUEST', `${action} needs a field: that element takes no text and holds no field`, 'click it to open what it offers, or use the ref of a textbox, combobox or editor');
        backendNodeId = target;
        await session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId }).catch(() => {});
        const formatted = await formattedType(session, backendNodeId);
        if (formatted) {
          const held = await setFormatted(session, backendNodeId, formatted, params.text, () => { dispatched = true; });
          if (action === 'type' && params.submit) await dispatchKey(input, parseKey('Enter'));
          return held;
        }
        await session.send('DOM.focus', { backendNodeId });
        // A page that put another field in place of this one on focus: the keys go there (one
        // that does so a moment later is followed after the keys that reached the old one).
        let [field, moved] = await focusedField(session, backendNodeId, false, '');
        let retargeted = moved;
        if (action === 'fill') {
          await callOn(session, field, `function () {
            if (typeof this.select === 'function' && 'value' in this) { this.select(); return; }
            const r = document.createRange(); r.selectNodeContents(this);
            const s = getSelection(); s.removeAllRanges(); s.addRange(r);
          }`);
          if (params.text === '') await dispatchKey(input, parseKey('Delete'));
          else await input('Input.insertText', { text: params.text });
          [field, moved] = await focusedField(session, field, true, params.text);
          return retargeted || moved ? { retargeted: true } : {};
        }
        // Key by key, the focus checked after every key: a page that moves it mid-way makes
        // the outcome unknown, never "ok" — unless it moved to the field the page put in this
        // one's place, holding every key typed so far.
        let typed = '';
        for (const ch of params.text) {
          if (ch === '\n') await dispatchKey(input, parseKey('Enter'));
          else await dispatchKey(input, { key: ch, text: ch, modifiers: 0, windowsVirtualKeyCode: 0 });
          typed = ch === '\n' ? null : typed === null ? null : typed + ch;
          if (typed === null) await assertFocused(session, field, true);
          else [field, moved] = await focusedField(session, field, true, typed);
          retargeted ||= moved;
        }
        if (params.submit) await dispatchKey(input, parseKey('Enter'));
        return retargeted ? { retargeted: true } : {};
      }
      case 'press': {
        const k = parseKey(params.key);
        if (backendNodeId) await session.send('DOM.focus', { backendNodeId });
        await dispatchKey(input, k);
        return {};
      }
      case 'select_option': {
        const values = Array.isArray(params.values) ? params.values : [params.value ?? params.values];
        if (!values.length || values.some((v) => typeof v !== 'string')) fail('INVALID_REQUEST', 'select_option needs value (a string) or values');
        dispatched = true;
        const chosen = await callOn(session, backendNodeId, `function (...wanted) {
          if (!(this instanceof HTMLSelectElement)) return { error: 'not a select element' };
          const opts = [...this.options];
          const picked = wanted.map((w) => opts.find((o) => o.value === w) || opts.find((o) => o.label === w || o.text.trim() === w));
          if (picked.some((p) => !p)) return { error: 'no option ' + JSON.stringify(wanted[picked.indexOf(undefined)]).slice(0, ${limits.echoChars}) };
          if (!this.multiple && picked.length > 1) return { error: 'not a multiple select' };
          for (const o of opts) o.selected = picked.includes(o);
          this.dispatchEvent(new Event('input', { bubbles: true }));
          this.dispatchEvent(new Event('change', { bubbles: true }));
          return { selected: picked.map((o) => o.label) };
        }`, values);
        if (chosen?.error) { dispatched = false; fail('INVALID_REQUEST', chosen.error, 'use an option value or label shown in the snapshot'); }
        return { selected: chosen.selected };
      }
      default:
        fail('INVALID_REQUEST', `unknown action ${action}`);
    }
  } catch (e) {
    if (dispatched && !(e instanceof ToolError && ['INVALID_REQUEST', 'BROWSER_OPERATION_UNCERTAIN'].includes(e.code))) {
      throw new ToolError('BROWSER_OPERATION_UNCERTAIN', `${action} was started but did not finish: ${String(e.message).slice(0, limits.causeChars)}`, HINTS.BROWSER_OPERATION_UNCERTAIN);
    }
    throw e;
  }
}

/**
 * The scroll container a wheel over `this` moves: its nearest ancestor (across shadow
 * roots) that can scroll in the asked direction, else the page's scrolling element.
 */
const SCROLLER_OF = `function (horizontal) {
  const can = (e) => {
    const s = getComputedStyle(e);
    return horizontal ? /auto|scroll|overlay/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1
      : /auto|scroll|overlay/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  };
  for (let e = this; e && e.nodeType === 1; e = e.parentElement || e.getRootNode().host) {
    if (e === document.documentElement || e === document.body) break;
    if (can(e)) return e;
  }
  return document.scrollingElement || document.documentElement;
}`;
const POSITION = `function () {
  const page = this === document.scrollingElement;
  const w = page ? innerWidth : this.clientWidth, h = page ? innerHeight : this.clientHeight;
  return [this.scrollLeft, this.scrollTop, this.scrollWidth - w, this.scrollHeight - h, w, h];
}`;

async function callObject(session, objectId, fn, args = [], byValue = true) {
  const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', {
    objectId, functionDeclaration: fn, arguments: args.map((value) => ({ value })), returnByValue: byValue,
  });
  if (exceptionDetails) fail('BROWSER_SCRIPT_FAILED', 'the page threw while measuring the scroll');
  return byValue ? result.value : result.objectId;
}

/**
 * Scrolls with real wheel input over the element of a ref (its scroll container moves) or
 * over the middle of the viewport (what a person scrolls), by `dx`/`dy` CSS pixels or by
 * `pages` of the container. Waits until the position settles; a wheel the page swallowed
 * (nothing moved although it could) is repeated as a programmatic scroll. Returns how far
 * it moved and whether the container is at its end in that direction.
 */
export async function scroll(all, session, backendNodeId, { direction, pages, dx, dy }) {
  const top = all[0];
  const horizontal = direction === 'left' || direction === 'right' || (!direction && !dy && !!dx);
  let x, y, from;
  if (backendNodeId) {
    [x, y] = await clickPoint(all, session, backendNodeId);
    const { object } = await session.send('DOM.resolveNode', { backendNodeId });
    from = object.objectId;
  } else {
    session = top;
    const m = await top.send('Page.getLayoutMetrics');
    const vp = m.cssLayoutViewport || m.layoutViewport;
    [x, y] = [vp.clientWidth / 2, vp.clientHeight / 2];
    const { result } = await top.send('Runtime.evaluate', { expression: `document.elementFromPoint(${x}, ${y}) || document.documentElement` });
    from = result.objectId;
  }
  const scroller = await callObject(session, from, SCROLLER_OF, [horizontal], false);
  session.send('Runtime.releaseObject', { objectId: from }).catch(() => {});
  const at = () => callObject(session, scroller, POSITION);
  const start = await at();
  const sign = direction === 'up' || direction === 'left' ? -1 : 1;
  const step = (size) => Math.round(sign * (pages ?? 1) * size * 0.85);
  const want = [dx ?? (horizontal && direction ? step(start[4]) : 0), dy ?? (!horizontal && direction ? step(start[5]) : 0)];
  await top.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX: want[0], deltaY: want[1] });
  let now = await settledPosition(at, start);
  const moved = () => [now[0] - start[0], now[1] - start[1]];
  const room = (d, i) => (d < 0 ? start[i] > 0 : d > 0 && start[i] < start[i + 2] - 1);
  if (!moved()[0] && !moved()[1] && (room(want[0], 0) || room(want[1], 1))) {
    await callObject(session, scroller, `function (dx, dy) { this.scrollBy({ left: dx, top: dy, behavior: 'instant' }); }`, want);
    now = await settledPosition(at, start);
  }
  session.send('Runtime.releaseObject', { objectId: scroller }).catch(() => {});
  const [mx, my] = moved();
  const atEnd = (want[1] > 0 && now[1] >= now[3] - 1) || (want[1] < 0 && now[1] <= 0) || (want[0] > 0 && now[0] >= now[2] - 1) || (want[0] < 0 && now[0] <= 0);
  return { scrolled: { x: Math.round(mx), y: Math.round(my) }, atEnd };
}

/**
 * Polls the position until it stopped moving (a smooth scroll finished), at most ~1 s. A
 * position still at the start counts as settled only after 240 ms: a wheel's animation
 * may start a frame or two late.
 */
async function settledPosition(at, start) {
  let last = start;
  for (let i = 1; i <= 25; i++) {
    await new Promise((r) => setTimeout(r, 40));
    const now = await at();
    const still = now[0] === last[0] && now[1] === last[1];
    const home = now[0] === start[0] && now[1] === start[1];
    if (still && (!home || i >= 6)) return now;
    last = now;
  }
  return last;
}

/** Brings the element of a ref to the middle of the viewport (instantly) and waits until it stands still. */
export async function reveal(session, backendNodeId) {
  const center = await stableCenter(session, backendNodeId, true);
  if (!center) fail('BROWSER_ELEMENT_OBSCURED', 'the element has no visible box to scroll to', 'it may be hidden or collapsed; take a new snapshot');
  return { inView: true };
}

/**
 * A click at a point of the top viewport (CSS pixels, as browser_dom_cua reports them). The
 * point must lie inside the viewport; what receives it is named in the result (tag, id,
 * first words) so that the caller can tell a miss. Input sent and then failed: uncertain.
 */
export async function clickAt(all, x, y, params) {
  const top = all[0];
  const m = await top.send('Page.getLayoutMetrics');
  const vp = m.cssLayoutViewport || m.layoutViewport;
  if (!(x >= 0 && y >= 0 && x < vp.clientWidth && y < vp.clientHeight)) {
    fail('INVALID_REQUEST', `(${x}, ${y}) is outside the viewport (${vp.clientWidth}×${vp.clientHeight})`, 'use coordinates inside the viewport, from a fresh browser_screenshot');
  }
  const { result } = await top.send('Runtime.evaluate', { returnByValue: true, expression: `(() => {
    let e = document.elementFromPoint(${x}, ${y});
    if (!e) return null;
    // A field's text is its value (maybe a secret): named by tag and id only.
    const field = /^(input|textarea|select)$/.test(e.localName) || e.isContentEditable;
    const words = field ? '' : String(e.innerText || e.getAttribute('aria-label') || '').slice(0, ${limits.readFactChars}).trim().replace(/\\s+/g, ' ').slice(0, ${limits.echoChars});
    return e.localName + (e.id ? '#' + e.id.slice(0, ${limits.echoChars}) : '') + (words ? ' "' + words + '"' : '');
  })()` });
  const button = params.button || 'left';
  const clickCount = params.doubleClick ? 2 : 1;
  let dispatched = false;
  try {
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
      dispatched = true;
      await top.send('Input.dispatchMouseEvent', type === 'mouseMoved' ? { type, x, y } : { type, x, y, button, clickCount });
    }
  } catch (e) {
    if (dispatched) throw new ToolError('BROWSER_OPERATION_UNCERTAIN', `click was started but did not finish: ${String(e.message).slice(0, limits.causeChars)}`, HINTS.BROWSER_OPERATION_UNCERTAIN);
    throw e;
  }
  return { hit: result?.value ?? null };
}

/** One fact of an element, read in its own document (text capped at budget.rs's `readFactChars`). */
export async function readFact(session, backendNodeId, read, attribute) {
  await ready;
  return callOn(session, backendNodeId, `function (read, attribute, cap) {
    const r = this.getBoundingClientRect(), s = getComputedStyle(this);
    switch (read) {
      case 'text': return String(this.innerText ?? this.textContent ?? '').slice(0, cap);
      case 'value': return 'value' in this ? String(this.value).slice(0, cap) : null;
      case 'attribute': { const v = this.getAttribute(attribute); return v === null ? null : v.slice(0, cap); }
      case 'visible': return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
      case 'enabled': return !(this.disabled || this.getAttribute('aria-disabled') === 'true' || this.closest('fieldset[disabled]'));
    }
    return null;
  }`, [read, attribute ?? null, limits.readFactChars]);
}
