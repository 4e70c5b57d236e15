// Action tools: click, fill, type, press, hover, select_option, upload (one ref or target
// each), drag, fill_form, scroll, dialog. Trusted CDP input at a hit-checked point
// (actions.js); page events only for a DOM ref without the debugger.
// Owns: the outcome of an action as the model reads it. Must never: act without ownership,
// or replay a side effect whose outcome is unknown.
import { keepingFocus } from '../act/focus.js';
import { act, clickAt, dragBetween, isConnected, pointOf, reveal, scroll } from '../act/actions.js';
import { ready, jsonText } from '../services/core.js';
import { sessions, whilePainting } from '../read/debugger.js';
import { answered, openDialog } from '../act/dialogs.js';
import { domAct } from '../read/walker.js';
import { inject } from '../read/inject.js';
import { fail, toWire } from '../services/errors.js';
import { assertReadable, callTab, handleOf, notedCallTab, resolveTab } from '../services/handles.js';
import { assertMayAct, openedSince } from '../services/ownership.js';
import { settle } from '../act/settle.js';
import { walkNode } from '../read/walknode.js';
import { tabInfo } from './common.js';
import { limits } from '../services/limits.js';
import { captureAx, captureDom, readTab, refNode } from './observe.js';
import { resolveTarget, targetOf } from './target.js';

const ACTIONS = { browser_click: 'click', browser_fill: 'fill', browser_type: 'type', browser_press: 'press', browser_hover: 'hover', browser_select_option: 'select_option', browser_upload: 'upload' };

/**
 * `browser_drag`: from an element (`ref` + `snapshotId`, or `target`) to another element
 * (`toRef` under the same snapshotId, or `toTarget`) or a point (`toX`, `toY`: viewport CSS
 * pixels). The source is found before the destination, so a target resolution never
 * replaces the other's.
 */
async function browserDrag(params, signal) {
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const toPoint = params.toX !== undefined || params.toY !== undefined;
  if ([params.toRef !== undefined, params.toTarget !== undefined, toPoint].filter(Boolean).length !== 1) fail('INVALID_REQUEST', 'drag needs one destination: toRef, toTarget, or toX + toY');
  if (toPoint && (!Number.isFinite(params.toX) || !Number.isFinite(params.toY))) fail('INVALID_REQUEST', 'toX and toY are numbers (viewport CSS pixels)');
  const all = await sessions(tab.id, signal);
  const handle = await handleOf(tab, all[0]);
  await assertMayAct(tab, params, handle);
  const nodeOf = async (target, snapshotId, ref) => {
    if (target !== undefined) ({ snapshotId, ref } = await resolveTarget(tab, targetOf({ target }), signal));
    else if (typeof ref !== 'string' || typeof snapshotId !== 'string') fail('INVALID_REQUEST', 'drag needs ref and snapshotId, or a target');
    const n = await refNode(all, handle, snapshotId, ref);
    return pointOf(all, n.session, n.backendNodeId);
  };
  const from = await nodeOf(params.target, params.snapshotId, params.ref);
  let to;
  if (toPoint) {
    const { cssLayoutViewport: vp } = await all[0].send('Page.getLayoutMetrics');
    if (!(params.toX >= 0 && params.toY >= 0 && params.toX < vp.clientWidth && params.toY < vp.clientHeight)) fail('INVALID_REQUEST', `(${params.toX}, ${params.toY}) is outside the viewport`);
    to = [params.toX, params.toY];
  } else {
    to = await nodeOf(params.toTarget, params.snapshotId, params.toRef);
  }
  const started = Date.now();
  const { html5 } = await keepingFocus(tab.id, () => dragBetween(all, tab.id, from.slice(0, 2), to.slice(0, 2)));
  return outcome(tab, handle, all[0], started, { ok: true, ...(html5 ? { html5 } : {}) });
}


/**
 * `browser_fill_form`: each field (`{ref, value}` under the call's snapshotId, or
 * `{target, value}`) filled in order as `browser_fill` would, with a result per field. A field
 * whose outcome is unknown stops the form there: the rest are `notTried`.
 */
