// Repeat reads without a capture (issue #20 item 2). Before each AX or snapshot read, every
// frame's change tracker (changes.js) is asked for its state; when the state equals the one
// taken before this key's last read, nothing the read shows has changed: the core answers an
// AX read `unchanged` from that read's revision (`unchangedSince`), and a snapshot is that
// read's own result again (its refs still resolve) — no AX tree, no DOM snapshot.
//
// Owns: a tab's page state (every frame's tracker answer, the frame set, the URL) and the
// last state per read key with what that read gave. Must never: give a state when any frame
// has no tracker, does not answer in time or answers malformed (the read then captures), or
// hold a state for a read the caller cannot use any more (the callers check the document,
// the revision or the ref registry before using what is held).
import { trackerState } from '../page/checks.js';
import { answerOf, inject, injectResident, LATE } from './inject.js';
import { askDocument } from './ports.js';
import { factArgs } from './evaluate.js';
import { limits } from '../services/limits.js';

const states = new Map(); // read key → {state, held}

/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  for (const k of states.keys()) if (k.startsWith(`${tabId}|`)) states.delete(k);
  latest.delete(tabId);
}

/** The key of a read (`kind`: which tool and how): everything that shapes its result besides the page. */
export function readKey(tabId, kind, params) {
  return `${tabId}|${JSON.stringify([kind, params.sessionId ?? '', params.selector ?? '', params.ref ?? '', params.snapshotId ?? '', params.maxChars ?? 0, params.maxNodes ?? 0])}`;
}

/** Documents (`tabId:frameId:documentId`) whose frame did not answer in time once (a
 * `javascript:` URL frame never does): not asked again, so their page is read at once. */
const silent = new Set();
/** Documents that are Chrome's error page (static: only a new document changes them), not
 * asked again. */
const errorPages = new Set();

/** A frame document's key in those sets. */
const docKey = (tabId, frameId, documentId) => `${tabId}:${frameId}:${documentId}`;

/** One frame's tracker answer: its string, `error page` (Chrome's static error document, e.g.
 * an ad frame offline: nothing there changes but its document), or null. */
async function frameState(tabId, frame) {
  const doc = docKey(tabId, frame.frameId, frame.documentId);
  if (silent.has(doc)) return null;
  if (errorPages.has(doc)) return 'error page';
  const answer = await answerOf(inject(tabId, [frame.frameId], trackerState, [limits.trackerOffsetElements]).then(
    (r) => (typeof r[0]?.result === 'string' ? r[0].result : null),
    (e) => (/showing error page/.test(e?.message) ? 'error page' : null),
  ));
  const kept = answer === LATE ? silent : answer === 'error page' ? errorPages : null;
  if (kept) keepDoc(kept, doc);
  return answer === LATE ? null : answer;
}

/** Whether listing `frames` (webNavigation) is exactly the frames of state triples `held`,
 * each in the same document. */
function sameFrames(frames, held) {
  return !!frames && frames.length === held.length && frames.every((f) => held.some(([frameId, doc]) => frameId === f.frameId && doc === f.documentId));
}

/** Adds document `doc` to set `kept` (silent or error pages), bounded. */
function keepDoc(kept, doc) {
  if (kept.size >= limits.silentFramesKept) kept.clear();
  kept.add(doc);
}

/**
 * Every frame's tracker answer in one injection (`allFrames`), by frame and document id, or
 * null when the call fails or is late (a frame that never answers holds it: the frames are
 * then asked one by one, and the silent one is remembered). Frames the browser does not list
 * (a `javascript:` URL frame's first document, a frame whose navigation is pending) answer
 * too, and are not asked for.
 */
async function allAnswers(tabId) {
  const answers = await answerOf(inject(tabId, 'all', trackerState, [limits.trackerOffsetElements]).catch(() => null));
  // (null: the frame has no tracker; undefined: its tracker failed to answer.)
  return answers && answers !== LATE ? new Map(answers.map((r) => [`${r.frameId}:${r.documentId}`, typeof r.result === 'string' || r.result === null ? r.result : undefined])) : null;
}

/** Whether a frame document of tab `tabId` is known to stay silent. */
const silentIn = (tabId) => [...silent].some((d) => d.startsWith(`${tabId}:`));

