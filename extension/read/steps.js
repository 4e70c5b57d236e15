// The executor of the core's read plan (src/session/read_plan.rs): a tracked read
// (browser_snapshot, browser_accessibility_snapshot) asks the core for its first step, does it
// in the browser — a change tracker asked through a port or injected, a walk, a patch of the
// AX tree, the normal capture — offers what it saw, and does the next, until a step is the
// answer. The core holds the page states and the results a repeat gives again (in its saved
// state: a worker restart keeps them).
// Owns: how each step is done in the browser. Must never: choose a step, compare page states,
// or keep a result for a repeat (the core does all three).
import { captureObservation } from './capture.js';
import { changedRoots, releaseRoots } from './changed.js';
import { loaderIdOf, mainSession, sessions } from './debugger.js';
import { documentReplaced, pageWalk, stableRead, walkArgs } from './reads.js';
import { answerOf, inject, injectResident, LATE } from './inject.js';
import { askDocument } from './ports.js';
import { factArgs } from './evaluate.js';
import { applyPasswordMemory } from './worlds.js';
import { answerThenWalk, postThenWalk, trackerState } from '../page/checks.js';
import { RawJson, ready, jsonText } from '../services/core.js';
import { handleOf, tabFence } from '../services/handles.js';
import { noteFacts, noteState } from '../services/secrets.js';
import { limits } from '../services/limits.js';

/** A new walk's `keep`: its elements kept under a fresh id, for its refs. */
export const freshKeep = () => ({ id: crypto.randomUUID(), kept: limits.walksKept });

/** walkFrames' page as the core's observation. */
export function walkObservation(page, main) {
  const domFrames = page.frames.filter((f) => f.frameId !== 0);
  const obs = { url: main.url, title: main.title, viewport: main.viewport, frames: [], snapshots: [], domWalk: { ...main.walk, nodes: new RawJson(main.walk.nodes) }, domFrames };
  if (main.scopeIndex !== undefined) obs.scope = { walkIndex: main.scopeIndex };
  return obs;
}

/** The read plan's request of a tool call (`tool`: `snapshot` or `ax`). */
const requestOf = (params, tabId, tool) => ({ ...params, tabId, tool, wholeAx: globalThis.pcc?.wholeAx === true });

/** What the plan knows of a tab. */
const tabFacts = (tab) => ({ url: tab.url ?? '', tabFence: tabFence(tab.id), pending: !!tab.pendingUrl });

/** A step sent before its read runs: only a port step (an ask of a document the worker read). */
const PORT_STEPS = { walkOnePort: portWalk, askPorts: portChecks };

const early = new WeakMap(); // a call's params → its read begun early

/**
 * A tracked read begun as its call begins, before the call's consent check has looked the tab
 * up (those browser round trips overlap): only of the tab the call names by id, and its first
 * step sent only when it goes through a port. The read is executed by the call's own
 * `trackedRead` once the check passed; a call that ends without it drops it (`{drop}`).
 */
export function beginEarly(params, tool) {
  if (!Number.isInteger(params.tabId)) return null;
  const { collector } = readyNow();
  if (!collector) return null;
  const next = collector.readBegin(requestOf(params, params.tabId, tool));
  const sent = PORT_STEPS[next.step]?.(params.tabId, next);
  early.set(params, { next, sent, tabId: params.tabId, collector });
  return { drop: () => dropEarly(params) };
}

function dropEarly(params) {
  const begun = early.get(params);
  early.delete(params);
  if (begun) dropBegun(readyNow().collector, begun);
}

/** A read begun early and not run: ended, its port ask's navigation guard stopped. */
function dropBegun(collector, begun) {
  collector?.readEnd(begun.next.read);
  begun.sent?.then((a) => a?.replaced?.stop(), () => {});
}

let loaded = null;
ready.then((c) => { loaded = c; }, () => {});
/** The core when it is loaded (an early read is only begun then). */
const readyNow = () => loaded ?? {};

/**
 * A tracked read of `tab` (its call's `params`; `tool`: `snapshot` or `ax`), executed step by
 * step: `{result, tab, timing}`. `capture(render)` is the normal observation (readTab with
 * `render` as its wasm call); `preferDom` as readTab takes it.
 */