async function browserFillForm(params, signal) {
  const fields = params.fields;
  if (!Array.isArray(fields) || !fields.length || fields.length > limits.formFieldsMax) fail('INVALID_REQUEST', `fields is a list of 1 to ${limits.formFieldsMax} {ref or target, value}`);
  fields.forEach((f, i) => {
    const ok = f && typeof f === 'object' && typeof f.value === 'string' && (f.target !== undefined) !== (f.ref !== undefined)
      && Object.keys(f).every((k) => ['ref', 'target', 'value'].includes(k));
    if (!ok) fail('INVALID_REQUEST', `fields[${i}] is {ref, value} or {target, value} (value a string)`);
  });
  if (fields.some((f) => f.ref !== undefined) && typeof params.snapshotId !== 'string') fail('INVALID_REQUEST', 'fields with a ref need the snapshotId that produced them');
  const results = [];
  for (const f of fields) {
    if (results.some((r) => r.error?.code === 'BROWSER_OPERATION_UNCERTAIN')) {
      results.push({ notTried: true });
      continue;
    }
    const one = { tabId: params.tabId, handle: params.handle, text: f.value, ...(f.target !== undefined ? { target: f.target } : { ref: f.ref, snapshotId: params.snapshotId }) };
    try {
      const r = await browserAction('fill', one, signal);
      results.push(r.invalid ? { ok: true, invalid: true } : { ok: true });
    } catch (e) {
      if (signal?.aborted) throw e;
      results.push({ error: toWire(e) });
    }
  }
  return { ok: results.every((r) => r.ok), fields: results };
}

async function browserAction(action, params, signal) {
  if (params.target !== undefined) {
    if (params.ref !== undefined || params.snapshotId !== undefined) fail('INVALID_REQUEST', 'pass a target or a ref with its snapshotId, not both');
    const tab = await resolveTab(params.tabId);
    assertReadable(tab);
    params = { ...params, ...(await resolveTarget(tab, targetOf(params), signal)) };
  }
  if (typeof params.snapshotId !== 'string' || typeof params.ref !== 'string') {
    if (action === 'press' && params.ref === undefined) return pressWithoutRef(params, signal);
    if (action === 'click' && params.ref === undefined && (params.x !== undefined || params.y !== undefined)) return clickAtPoint(params, signal);
    fail('INVALID_REQUEST', `${action} needs ref and snapshotId from a browser_snapshot or browser_accessibility_snapshot`);
  }
  const tab = await callTab(params);
  assertReadable(tab);
  const { collector } = await ready;
  const all = await sessions(tab.id, signal).catch(() => null);
  signal?.throwIfAborted();
  const handle = await handleOf(tab, all?.[0]);
  if (params.handle) {
    const h = params.handle;
    if (h.tabFence && h.tabFence !== handle.tabFence) fail('BROWSER_STALE_REF', `tab ${tab.id} was replaced since that handle was issued`);
    if (h.incarnation && h.incarnation !== handle.incarnation) fail('BROWSER_STALE_REF', 'the page navigated or reloaded since that handle was issued');
  }
  await assertMayAct(tab, params, handle);
  let target = collector.resolve(params.snapshotId, params.ref, handle);
  let rebound = false;
  let session;
  if (target.walkIndex !== undefined) {
    // A DOM-source ref: through the debugger, the element its walk kept acts like an AX ref
    // (trusted input, the hit check); without one, page events in the frame it was walked in.
    let node = all && await walkNode(tab.id, all, target);
    if (!node || node.gone) return domRefAct(tab, handle, all, target, action, params);
    if (!(await isConnected(node.session, node.backendNodeId))) {
      // Rebind at most once, to a unique strong equivalent in a fresh walk of the same document.
      const { obs } = await captureDom(tab, null);
      signal?.throwIfAborted();
      // (The core's target names the old walk; its index counts in the fresh one.)
      target = { ...collector.rebind(params.snapshotId, params.ref, handle, jsonText(obs)), walkId: obs.domWalk.walkId };
      node = await walkNode(tab.id, all, target);
      if (!node?.session || !(await isConnected(node.session, node.backendNodeId))) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} is gone`);
      rebound = true;
    }
    ({ session } = node);
    target = { backendNodeId: node.backendNodeId };
  } else {
    if (!all) fail('BROWSER_PAGE_UNAVAILABLE', 'the debugger is not available on this tab');
    session = all.find((s) => s.session === target.session);
    if (!session || !(await isConnected(session, target.backendNodeId))) {
      // Rebind at most once, to a unique strong equivalent in the same document.
      const { obs } = await captureAx(tab, signal);
      signal?.throwIfAborted();
      target = collector.rebind(params.snapshotId, params.ref, handle, jsonText(obs));
      session = all.find((s) => s.session === target.session);
      if (!session || !(await isConnected(session, target.backendNodeId))) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} is gone`);
      rebound = true;
    }
  }
  const started = Date.now();
  const extra = action === 'click' ? await keepingFocus(tab.id, () => act(all, session, target.backendNodeId, action, params)) : await act(all, session, target.backendNodeId, action, params);
  const out = { ok: true, action, ref: params.ref, ...extra };
  if (rebound) out.rebound = true;
  return outcome(tab, handle, all[0], started, out);
}

