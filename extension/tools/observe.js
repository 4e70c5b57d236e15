// The read pipeline every page-reading tool goes through: one observation of a tab (AX
// through the debugger, the DOM walk as the fallback or by choice), a selector's or ref's
// scope, one document from start to end (stableRead), the wasm render, and the change
// tracker's shortcut for a repeat read. Also the live node of a ref (`refNode`).
// Owns: which source a read takes and when a capture can be spared. Must never: filter,
// budget, redact or render (wasm does), or answer `unchanged` without the tracker's proof.
import { isConnected } from '../act/actions.js';
import { captureObservation } from '../read/capture.js';
import { changedRoots, releaseRoots } from '../read/changed.js';
import { RawJson, ready, jsonText } from '../services/core.js';
import { loaderIdOf, mainSession, sessions } from '../read/debugger.js';
import { fail } from '../services/errors.js';
import { assertReadable, callTab, handleOf, sameDocumentHandle } from '../services/handles.js';
import { documentReplaced, pageWalk, selectorOf, stableRead, walkArgs, walkFrames } from '../read/reads.js';
import { askHeld, heldFrames, heldMain, heldRead, heldSince, heldWalk, oneFrameState, pageState, patchable, readKey, remember } from '../read/repeat.js';
import { answerThenWalk, postThenWalk } from '../page/checks.js';
import { answerOf, inject, injectResident, LATE } from '../read/inject.js';
import { askDocument } from '../read/ports.js';
import { factArgs } from '../read/evaluate.js';
import { noteFacts } from '../services/secrets.js';
import { walkNode } from '../read/walknode.js';
import { applyPasswordMemory } from '../read/worlds.js';
import { optionalInt, tabInfo } from './common.js';
import { limits } from '../services/limits.js';

export async function captureAx(tab, signal) {
  const all = await sessions(tab.id, signal);
  const { styles } = await ready;
  const t0 = performance.now();
  const obs = await captureObservation(all, styles);
  await applyPasswordMemory(tab.id, all, obs);
  return { all, obs, captureMs: performance.now() - t0 };
}

/** A new walk's `keep`: its elements kept under a fresh id, for its refs. */
const freshKeep = () => ({ id: crypto.randomUUID(), kept: limits.walksKept });

/** The DOM-walk observation of every frame: frame 0 as `domWalk`, child frames as `domFrames`. */
export async function captureDom(tab, selector) {
  const t0 = performance.now();
  await ready;
  const { page, main } = await walkFrames(tab, selector || null, true, limits.walkTextChars, freshKeep());
  return { obs: walkObservation(page, main), captureMs: performance.now() - t0, documentId: main.documentId };
}

