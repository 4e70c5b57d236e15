// The read pipeline every page-reading tool goes through: one observation of a tab (AX
// through the debugger, the DOM walk as the fallback or by choice), a selector's or ref's
// scope, one document from start to end (stableRead), the wasm render; a tracked read through
// the core's read plan (read/steps.js). Also the live node of a ref (`refNode`).
// Owns: which source an observation takes. Must never: filter, budget, redact or render (wasm
// does), or decide when a capture can be spared (the core's read plan does).
import { isConnected } from '../act/actions.js';
import { captureObservation } from '../read/capture.js';
import { ready, jsonText } from '../services/core.js';
import { mainSession, sessions } from '../read/debugger.js';
import { fail } from '../services/errors.js';
import { assertReadable, callTab, handleOf } from '../services/handles.js';
import { selectorOf, stableRead, walkFrames } from '../read/reads.js';
import { freshKeep, trackedRead as executeRead, walkObservation } from '../read/steps.js';
import { walkNode } from '../read/walknode.js';
import { applyPasswordMemory } from '../read/worlds.js';
import { tabInfo } from './common.js';
import { limits } from '../services/limits.js';
import { inject } from '../read/inject.js';
import { firstContent } from '../page/checks.js';

export async function captureAx(tab, signal) {
  const all = await sessions(tab.id, signal);
  const { styles } = await ready;
  const t0 = performance.now();
  const obs = await captureObservation(all, styles);
  await applyPasswordMemory(tab.id, all, obs);
  return { all, obs, captureMs: performance.now() - t0 };
}

/** The DOM-walk observation of every frame: frame 0 as `domWalk`, child frames as `domFrames`. */
export async function captureDom(tab, selector) {
  const t0 = performance.now();
  await ready;
  const { page, main } = await walkFrames(tab, selector || null, true, limits.walkTextChars, freshKeep());
  return { obs: walkObservation(page, main), captureMs: performance.now() - t0, documentId: main.documentId };
}

async function scopeOf(main, selector) {
  let doc;
  try {
    doc = await main.send('DOM.getDocument', { depth: 0 });
  } catch (e) {
    fail('BROWSER_SCRIPT_FAILED', 'could not read the document');
  }
  let nodeId;
  try {
    ({ nodeId } = await main.send('DOM.querySelector', { nodeId: doc.root.nodeId, selector }));
  } catch {
    fail('INVALID_REQUEST', `invalid selector ${JSON.stringify(selector).slice(0, limits.echoChars)}`, 'pass a CSS selector');
  }
  if (!nodeId) fail('BROWSER_SELECTOR_NOT_FOUND', `no element matches ${JSON.stringify(selector).slice(0, limits.echoChars)}`);
  const { node } = await main.send('DOM.describeNode', { nodeId });
  return { session: '', backendNodeId: node.backendNodeId };
}

/**
 * The live DOM node of a ref: `{session, backendNodeId}` (its debugger session object), or
 * INVALID_REQUEST (no snapshotId; a DOM-walk ref no world of ours can find) /
 * BROWSER_STALE_REF. A walk ref is found through the isolated world that keeps its walk.
 */
export async function refNode(all, handle, snapshotId, ref) {
  if (typeof ref !== 'string' || typeof snapshotId !== 'string') fail('INVALID_REQUEST', 'a ref needs the snapshotId that produced it');
  const target = (await ready).collector.resolve(snapshotId, ref, handle);
  const node = target.walkIndex !== undefined
    ? await walkNode(handle.tabId, all, target)
    : { session: all.find((s) => s.session === target.session), backendNodeId: target.backendNodeId };
  if (!node) fail('INVALID_REQUEST', 'the walk of this ref cannot be reached through the debugger', 'take browser_find or browser_snapshot again');
  if (node.gone || !node.session || !(await isConnected(node.session, node.backendNodeId))) fail('BROWSER_STALE_REF', `the element of ref ${ref} is gone`);
  return node;
}

/** A ref-scoped read (`{ref, snapshotId}`): that element's subtree, in its own session. */
async function refScope(tab, all, params) {
  const { session, backendNodeId } = await refNode(all, await handleOf(tab, all[0]), params.snapshotId, params.ref);
  return { session: session.session, backendNodeId };
}

/**
 * One observation of a tab (`loaderId`: the document's, when stableRead knows it). `source`
 * picks it; without one, `preferDom` (browser_snapshot) reads the page-side DOM walk first and
 * Chromium AX when the walk cannot run (a page that cannot be scripted), and otherwise AX first
 * with the walk as the fallback when AX is unavailable. A ref-scoped read takes AX (a ref's
 * subtree is found through the debugger). `{obs, captureMs, handle}` either way.
 */