/** A DOM-source ref without the debugger: synthetic events in the frame it was walked in. */
async function domRefAct(tab, handle, all, target, action, params) {
  const frameIds = [Number(target.frameId) || 0];
  const started = Date.now();
  const [res] = await inject(tab.id, frameIds, domAct, [target.walkId ?? null, target.walkIndex, action, params.text ?? params.value ?? params.key ?? '']);
  if (res?.result?.stale) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} is gone`);
  if (res?.result?.noOption) fail('INVALID_REQUEST', 'no such option', 'use an option value or label shown in the snapshot');
  return outcome(tab, handle, all?.[0], started, { ok: true, action, ref: params.ref });
}

/**
 * An action's result, once the page settled (`settledMs`, from the action's start: what it
 * started, a fetch included, is waited for): the tab as it is now, and `navigated` when its
 * document changed (the caller's refs just became invalid).
 */
async function outcome(tab, handle, mainSession, started, out) {
  const settled = await settle(tab.id, started);
  out.settledMs = settled.ms;
  if (settled.navigating) out.navigating = true;
  const now = await chrome.tabs.get(tab.id).catch(() => tab);
  // A cross-process navigation detaches the old session: ask the tab's current one.
  const after = await handleOf(now, mainSession).catch(() => sessions(tab.id).then((a) => handleOf(now, a[0]))).catch(() => null);
  if (after && after.incarnation !== handle.incarnation) out.navigated = true;
  // The URL changed and the document stayed: a client-side route (history.pushState, a hash
  // route), reported as such and read like a navigation (session/follow.rs).
  else if (now.url && tab.url && !settled.navigating && isRoute(tab.url, now.url)) out.routed = true;
  out.tab = tabInfo(now, after || handle);
  // A tab the page opened (a target=_blank link, window.open): the agent's, and said here.
  const opened = openedSince(tab.id, started);
  if (opened.length) out.opened = (await Promise.all(opened.map((id) => chrome.tabs.get(id).catch(() => null)))).filter(Boolean).map((t) => tabInfo(t));
  return out;
}

/** Whether `from` → `to` within one document is a client-side route change: another path or
 * query (history.pushState), or a hash route (`#/…`, `#!…`); a jump to an anchor is not. */
function isRoute(from, to) {
  if (from === to) return false;
  const [a, b] = [from.split('#'), to.split('#')];
  return a[0] !== b[0] || /^[/!]/.test(b.slice(1).join('#'));
}

const DIRECTIONS = ['up', 'down', 'left', 'right'];

/**
 * `browser_scroll`: the page (what is under the middle of the viewport), the scroll
 * container of `ref`, or `toRef` into view. A side effect (agent-owned or claimed tab).
 * The result says how far it moved and what the viewport shows now (a small state).
 */