export async function trackedRead(tab, params, signal, tool, capture) {
  const { collector } = await ready;
  const begun = early.get(params);
  early.delete(params);
  // (A read begun in an instance renewed since is not this instance's: begun anew.)
  const own = begun?.tabId === tab.id && begun.collector === collector;
  if (begun && !own) dropBegun(begun.collector === collector ? collector : null, begun);
  let next = own ? begun.next : collector.readBegin(requestOf(params, tab.id, tool), tabFacts(tab));
  let sent = own ? begun.sent : undefined;
  const id = next.read;
  const t0 = performance.now();
  const ctx = { tab, signal, walk: null, facts: null, stateText: null, timing: params.timing === true };
  try {
    for (;;) {
      signal?.throwIfAborted();
      if (next.state !== undefined) {
        ctx.stateText = next.state;
        noteState(tab.id, next.state);
        if (ctx.facts) noteFacts(tab.id, next.state, ctx.facts);
      }
      ctx.facts = null;
      const step = next;
      if (step.step === 'answer') return answered(step, ctx, t0);
      if (step.step === 'render') {
        next = render(collector, id, ctx);
        continue;
      }
      if (step.step === 'capture') {
        next = await captured(collector, id, ctx, capture);
        continue;
      }
      if (step.step === 'patch') {
        next = await patched(collector, id, ctx, step);
        continue;
      }
      // (A fact's form-field facts stay here: they belong to the state the core forms.)
      const { facts, ...fact } = await DO[step.step](tab, step, ctx, sent);
      sent = undefined;
      if (facts) ctx.facts = facts;
      signal?.throwIfAborted();
      next = collector.readOffer(id, fact, tabFacts(tab));
    }
  } catch (e) {
    collector.readEnd(id);
    throw e;
  }
}

/** The answer step as the tool's `{result, tab, timing}`. */
function answered(step, ctx, t0) {
  const h = step.handle;
  const handle = { tabId: h.tabId, browserId: h.browserId, windowId: ctx.tab.windowId, tabFence: h.tabFence };
  if (h.incarnation) handle.incarnation = h.incarnation;
  const timing = ctx.timing ? (ctx.measured ?? { captureMs: 0, wasmMs: performance.now() - t0, rawBytes: 0 }) : undefined;
  return { result: step.result, handle, timing };
}

/** The walk the last step made, rendered: the next step. */
function render(collector, id, ctx) {
  const { obs, handle, walkId, captureMs } = ctx.walk;
  ctx.walk = null;
  return timed(ctx, captureMs, obs, (json) => collector.readRender(id, json, handle, walkId));
}

/** `render(json)` of observation `obs`, timed into the call's timing. */
function timed(ctx, captureMs, obs, renderJson) {
  ctx.signal?.throwIfAborted(); // abandoned: render nothing
  const t0 = performance.now();
  const json = jsonText(obs);
  const next = renderJson(json);
  ctx.measured = { captureMs, wasmMs: performance.now() - t0, rawBytes: json.length };
  return next;
}

/** The normal observation, rendered. */
async function captured(collector, id, ctx, capture) {
  const out = await capture((c, json, budget, handle) => c.readRender(id, json, handle, undefined));
  if (out.timing) ctx.measured = out.timing;
  return out.result;
}

/**
 * An AX read after a change the tab's main frame placed since its tracker answered `since`:
 * the changed elements' AX subtrees and ancestors and the DOMSnapshots (read/capture.js, with
 * `roots`), rendered as a patch of the tree the core holds (the core answers, or refuses:
 * `capture`). A page that cannot place its changes: fact `failed`.
 */
async function patched(collector, id, ctx, { since }) {
  const { tab, signal } = ctx;
  const all = await sessions(tab.id, signal).catch(() => null);
  if (!all?.length) return collector.readOffer(id, { fact: 'failed', why: 'no debugger session' }, tabFacts(tab));
  const { styles } = await ready;
  const t0 = performance.now();
  let read;
  try {
    read = await stableRead(tab.id, async (_, loaderId) => {
      const obs = await captureObservation(all, styles, (main) => changedRoots(tab.id, main, since));
      if (!obs) return null;
      await applyPasswordMemory(tab.id, all, obs);
      return { obs, captureMs: performance.now() - t0, handle: await handleOf(tab, all[0], undefined, loaderId) };
    }, tab);
  } catch (e) {
    if (signal?.aborted) throw e;
    return collector.readOffer(id, { fact: 'failed', why: String(e?.message ?? e).slice(0, limits.causeChars) }, tabFacts(tab));
  } finally {
    releaseRoots(all[0]);
  }
  if (!read) return collector.readOffer(id, { fact: 'failed', why: 'the page could not place its changes' }, tabFacts(tab));
  const next = timed(ctx, read.captureMs, read.obs, (json) => collector.readRender(id, json, read.handle, undefined));
  if (ctx.measured) ctx.measured.patched = next.step === 'answer';
  return next;
}