/**
 * The tracker checks of the documents of tab `tabId`'s newest page state, sent through their
 * ports (pageState's first way; also sent as a call begins: tools/observe.js askEarly):
 * `{tabId, held, live, got}` (`held`: that state's frames; `live`: those but error pages;
 * `got`: a promise of each one's answer, in order), or null when there is nothing to ask (no
 * state taken of the tab, or a frame of it known to stay silent: the tab is then asked at once
 * by injection).
 */
export function askHeld(tabId) {
  const held = silentIn(tabId) ? null : latest.get(tabId)?.frames;
  if (held?.[0]?.[0] !== 0) return null;
  const live = held.filter(([, , a]) => a !== 'error page');
  // (A tab of one frame: its document's answer, when new, brings its form-field facts.)
  const args = ([, , answer]) => (held.length === 1 ? [limits.trackerOffsetElements, answer, factArgs()] : [limits.trackerOffsetElements]);
  return { tabId, held, live, got: live.map((f) => answerOf(askDocument(tabId, f[1], 'check', args(f)))) };
}

/**
 * The page state of a tab now, or null when it cannot be proved: one tracker answer per
 * frame the browser lists, with its document id. The documents of the tab's newest state are
 * asked through their ports; when that cannot prove the state (a document gone or added, a
 * frame not reached), all frames are asked in one injection; a frame it did not reach (an
 * error page, a frame that came meanwhile) or a tab with a frame known to stay silent is asked
 * on its own, each within the core's frameAnswerMs. `{state, frames, reached}`: `frames` as
 * listed but error pages (nothing there to walk), `reached` when every one of them answered
 * at once (through its port or in that injection), and `facts`: the form-field facts of this
 * state when the tab's one document answered anew through its port.
 */
export async function pageState(tab, early = null) {
  // The documents of the tab's newest state are asked through their ports (read/ports.js)
  // while the frames are listed (or were asked already: askHeld): every one still there (a
  // frame that navigates closes its port), answering, the same documents listed (error pages,
  // static, keep theirs), their answers are the tab's page state. A tab of one frame needs no
  // listing: its document without child frames is the page (a frame comes with a node of its
  // document: a new answer). Else the frames are listed (that listing, when there is one) and
  // asked by injection, as below.
  const asked = early?.tabId === tab.id ? early : askHeld(tab.id);
  let listing = null;
  if (asked) {
    const { held, live } = asked;
    if (held.length > 1) listing = chrome.webNavigation.getAllFrames({ tabId: tab.id }).catch(() => null);
    const got = await Promise.all(asked.got);
    // A document that kept the read waiting is not asked again (as frameState remembers it):
    // this read captures.
    const late = live.filter((_, i) => got[i] === LATE);
    if (late.length) {
      for (const [frameId, doc] of late) keepDoc(silent, docKey(tab.id, frameId, doc));
      return null;
    }
    // (`got` answers `live`, in order: the held frames but error pages.)
    let k = 0;
    const now = held.map(([frameId, doc, a]) => [frameId, doc, a === 'error page' ? a : got[k++]?.answer]);
    const listed = held.length === 1 ? got[0]?.frames === 0 : sameFrames(await listing, held);
    if (listed && now.every(([, , a]) => typeof a === 'string')) {
      return { state: stateOf(tab, now), frames: live.map(([frameId, documentId]) => ({ frameId, documentId })), reached: true, facts: got[0]?.facts };
    }
  }
  // Listed and asked at once, unless a frame of this tab is known to stay silent.
  const hasSilent = silentIn(tab.id);
  let [frames, together] = await Promise.all([listing ?? chrome.webNavigation.getAllFrames({ tabId: tab.id }).catch(() => null), hasSilent ? null : allAnswers(tab.id)]);
  if (!frames?.length) return null;
  frames.sort((a, b) => a.frameId - b.frameId);
  // Frames that answered without a tracker (a document that started before the extension
  // did; not one whose tracker failed: injecting it again changes nothing) get theirs (inject.js injectResident), and every frame is asked again in one
  // injection: their first answers are the baseline a read captures after.
  const bare = frames.filter((f) => together?.has(`${f.frameId}:${f.documentId}`) && together.get(`${f.frameId}:${f.documentId}`) === null);
  if (bare.length && (await answerOf(injectResident(tab.id, bare.map((f) => f.frameId)))) !== LATE) together = await allAnswers(tab.id);
  // A frame without a string answer there is asked on its own: that ask also tells an error
  // page (nothing changes there but its document) from a frame with no tracker.
  const answers = await Promise.all(frames.map((f) => together?.get(`${f.frameId}:${f.documentId}`) ?? frameState(tab.id, f)));
  if (answers.some((a) => a === null)) return null;
  // Walkable in one injection: every frame but error pages answered in that injection.
  const reached = frames.every((f, i) => answers[i] === 'error page' || typeof together?.get(`${f.frameId}:${f.documentId}`) === 'string');
  return { state: stateOf(tab, frames.map((f, i) => [f.frameId, f.documentId, answers[i]])), frames: frames.filter((_, i) => answers[i] !== 'error page'), reached };
}