async function browserScroll(params, signal) {
  const { direction, pages, deltaX, deltaY } = params;
  if (params.toRef === undefined) {
    if (direction !== undefined && !DIRECTIONS.includes(direction)) fail('INVALID_REQUEST', `direction is one of ${DIRECTIONS.join(', ')}`);
    if (pages !== undefined && !(typeof pages === 'number' && pages > 0 && pages <= 20)) fail('INVALID_REQUEST', 'pages must be a number in (0, 20]');
    for (const [k, v] of [['deltaX', deltaX], ['deltaY', deltaY]]) {
      if (v !== undefined && !(Number.isFinite(v) && Math.abs(v) <= limits.coordMaxPx)) fail('INVALID_REQUEST', `${k} must be a number of CSS pixels (|${k}| ≤ ${limits.coordMaxPx})`);
    }
    if (!direction && !deltaX && !deltaY) fail('INVALID_REQUEST', 'scroll needs direction, deltaX/deltaY or toRef');
  }
  const out = await onTab(params, signal, async (all, handle) => {
    const ref = params.toRef ?? params.ref;
    const { session, backendNodeId } = ref === undefined ? { session: all[0], backendNodeId: null } : await refNode(all, handle, params.snapshotId, ref);
    const moved = params.toRef !== undefined ? await reveal(session, backendNodeId) : await scroll(all, session, backendNodeId, { direction, pages, dx: deltaX, dy: deltaY });
    return { ok: true, action: 'scroll', ...moved };
  });
  if (out.navigated) return out;
  // What the viewport shows now: a small state (the budget keeps what is in view first),
  // with refs under its own snapshotId. (An AX revision would say `unchanged`: scrolling
  // changes what is seen, not the page.)
  // Read like browser_snapshot by default (the DOM walk).
  const { result } = await readTab({ tabId: out.tab.id, maxChars: limits.scrollViewChars }, signal, (c, json, budget, h) => c.snapshot(json, { ...budget, tab: h }), undefined, true);
  const { snapshotId, state, truncated } = result;
  return { ...out, snapshotId, state, truncated };
}

/**
 * A side effect on the tab itself (no ref of an earlier read): an agent-owned or claimed tab,
 * `run(all, handle)` → the outcome fields, reported once the page settled.
 */
async function onTab(params, signal, run) {
  const tab = await callTab(params);
  assertReadable(tab);
  const all = await sessions(tab.id, signal);
  const handle = await handleOf(tab, all[0]);
  await assertMayAct(tab, params, handle);
  const started = Date.now();
  return outcome(tab, handle, all[0], started, await run(all, handle, tab));
}

async function clickAtPoint(params, signal) {
  if (!Number.isFinite(params.x) || !Number.isFinite(params.y)) fail('INVALID_REQUEST', 'a click at a point needs x and y (viewport CSS pixels)');
  return onTab(params, signal, async (all, handle, tab) => ({ ok: true, action: 'click', hit: (await keepingFocus(tab.id, () => clickAt(all, params.x, params.y, params))).hit }));
}

async function pressWithoutRef(params, signal) {
  return onTab(params, signal, async (all) => {
    await act(all, all[0], undefined, 'press', params);
    return { ok: true, action: 'press' };
  });
}

/**
 * `browser_dialog`: without `accept`, the open dialog `{type, message, defaultPrompt?}`; with
 * it, the answer (a side effect: agent-owned or claimed tabs), `promptText` for a prompt.
 */
async function browserDialog(params) {
  const tab = await resolveTab(params.tabId);
  const d = openDialog(tab.id);
  if (!d) fail('INVALID_REQUEST', `no dialog is open on tab ${tab.id}`, 'a result says dialog when one opens');
  if (params.accept === undefined) return { tab: tabInfo(tab), dialog: d };
  const [main] = await sessions(tab.id);
  await assertMayAct(tab, params, await handleOf(tab, main));
  await main.send('Page.handleJavaScriptDialog', { accept: params.accept, ...(params.promptText !== undefined ? { promptText: params.promptText } : {}) });
  answered(tab.id);
  return { ok: true, dialog: { type: d.type, accepted: params.accept } };
}

/** An action on a tab that may paint no frame of its own (debugger.js whilePainting), from
 * its first input to its settled outcome. (A tab that cannot be found: the tool says so.) */
const painted = (run) => async (params, signal) => {
  // (The tab the call's consent check looked up, when it did: no second lookup.)
  const tab = notedCallTab(params) ?? await resolveTab(params.tabId).catch(() => null);
  return tab ? whilePainting(tab, () => run(params, signal)) : run(params, signal);
};

export const actTools = {
  ...Object.fromEntries(Object.entries(ACTIONS).map(([name, action]) => [name, painted((p, signal) => browserAction(action, p, signal))])),
  browser_drag: painted(browserDrag),
  browser_fill_form: painted(browserFillForm),
  browser_scroll: painted(browserScroll),
  browser_dialog: browserDialog,
};