/** Each asking step: `(tab, step, ctx, sent) → Promise<fact>` (`sent`: the step sent early). */
const DO = {
  walkOnePort: (tab, step, ctx, sent) => {
    const handle = walkHandle(tab.id); // (the debugger only once the call's check passed)
    return (sent ?? portWalk(tab.id, step)).then((got) => walkedOne({ ...got, handle }, ctx));
  },
  walkOneInjected: (tab, step, ctx) => injectedWalk(tab, step, ctx),
  askPorts: (tab, step, ctx, sent) => sent ?? portChecks(tab.id, step),
  askAll: (tab, step) => allAnswers(tab.id, step),
  makeResident: async (tab, { frames }) => ({ fact: 'resident', done: (await answerOf(injectResident(tab.id, frames))) !== LATE }),
  askEach: (tab, { frames }) => eachAnswers(tab.id, frames),
  walkFrames: (tab, step, ctx) => framesWalk(tab, step, ctx),
};

/** The walk arguments of a one-frame ask (page/checks.js answerThenWalk). */
function oneArgs({ answer, sameAs }, keep) {
  return [answer ?? null, walkArgs(null, limits.walkTextChars, null, keep, true), limits.trackerOffsetElements, sameAs ?? null, factArgs()];
}

/** walkOnePort sent: `{got, keep, t0, replaced, documentId}` (`got`: the port's answer, or null). */
function portWalk(tabId, step) {
  const keep = freshKeep();
  const replaced = documentReplaced(tabId);
  const t0 = performance.now();
  const got = Promise.race([replaced.promise, askDocument(tabId, step.documentId, 'answerThenWalk', oneArgs(step, keep))]).catch(() => null);
  return got.then((g) => ({ got: g, keep, t0, replaced, documentId: step.documentId }));
}

/** A one-frame answer as the plan's fact; its walk held for `render`. */
async function walkedOne(asked, ctx) {
  const { got, keep, t0, replaced, handle, documentId, listed } = asked;
  try {
    if (typeof got?.answer !== 'string') return listed ? { fact: 'one', listed, documentId, result: got === null ? undefined : {} } : { fact: 'failed' };
    if (got.read) {
      const { page, main } = pageWalk([{ frameId: 0, result: got.read }], null);
      ctx.walk = { obs: walkObservation(page, main), handle: await Promise.race([replaced.promise, handle(ctx.tab, main.documentId)]), walkId: keep.id, captureMs: performance.now() - t0 };
    }
    const fact = { fact: 'one', listed, documentId, result: { answer: got.answer, frames: got.frames, same: got.same === true, walked: !!got.read } };
    if (got.facts && !got.facts.overflow) fact.facts = got.facts.fields;
    return fact;
  } catch {
    return { fact: 'failed' };
  } finally {
    replaced.stop();
  }
}

/** walkOneInjected: frame 0 asked by injection, the frames listed (first, with `listFirst`). */
async function injectedWalk(tab, step, ctx) {
  const replaced = documentReplaced(tab.id);
  const race = (p) => Promise.race([replaced.promise, p]);
  try {
    const frameList = chrome.webNavigation.getAllFrames({ tabId: tab.id });
    if (step.listFirst) {
      const frames = await race(frameList);
      if (frames?.length !== 1) {
        replaced.stop();
        return { fact: 'one', listed: (frames ?? []).map(frameOf) };
      }
    }
    const keep = freshKeep();
    const handle = walkHandle(tab.id);
    const t0 = performance.now();
    const [frames, [injected]] = await race(Promise.all([frameList, chrome.scripting.executeScript({ target: { tabId: tab.id, frameIds: [0] }, func: answerThenWalk, args: oneArgs(step, keep) })]));
    return walkedOne({ got: injected?.result ?? null, keep, t0, replaced, handle, documentId: injected?.documentId, listed: (frames ?? []).map(frameOf) }, ctx);
  } catch {
    replaced.stop();
    return { fact: 'failed' };
  }
}

const frameOf = (f) => ({ frameId: f.frameId, documentId: f.documentId });