/** walkFrames' page as the core's observation. */
function walkObservation(page, main) {
  const domFrames = page.frames.filter((f) => f.frameId !== 0);
  const obs = { url: main.url, title: main.title, viewport: main.viewport, frames: [], snapshots: [], domWalk: { ...main.walk, nodes: new RawJson(main.walk.nodes) }, domFrames };
  if (main.scopeIndex !== undefined) obs.scope = { walkIndex: main.scopeIndex };
  return obs;
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
export const budgetOf = (params) => ({ maxChars: optionalInt(params, 'maxChars'), maxNodes: optionalInt(params, 'maxNodes') });

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
 * An AX read after a change the tab's main frame placed since its tracker answered `since`
 * (repeat.js patchable: every other frame answers as it did): the changed elements' AX
 * subtrees and ancestors and the DOMSnapshots (read/capture.js, with `roots`), patched by the
 * core into the trees it holds. readTab's answer (`timing.patched`), or null when the page cannot place its
 * changes or the core refuses the patch: the caller then reads the whole tree.
 */
async function patchedRead(tab, params, signal, render, since) {
  const all = await sessions(tab.id, signal).catch(() => null);
  refusal = 'no debugger session';
  if (!all?.length) return null;
  const { collector, styles } = await ready;
  const t0 = performance.now();
  let read;
  try {
    read = await stableRead(tab.id, async (_, loaderId) => {
      const obs = await captureObservation(all, styles, (main) => changedRoots(tab.id, main, since));
      refusal = 'the page could not place its changes';
      if (!obs) return null;
      await applyPasswordMemory(tab.id, all, obs);
      return { obs, captureMs: performance.now() - t0, handle: await handleOf(tab, all[0], undefined, loaderId) };
    }, tab);
  } catch (e) {
    if (signal?.aborted) throw e;
    refusal = String(e?.message ?? e).slice(0, limits.causeChars);
    return null;
  } finally {
    releaseRoots(all[0]);
  }
  if (!read) return null;
  try {
    const out = rendered(read.obs, read.captureMs, read.handle, { params, signal, render, tab, collector, budget: budgetOf(params) });
    if (out.timing) out.timing.patched = true;
    refusal = null;
    return out;
  } catch (e) {
    // Refused (the page moved outside what it named, another frame set…): read it whole.
    if (signal?.aborted) throw e;
    refusal = String(e?.message ?? e).slice(0, limits.causeChars);
    return null;
  }
}

let refusal = null;
/** Why the last AX read that tried a patch read the whole tree instead (null: it patched). */
export const lastPatchRefusal = () => refusal;

/**
 * oneInjectionRead's ask of tab `tabId` for read key `key`, begun: the guard against a
 * navigation committed meanwhile (`replaced`), the document of the key's last read (`held`,
 * `[documentId, answer]`, when that tab had one frame) and, when there is one, the ask already
 * sent through its port (`ported`), with the walk's arguments (`args`) and `keep`.
 */
function readAsk(tabId, key) {
  const replaced = documentReplaced(tabId);
  const held = heldMain(key);
  // (The walk id names the document too: a frame of another document keeps no such walk.)
  const sameAs = held === null ? null : heldRead(key)?.walkId ?? null;
  const keep = freshKeep();
  const args = [held?.[1] ?? null, walkArgs(null, limits.walkTextChars, null, keep, true), limits.trackerOffsetElements, sameAs, factArgs()];
  const t0 = performance.now();
  return { key, replaced, held, keep, args, t0, ported: held && askDocument(tabId, held[0], 'answerThenWalk', args) };
}

const early = new WeakMap(); // a call's params → its early asks (askEarly)

/**
 * The asks a tracked read (trackedRead: `kind`, `tracked`, `preferDom` as it is given them)
 * sends as its call begins, before the call's consent check has looked the tab up (issue #37
 * item 3: those browser round trips overlap instead of following each other): a one-frame
 * snapshot's ask (readAsk) of the document the key's last read was answered from, else the
 * tracker checks of the documents of the tab's newest page state (repeat.js askHeld). Only
 * of the tab the call names by id, only through the ports the worker holds to documents it
 * read: nothing else is asked early. The answers are used by the call's own read alone, which
 * runs only once the check passed: a call that ends without taking them drops them (`{drop}`;
 * background.js). Null when there is nothing to ask early.
 */
export function askEarly(params, kind, tracked, preferDom) {
  if (!tracked || !Number.isInteger(params.tabId)) return null;
  const key = readKey(params.tabId, kind, params);
  const asks = { key };
  if (preferDom && readsInOne(params) && heldFrames(key) <= 1) {
    if (!heldMain(key)) return null; // (read by injection: nothing to ask early)
    asks.read = readAsk(params.tabId, key);
  } else {
    asks.state = askHeld(params.tabId);
    if (!asks.state) return null;
  }
  early.set(params, asks);
  return { drop: () => takeEarly(params, null) };
}

/** The call's early asks for read key `key` (none: null), taken; asks for another key are dropped. */
function takeEarly(params, key) {
  const asks = early.get(params);
  early.delete(params);
  if (asks && asks.key !== key) asks.read?.replaced.stop();
  return asks?.key === key ? asks : null;
}

/** Whether a tracked walk read of `params` may read the tab in one round trip (oneInjectionRead). */
const readsInOne = (params) => [undefined, 'dom'].includes(params.source) && params.selector === undefined && params.ref === undefined;

/**
 * `browser_snapshot` from the walk, unscoped, of a tab with one frame, in one round trip: the
 * frame's tracker answers and, unless it answers what it did before the key's last read,
 * walks right after (page/domwalk.js answerThenWalk; no tracker call of its own, no document
 * checks around the read: one answer comes from one document, and a navigation committed
 * meanwhile voids the read). Asked through the tab's port to the document of the key's last
 * read (read/ports.js), else injected. `{state}` (the held read may answer), `{state, same:
 * true}` (the walk showed what the held read's did: that read answers), `{state, read, walkId}`
 * (readTab's answer), or null when this cannot read the tab (child frames, no tracker or walk
 * in the frame, a pending navigation, any error): the caller then reads the normal way.
 * `asked`: the call's readAsk sent early (askEarly), if any.
 */
async function oneInjectionRead(tab, key, params, signal, render, asked) {
  if (tab.pendingUrl) {
    asked?.replaced.stop();
    return null;
  }
  const { replaced, held, keep, args, t0, ported } = asked ?? readAsk(tab.id, key);
  const { collector } = await ready;
  const budget = budgetOf(params);
  let read;
  try {
    const race = (p) => Promise.race([replaced.promise, p]);
    // (A held answer needs no handle: the loaderId is waited for only when the frame walked.)
    const handle = walkHandle(tab);
    // Through the port: the document asked is the one that answers (a window with child
    // frames is read the normal way); a port that cannot ask it leaves the read to an injection.
    const viaPort = ported && await race(ported);
    const answered = typeof viaPort?.answer === 'string' ? { documentId: held[0], got: viaPort } : await injectedRead(tab, args, held !== null, race);
    if (!answered || answered.got.frames > 0) return null;
    const { documentId, got } = answered;
    const state = oneFrameState(tab, documentId, got.answer);
    // The walk's form-field facts belong to this state: the result's last scrub needs no
    // injection of its own (secrets.js).
    if (got.facts && !got.facts.overflow) noteFacts(tab.id, state.text, got.facts.fields);
    // The walk showed what it showed for the key's last read: that read answers (and the
    // state now is remembered with it).
    if (got.same === true) return { state, same: true };
    if (!got.read) return { state };
    const { page, main } = pageWalk([{ frameId: 0, result: got.read }], null);
    const captureMs = performance.now() - t0;
    read = { state, obs: walkObservation(page, main), captureMs, handle: await handle(main.documentId, race), walkId: keep.id };
  } catch (e) {
    if (signal?.aborted) throw e;
    return null;
  } finally {
    replaced.stop();
  }
  // The render's own errors are the call's (the normal way would meet them again).
  return { state: read.state, walkId: read.walkId, read: rendered(read.obs, read.captureMs, read.handle, { params, signal, render, tab, collector, budget }) };
}

/**
 * The handle of a walk of `tab` that starts now: the document's loaderId is asked of the tab's
 * own debugger session while the frames walk (attached meanwhile: the walk does not wait for
 * it). `(documentId, race) => Promise<handle>` (`documentId`: the walk's, for a tab without
 * the debugger; `race`: the read's guard against a navigation committed meanwhile).
 */
function walkHandle(tab) {
  const own = mainSession(tab.id).catch(() => null);
  const loader = own.then((o) => o && loaderIdOf(o));
  loader.catch(() => {});
  return async (documentId, race) => {
    const [session, loaderId] = await race(Promise.all([own, loader]));
    return handleOf(tab, session ?? undefined, documentId, loaderId ?? undefined);
  };
}

/**
 * oneInjectionRead's answer injected into frame 0 (`args`: answerThenWalk's), with the frames
 * listed meanwhile: `{documentId, got}` when the tab has that one frame and the listing and the
 * injection saw the same document, else null. Without the key's last read of one frame to go
 * by (`heldOne`), the frames are listed before anything walks: a tab with child frames is
 * read the normal way (a frame added since a read of one frame: the window says so, and
 * nothing walks).
 */
async function injectedRead(tab, args, heldOne, race) {
  const frameList = chrome.webNavigation.getAllFrames({ tabId: tab.id });
  if (!heldOne && (await race(frameList))?.length !== 1) return null;
  const ask = () => chrome.scripting.executeScript({ target: { tabId: tab.id, frameIds: [0] }, func: answerThenWalk, args });
  let [frames, [injected]] = await race(Promise.all([frameList, ask()]));
  // A document that started before the extension did keeps no tracker or walk: they are made
  // resident there (inject.js injectResident), and asked once more.
  if (injected && injected.result === null) [injected] = await race(injectResident(tab.id, [0]).then(ask));
  const got = injected?.result;
  return frames?.length === 1 && typeof got?.answer === 'string' && frames[0].documentId === injected.documentId ? { documentId: injected.documentId, got } : null;
}

/**
 * `browser_snapshot` from the walk, unscoped, of a tab with child frames whose trackers all
 * answered (`frames`: that listing, without error pages), in one injection: every frame posts this round's tags to
 * its children and walks (page/checks.js postThenWalk; a child waits for its tag), so the
 * parent-frame relations are verified as walkFrames verifies them. `{same: true}` when every
 * frame showed exactly what walk `sameAs` (the held read's, of these frames) showed: that read
 * answers; else `{read, walkId}` (readTab's answer), or null (the caller reads the normal way) unless
 * exactly the listed frames walked, each in the document it was listed with, with no
 * navigation committed meanwhile.
 */
async function framesRead(tab, frames, params, signal, render, sameAs, stateText) {
  // (A main frame no script runs in, Chrome's error page, is read the normal way: from AX.)
  if (tab.pendingUrl || !frames.some((f) => f.frameId === 0)) return null;
  const { collector } = await ready;
  const replaced = documentReplaced(tab.id);
  let read;
  try {
    const race = (p) => Promise.race([replaced.promise, p]);
    const t0 = performance.now();
    const round = crypto.randomUUID();
    const keep = freshKeep();
    const handle = walkHandle(tab);
    const answered = await race(answerOf(inject(tab.id, 'all', postThenWalk, [round, walkArgs(null, limits.walkTextChars, round, keep, true), sameAs, factArgs()])));
    if (answered === LATE) return null;
    // Frames the browser does not list (a `javascript:` URL frame's first document, a frame
    // whose navigation is pending) answer too: left out, as the normal way leaves them.
    const listed = new Map(frames.map((f) => [f.frameId, f.documentId]));
    const got = answered.filter((w) => listed.has(w.frameId));
    if (got.length !== frames.length || got.some((w) => listed.get(w.frameId) !== w.documentId || typeof (w.result?.read ?? w.result)?.walk !== 'object')) return null;
    // Every frame's form-field facts belong to the state its trackers gave: the result's last
    // scrub needs no injection of its own (secrets.js).
    if (stateText && got.every((w) => w.result.facts && !w.result.facts.overflow)) noteFacts(tab.id, stateText, got.flatMap((w) => w.result.facts.fields));
    if (sameAs !== null && got.every((w) => w.result.same === true)) return { same: true };
    const walks = got.map((w) => ({ ...w, result: w.result.read ?? w.result }));
    const { page, main } = pageWalk(walks, null);
    const captureMs = performance.now() - t0;
    read = { obs: walkObservation(page, main), captureMs, handle: await handle(main.documentId, race), walkId: keep.id };
  } catch (e) {
    if (signal?.aborted) throw e;
    return null;
  } finally {
    replaced.stop();
  }
  return { walkId: read.walkId, read: rendered(read.obs, read.captureMs, read.handle, { params, signal, render, tab, collector, budget: budgetOf(params) }) };
}

/**
 * A read the change tracker may spare (repeat.js). With `tracked` and the page unchanged since
 * this key's last read, `reuse(held, handle, collector)` answers from what `keep` kept of that
 * read (it throws when it cannot: the document changed, the revision or refs are gone, and the
 * read then captures); otherwise `readTab` with `render` — for an AX read after a change the
 * page placed, where `holds(collector, handle)` (the core holds the trees of the key's last
 * read), patchedRead first. `{result, tab, timing}` either way.
 */
export async function trackedRead(params, signal, kind, { tracked, reuse, keep, render, preferDom, holds }) {
  const tab = await callTab(params);
  assertReadable(tab);
  const { collector } = await ready;
  const key = readKey(tab.id, kind, params);
  const oneInjection = tracked && preferDom && readsInOne(params);
  // (A tab that had child frames at the key's last read goes straight to the frames' path.)
  const inOne = oneInjection && heldFrames(key) <= 1;
  const asked = takeEarly(params, key);
  if (!inOne) asked?.read?.replaced.stop();
  const one = inOne ? await oneInjectionRead(tab, key, params, signal, render, asked?.read) : null;
  if (one?.read) {
    const { handle, ...read } = one.read;
    remember(key, one.state, { kept: keep(read.result), handle, walkId: one.walkId });
    return read;
  }
  const page = one ? null : tracked ? await pageState(tab, asked?.state) : null;
  const state = one?.state ?? page?.state ?? null;
  // The facts of the state the tab's one document answered anew: the result's last scrub
  // needs no injection of its own (secrets.js).
  if (page?.facts && !page.facts.overflow) noteFacts(tab.id, page.state.text, page.facts.fields);
  /** The held read's answer again (remembered with the state now), or null when it cannot be. */
  const again = (held) => {
    const t0 = performance.now();
    try {
      // The state names every frame's document: the held read's document, so its handle.
      const handle = sameDocumentHandle(tab, held.handle);
      signal?.throwIfAborted(); // abandoned: no revision is committed
      const result = reuse(held.kept, handle, collector);
      remember(key, state, { kept: keep(result), handle, walkId: held.walkId });
      return { result, tab: tabInfo(tab, handle), timing: params.timing ? { captureMs: 0, wasmMs: performance.now() - t0, rawBytes: 0 } : undefined };
    } catch (e) {
      if (signal?.aborted) throw e;
      return null;
    }
  };
  // Unchanged, or the one frame walked and showed what the held read's walk did.
  const held = one?.same ? heldRead(key) : heldSince(key, state);
  const answer = held && again(held);
  if (answer) return answer;
  // An AX read after a change the main frame can place: only the changed subtrees are
  // fetched, the core patches the tree it holds from the key's last read (or refuses, and the
  // whole tree is fetched as before).
  // (`pcc.wholeAx`: the tests' switch, to compare a patched read with a whole one.)
  const last = heldRead(key);
  const since = kind === 'ax' && tracked && !globalThis.pcc?.wholeAx && params.source !== 'dom' && params.selector === undefined && params.ref === undefined
    && last && holds?.(collector, last.handle) ? patchable(key, state) : null;
  const patched = since !== null ? await patchedRead(tab, params, signal, render, since) : null;
  if (patched) {
    const { handle, ...read } = patched;
    remember(key, state, { kept: keep(read.result), handle });
    return read;
  }
  // A tab with child frames, every one of them reached by the tracker's injection: walked in
  // one injection too (every frame showing what the held read's walk did: that read answers),
  // or else the normal way.
  const walked = page?.reached && oneInjection ? await framesRead(tab, page.frames, params, signal, render, heldWalk(key, page.frames), page.state.text) : null;
  const sameAgain = walked?.same && heldRead(key) && again(heldRead(key));
  if (sameAgain) return sameAgain;
  const { handle, ...read } = walked?.read ?? await readTab(params, signal, render, tab, preferDom);
  remember(key, state, { kept: keep(read.result), handle, walkId: walked?.walkId });
  return read;
}