/** A page state: `text` (the tab's URL, then each frame's `frameId:documentId:answer`), the
 * one thing compared, and `frames` (those triples). The newest state of each tab is kept with
 * when it was taken (`stateSince`). */
function stateOf(tab, frames) {
  const state = { text: `${tab.url}\n${frames.map((f) => f.join(':')).join('|')}`, frames };
  latest.set(tab.id, { text: state.text, frames, at: performance.now() });
  return state;
}

const latest = new Map(); // tabId → {text, frames, at}: the newest page state taken of the tab

/** The text of tab `tabId`'s page state when one was taken at or after `t0` (performance.now()),
 * else null: what is on the page now, as every frame's tracker answered (field values too). */
export function stateSince(tabId, t0) {
  const s = latest.get(tabId);
  return s && s.at >= t0 ? s.text : null;
}

/** The page state of a tab with one frame, from that frame's document and answer (the
 * form pageState gives it). */
export function oneFrameState(tab, documentId, answer) {
  return stateOf(tab, [[0, documentId, answer]]);
}

/** Frame 0's `[documentId, answer]` in the state taken before the key's last read, when that
 * tab had one frame. */
export function heldMain(key) {
  const frames = states.get(key)?.state.frames;
  return frames?.length === 1 && frames[0][0] === 0 ? [frames[0][1], frames[0][2]] : null;
}

/** The number of frames in the state taken before the key's last read (0: none held). */
export function heldFrames(key) {
  return states.get(key)?.state.frames.length ?? 0;
}

/**
 * The walk id of the key's last read (walked in one injection: the same id in every frame) when
 * it walked the frames listed now (`frames`, error pages left out), each in the same document:
 * its frames may then answer that they show what that walk showed (domwalk.js sameWalk). Null
 * otherwise.
 */
export function heldWalk(key, frames) {
  const h = states.get(key);
  if (!h?.held.walkId) return null;
  const walked = h.state.frames.filter((f) => f[2] !== 'error page').map((f) => `${f[0]}:${f[1]}`);
  const now = frames.map((f) => `${f.frameId}:${f.documentId}`);
  return walked.length === now.length && walked.every((f, i) => f === now[i]) ? h.held.walkId : null;
}

/**
 * The main frame's answer in the state taken before the key's last read, when the page now
 * (`state`) differs from it in that answer only: the same frames, each in the same document,
 * every child frame answering as it did. An AX read may then fetch only what changed in the
 * main frame since (tools/observe.js patchedRead). Null otherwise.
 */
export function patchable(key, state) {
  const was = states.get(key)?.state.frames;
  const now = state?.frames;
  if (!was || !now || was.length !== now.length) return null;
  const same = now.every((f, i) => f[0] === was[i][0] && f[1] === was[i][1] && (f[0] === 0 || f[2] === was[i][2]));
  return same && now[0][0] === 0 && now[0][2] !== was[0][2] ? was[0][2] : null;
}

/** What the key's last read gave (its every frame showed the same again: heldWalk). */
export function heldRead(key) {
  return states.get(key)?.held;
}

/** What the key's last read gave, if the page is unchanged since the state taken before it. */
export function heldSince(key, state) {
  const h = state && states.get(key);
  return h && h.state.text === state.text ? h.held : undefined;
}

/** Remembers the state taken before a read and what it gave (a null state forgets). */
export function remember(key, state, held) {
  states.delete(key);
  if (!state || !held) return;
  states.set(key, { state, held });
  if (states.size > limits.readKeysKept) states.delete(states.keys().next().value);
}