/** askPorts: every document's tracker through its port, the frames listed meanwhile. */
async function portChecks(tabId, { documents, list }) {
  const listing = list ? chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) : null;
  const args = (d) => (typeof d.answer === 'string' ? [limits.trackerOffsetElements, d.answer, factArgs()] : [limits.trackerOffsetElements]);
  const got = await Promise.all(documents.map((d) => answerOf(askDocument(tabId, d.documentId, 'check', args(d)))));
  const listed = listing && (await listing);
  const fact = { fact: 'ports', answers: got.map((a) => (a === LATE ? { late: true } : { answer: typeof a?.answer === 'string' ? a.answer : undefined, frames: a?.frames ?? 0 })) };
  if (listed) fact.listed = listed.map(frameOf);
  // (One document's new answer brings its form-field facts: they belong to the state formed.)
  if (documents.length === 1 && got[0]?.facts && !got[0].facts.overflow) fact.facts = got[0].facts.fields;
  return fact;
}

/** askAll: the frames listed and every frame's tracker asked in one injection. */
async function allAnswers(tabId, { list, inject: asking }) {
  const [listed, answers] = await Promise.all([
    list ? chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) : null,
    asking ? answerOf(inject(tabId, 'all', trackerState, [limits.trackerOffsetElements]).catch(() => null)) : null,
  ]);
  const fact = { fact: 'all' };
  if (listed) fact.listed = listed.map(frameOf);
  // (null: the frame has no tracker; anything but a string: its tracker failed to answer.)
  if (answers && answers !== LATE) fact.answers = answers.map((r) => ({ frameId: r.frameId, documentId: r.documentId, answer: typeof r.result === 'string' ? r.result : undefined, bare: r.result === null }));
  return fact;
}

/** askEach: each frame's tracker on its own, within the core's frame answer time. */
async function eachAnswers(tabId, frames) {
  const one = (f) => answerOf(inject(tabId, [f.frameId], trackerState, [limits.trackerOffsetElements]).then(
    (r) => (typeof r[0]?.result === 'string' ? { answer: r[0].result } : {}),
    (e) => (/showing error page/.test(e?.message) ? { errorPage: true } : {}),
  )).then((a) => (a === LATE ? { late: true } : a));
  return { fact: 'each', answers: await Promise.all(frames.map(one)) };
}

/**
 * walkFrames: every frame posts this round's tags to its children and walks, in one injection
 * (page/checks.js postThenWalk); `failed` unless exactly the listed frames walked, each in the
 * document it was listed with, with no navigation committed meanwhile.
 */
async function framesWalk(tab, { frames, sameAs }, ctx) {
  const replaced = documentReplaced(tab.id);
  try {
    const race = (p) => Promise.race([replaced.promise, p]);
    const t0 = performance.now();
    const round = crypto.randomUUID();
    const keep = freshKeep();
    const handle = walkHandle(tab.id);
    const answered = await race(answerOf(inject(tab.id, 'all', postThenWalk, [round, walkArgs(null, limits.walkTextChars, round, keep, true), sameAs ?? null, factArgs()])));
    if (answered === LATE) return { fact: 'failed' };
    // Frames the browser does not list (a `javascript:` URL frame's first document, a frame
    // whose navigation is pending) answer too: left out, as the normal way leaves them.
    const listed = new Map(frames.map((f) => [f.frameId, f.documentId]));
    const got = answered.filter((w) => listed.has(w.frameId));
    if (got.length !== frames.length || got.some((w) => listed.get(w.frameId) !== w.documentId || typeof (w.result?.read ?? w.result)?.walk !== 'object')) return { fact: 'failed' };
    // Every frame's form-field facts belong to the state its trackers gave.
    if (ctx.stateText !== null && got.every((w) => w.result.facts && !w.result.facts.overflow)) noteFacts(tab.id, ctx.stateText, got.flatMap((w) => w.result.facts.fields));
    if (got.every((w) => w.result.same === true)) return { fact: 'frames', same: true };
    const { page, main } = pageWalk(got.map((w) => ({ ...w, result: w.result.read ?? w.result })), null);
    ctx.walk = { obs: walkObservation(page, main), handle: await race(handle(tab, main.documentId)), walkId: keep.id, captureMs: performance.now() - t0 };
    return { fact: 'frames', same: false };
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return { fact: 'failed' };
  } finally {
    replaced.stop();
  }
}

/**
 * The handle of a walk of tab `tabId` that starts now: the document's loaderId is asked of the
 * tab's own debugger session while the frames walk. `(tab, documentId) => Promise<handle>`.
 */
function walkHandle(tabId) {
  const own = mainSession(tabId).catch(() => null);
  const loader = own.then((o) => o && loaderIdOf(o));
  loader.catch(() => {});
  return async (tab, documentId) => {
    const [session, loaderId] = await Promise.all([own, loader]);
    return handleOf(tab, session ?? undefined, documentId, loaderId ?? undefined);
  };
}