async function observe(tab, params, signal, loaderId, preferDom) {
  if (params.source !== undefined && !['dom', 'chromium_ax'].includes(params.source)) fail('INVALID_REQUEST', 'source is "chromium_ax" or "dom"');
  selectorOf(params);
  const chosen = params.source !== undefined;
  const domFirst = params.source === 'dom' || (!chosen && preferDom && params.ref === undefined);
  let walkFailed;
  if (domFirst) {
    try {
      return await observeDom(tab, params, loaderId);
    } catch (e) {
      // Only a walk that could not run falls back (to AX, below); a selector error is the caller's.
      if (chosen || e?.code !== 'BROWSER_SCRIPT_FAILED') throw e;
      walkFailed = e;
      signal?.throwIfAborted();
    }
  }
  try {
    const { all, obs, captureMs } = await captureAx(tab, signal);
    if (!obs.frames.some((f) => f.ax)) throw new Error('AX domain unavailable');
    if (params.selector) obs.scope = await scopeOf(all[0], params.selector);
    else if (params.ref !== undefined) obs.scope = await refScope(tab, all, params);
    return { obs, captureMs, handle: await handleOf(tab, all[0], undefined, loaderId) };
  } catch (e) {
    if (e && e.code && e.code !== 'BROWSER_SCRIPT_FAILED') throw e; // selector errors are the caller's
    if (walkFailed) throw walkFailed; // the walk was tried first: its error says why
    // Debugger unavailable (another debugger attached, policy…): fall back to the DOM walk.
  }
  signal?.throwIfAborted();
  if (params.ref !== undefined) fail('BROWSER_PAGE_UNAVAILABLE', 'a ref-scoped read needs the debugger on this tab', 'close DevTools on this tab, or read with a selector');
  return observeDom(tab, params, loaderId);
}

/** The DOM-walk observation, its handle keyed like the AX path's when the debugger works (so
 * refs survive a source switch). */
async function observeDom(tab, params, loaderId) {
  const { obs, captureMs, documentId } = await captureDom(tab, params.selector);
  const main = await mainSession(tab.id).catch(() => null);
  return { obs, captureMs, handle: await handleOf(tab, main ?? undefined, documentId, loaderId) };
}

/** A read's budget: the caller's maxChars and maxNodes, checked. */
export const budgetOf = (params) => ({ maxChars: params.maxChars, maxNodes: params.maxNodes });

/**
 * One page read: validate, observe (AX or DOM walk), hand the JSON observation to
 * `render(collector, json, budget, handle)` (a wasm call; `budget`: the caller's maxChars and
 * maxNodes) and time both halves: `{result, tab, timing, handle}`.
 */
export async function readTab(params, signal, render, resolved, preferDom = false) {
  const budget = budgetOf(params);
  const tab = resolved ?? await callTab(params);
  assertReadable(tab);
  const { collector } = await ready;
  // One document from start to end, or BROWSER_PAGE_CHANGING (one re-observation). Attach
  // first, so that the document is identified the same way before and after (the tab's own
  // session is enough for that: its frames' sessions are waited for by an AX capture).
  if (params.source !== 'dom') await mainSession(tab.id).catch(() => {});
  // Abandoned (past its deadline): stop before stableRead's closing check sends a command.
  const { obs, captureMs, handle } = await stableRead(tab.id, (_, loaderId) => observe(tab, params, signal, loaderId, preferDom).then((o) => (signal?.throwIfAborted(), o)), tab);
  return rendered(obs, captureMs, handle, { params, signal, render, tab, collector, budget });
}

/** The wasm render of one observation, timed: readTab's answer. */
function rendered(obs, captureMs, handle, { params, signal, render, tab, collector, budget }) {
  // Abandoned: render nothing (a revision the model never sees must not become the base).
  signal?.throwIfAborted();
  const t0 = performance.now();
  const json = jsonText(obs);
  const result = render(collector, json, budget, handle);
  const timing = { captureMs, wasmMs: performance.now() - t0, rawBytes: json.length };
  return { result, tab: tabInfo(tab, handle), timing: params.timing ? timing : undefined, handle };
}

/**
 * A read the core's read plan may spare (read/steps.js: a repeat of an unchanged page, a
 * patch, a walk in one round trip, else `readTab`): `{result, tab, timing}`. `tool`:
 * `snapshot` (read from the walk first) or `ax`.
 */
export async function trackedRead(params, signal, tool) {
  const tab = await callTab(params);
  assertReadable(tab);
  const preferDom = tool === 'snapshot';
  const read = () => executeRead(tab, params, signal, tool, (render) => readTab(params, signal, render, tab, preferDom));
  let { result, handle, timing } = await read();
  // A whole page that shows nothing yet (a client-rendered app booting): wait for it to render,
  // within emptyPageWaitMs and the call's own time, and read it once more; still nothing, the
  // state says so (the core's note), never an empty answer.
  if (result?.totalNodes === 0 && params.selector === undefined && params.ref === undefined && /^(https?|file):/.test(tab.url || '') && !signal?.aborted) {
    await inject(tab.id, [0], firstContent, [limits.emptyPageWaitMs, limits.settleQuietMs]).catch(() => {});
    if (!signal?.aborted) ({ result, handle, timing } = await read());
  }
  return { result, tab: tabInfo(tab, handle), timing };
}
