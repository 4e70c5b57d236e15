// chrome.debugger, wrapped once: attach on demand, keep one attachment per tab, follow
// out-of-process iframes (flattened child sessions) and forget everything on detach.
// Every call returns a promise; CDP failures become rejections with the CDP message.
import { limits } from '../services/limits.js';
import { ownerOf } from '../services/ownership.js';

const tabs = new Map(); // tabId → { children: Map<sessionId, {frameId, parentSession}>, attaching }

/** No CDP command may hang a tool: past this, it rejects (the caller decides what it means). */

function send(target, method, params = {}, again = false) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method} timed out`)), limits.commandTimeoutMs);
    chrome.debugger.sendCommand(target, method, params, (result) => {
      clearTimeout(timer);
      const err = chrome.runtime.lastError;
      if (err) reject(new Error(err.message));
      else resolve(result || {});
    });
  }).catch(async (e) => {
    // The tab's attachment ended without an onDetach this worker heard (the person's Cancel on
    // the debugger's infobar while the worker slept, a detach of this extension's own): the
    // command was never delivered, so it is sent again once, on a new attachment.
    if (again || target.sessionId || !/not attached/i.test(e.message)) throw e;
    dropped(target.tabId);
    await attach(target.tabId);
    return send(target, method, params, true);
  });
}

/** Whether a Page event says a frame starts loading a new document (not a link that opens
 * another tab, not a same-document navigation: neither commits a document here). */
function startsDocument(method, params) {
  if (method === 'Page.frameStartedLoading') return true;
  if (method === 'Page.frameRequestedNavigation') return params.disposition === 'currentTab';
  if (method === 'Page.frameStartedNavigating') return !/sameDocument/i.test(params.navigationType ?? '');
  return false;
}

/** Everything known of a tab's attachment, forgotten (it ended). */
function dropped(tabId) {
  tabs.delete(tabId);
  for (const key of [...runtimeOn, ...worlds.keys()]) if (key.startsWith(`${tabId}/`)) forget(key);
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  const st = tabs.get(source.tabId);
  if (!st) return;
  st.lastEvent = performance.now();
  if (method === 'Target.attachedToTarget' && params.targetInfo?.type === 'iframe') {
    st.children.set(params.sessionId, { frameId: params.targetInfo.targetId, parentSession: source.sessionId || '' });
    // Nested out-of-process frames attach through their parent's session.
    const child = { tabId: source.tabId, sessionId: params.sessionId };
    send(child, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }).catch(() => {});
  } else if (method === 'Target.detachedFromTarget') {
    st.children.delete(params.sessionId);
    forget(`${source.tabId}/${params.sessionId}`);
  } else if (method.startsWith('Runtime.execution')) {
    trackWorld(`${source.tabId}/${source.sessionId || ''}`, method, params);
  } else if (!source.sessionId && startsDocument(method, params)) {
    if (params.frameId === st.mainFrame) st.nav = { started: Date.now() };
  } else if (!source.sessionId && method === 'Page.frameNavigated' && !params.frame?.parentId) {
    st.mainFrame = params.frame.id;
    if (st.nav) st.nav.committed = Date.now();
  } else if (!source.sessionId && method === 'Page.frameStoppedLoading' && params.frameId === st.mainFrame) {
    if (st.nav) st.nav.stopped = Date.now();
  } else if (method === 'Page.screencastFrame' && !source.sessionId) {
    send({ tabId: source.tabId }, 'Page.screencastFrameAck', { sessionId: params.sessionId }).catch(() => {}); // whilePainting's frames
  } else if (method === 'Inspector.targetCrashed' && !source.sessionId) {
    crashedTab(source.tabId, true);
  } else if (method === 'Inspector.targetReloadedAfterCrash' && !source.sessionId) {
    crashedTab(source.tabId, false);
  }
});

/** Tabs whose renderer crashed (sad tab): nothing there answers until a new document loads. */
const crashed = new Set();
// (Listened to only while a tab is known crashed: every frame of every page the person
// loads commits a document, and each event would wake the worker — issue #37 item 5.)
const committed = (d) => d.frameId === 0 && crashedTab(d.tabId, false);
/** Tab `tabId` crashed, or shows a document again. */
function crashedTab(tabId, isCrashed) {
  if (isCrashed) crashed.add(tabId);
  else crashed.delete(tabId);
  const listening = chrome.webNavigation.onCommitted.hasListener(committed);
  if (crashed.size && !listening) chrome.webNavigation.onCommitted.addListener(committed);
  else if (!crashed.size && listening) chrome.webNavigation.onCommitted.removeListener(committed);
}
/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  crashedTab(tabId, false);
}

export function isCrashed(tabId) {
  return crashed.has(tabId);
}

chrome.debugger.onDetach.addListener((source) => dropped(source.tabId));

// This extension's own isolated world in each frame (where memory.js runs), by session
// (`tabId/sessionId`): CDP reports it once Runtime is enabled. A page cannot create a
// context with this origin.
const OWN_ORIGIN = `chrome-extension://${chrome.runtime.id}`;
const worlds = new Map(); // session key → Set<executionContextId>
/** Session keys whose Runtime domain this worker life enabled. */
const runtimeOn = new Set();

function trackWorld(key, method, params) {
  if (method === 'Runtime.executionContextCreated') {
    const c = params.context;
    if (c?.origin !== OWN_ORIGIN || c.auxData?.type !== 'isolated') return;
    if (!worlds.has(key)) worlds.set(key, new Set());
    worlds.get(key).add(c.id);
  } else if (method === 'Runtime.executionContextDestroyed') {
    worlds.get(key)?.delete(params.executionContextId);
  } else if (method === 'Runtime.executionContextsCleared') {
    worlds.delete(key);
  }
}

function forget(key) {
  worlds.delete(key);
  runtimeOn.delete(key);
}

/**
 * Enables Runtime on one session of a tab, once per worker life (or again with `replay`):
 * disabled first, so that enabling replays the existing contexts and console messages even
 * when an earlier worker life left it enabled.
 */
export async function enableRuntime(tabId, target, replay = false) {
  const key = `${tabId}/${target.session}`;
  if (runtimeOn.has(key) && !replay) return;
  await target.send('Runtime.disable').catch(() => {});
  await target.send('Runtime.enable');
  runtimeOn.add(key);
}

/** The object ids of the items of a page-side array (`objectId`: the array's), in order;
 * items that are not objects are left out. */
export async function arrayObjects(target, objectId) {
  const { result } = await target.send('Runtime.getProperties', { objectId, ownProperties: true });
  return result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value.objectId);
}

/** The execution contexts of this extension's isolated world in a session (Runtime enabled). */
export function ownWorlds(tabId, target) {
  return [...(worlds.get(`${tabId}/${target.session}`) ?? [])];
}

async function attach(tabId) {
  let st = tabs.get(tabId);
  if (st) return st.attaching;
  st = { children: new Map() };
  tabs.set(tabId, st);
  // The tab's own target, attached and set up (`mainSession` needs no more).
  st.attached = (async () => {
    await new Promise((resolve, reject) => {
      chrome.debugger.attach({ tabId }, '1.3', () => {
        const err = chrome.runtime.lastError;
        // Already attached by us in an earlier worker life: that is fine.
        if (err && !/already attached/i.test(err.message)) reject(new Error(err.message));
        else resolve();
      });
    });
    // (Sent once: an attachment that ends while it is being set up fails the attach, never
    // makes another one from here.)
    await send({ tabId }, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, true);
    await send({ tabId }, 'Inspector.enable', {}, true).catch(() => {}); // Inspector.targetCrashed
    await send({ tabId }, 'Page.enable', {}, true).catch(() => {}); // Page.javascriptDialogOpening (dialogs.js), navigations
    st.mainFrame = (await send({ tabId }, 'Page.getFrameTree', {}, true).catch(() => null))?.frameTree?.frame?.id;
  })();
  st.attaching = (async () => {
    await st.attached;
    // Existing iframes report their attachment right after setAutoAttach: wait until the
    // events have been quiet for a moment (budget.rs ATTACH_QUIET_MS, ATTACH_SETTLE_MAX_MS).
    const start = performance.now();
    st.lastEvent = start;
    while (performance.now() - st.lastEvent < limits.attachQuietMs && performance.now() - start < limits.attachSettleMaxMs) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return st;
  })();
  try {
    return await st.attaching;
  } catch (e) {
    tabs.delete(tabId);
    throw e;
  }
}

/**
 * The agent's tabs (its own and claimed ones) behave as the focused, visible page while the
 * debugger is attached (CDP focus emulation): `document.hasFocus()`, focus styles and menus
 * that close on blur work as in the person's focused window, although the OS focus stays
 * with the person, and the moment act/focus.js shows another tab of its window during a press
 * is no blur or visibility change to the page. The person's tabs keep their own focus and
 * visibility (a chat that marks what the person sees as read must not be told they see it).
 */
function emulateFocus(tabId, st) {
  // (A tab whose window shows another tab for a moment, while a press lands on it: act/focus.js.)
  st.focus ??= ownerOf(tabId).then((owner) => {
    if (!owner) { st.focus = undefined; return false; }
    return send({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).then(() => true, () => false);
  });
  return st.focus;
}

/**
 * `fn()` while tab `tab` (a chrome.tabs.Tab the call looked up) paints frames. A tab that is not the shown tab of the focused
 * window (a background tab, a minimized or covered window) paints none of its own: a click
 * there waited ~5 s for the frame its mouse move is aligned to, a screenshot timed out, and
 * rAF, animations and the settle wait stood still. A screencast of 8×8 frames (each frame
 * acknowledged as it comes) makes its compositor produce them as a shown tab's does, for as
 * long as `fn` runs; a shown tab needs none. Without the debugger, `fn()` alone.
 */
export async function whilePainting(tab, fn) {
  const tabId = tab.id;
  let st;
  try {
    st = await attach(tabId);
  } catch {
    return fn();
  }
  const win = tab.active ? await chrome.windows.get(tab.windowId).catch(() => null) : null;
  if (win?.focused && win.state !== 'minimized') return fn();
  st.painting = (st.painting ?? 0) + 1;
  if (st.painting === 1) await send({ tabId }, 'Page.startScreencast', { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8 }).catch(() => {});
  try {
    return await fn();
  } finally {
    if (--st.painting === 0 && tabs.get(tabId) === st) send({ tabId }, 'Page.stopScreencast').catch(() => {});
  }
}

/**
 * The debugger sessions of a tab: the tab's own target first, then each OOPIF. With a call's
 * `signal`, a command after the call was abandoned (its deadline passed) is never sent: it
 * rejects with the signal's reason, so abandoned work stops at its next command.
 */
export async function sessions(tabId, signal) {
  signal?.throwIfAborted();
  const st = await attach(tabId);
  await emulateFocus(tabId, st);
  const children = [...st.children].map(([sessionId, c]) => ({
    session: sessionId,
    frameId: c.frameId,
    parentSession: c.parentSession,
    send: sender({ tabId, sessionId }, signal),
  }));
  return [{ session: '', send: sender({ tabId }, signal) }, ...children];
}

/** `send` to one target, refused once `signal` (a call's) has aborted. */
const sender = (target, signal) => (m, p) => (signal?.aborted ? Promise.reject(signal.reason) : send(target, m, p));

/**
 * The tab's own debugger session alone (`sessions(tabId)[0]`), as soon as it is attached:
 * without waiting for its out-of-process iframes to report themselves (a first read of the
 * DOM walk needs only the document's loaderId; the wait goes on for the next `sessions`).
 */
export async function mainSession(tabId, signal) {
  signal?.throwIfAborted();
  attach(tabId).catch(() => {}); // (a failure is `attached`'s too, thrown below)
  const st = tabs.get(tabId);
  await st.attached;
  await emulateFocus(tabId, st);
  return { session: '', send: sender({ tabId }, signal) };
}

/** The loaderId of the document a tab's main session shows (`sessions(tabId)[0]`). */
export async function loaderIdOf(main) {
  return (await main.send('Page.getFrameTree')).frameTree.frame.loaderId;
}

/**
 * Whether a main-frame navigation of tab `tabId` started at or after `since` (Date.now() ms)
 * and has neither committed nor stopped (a canceled one, a download). Known while the
 * debugger is attached (Page events).
 */
export function pendingNavigation(tabId, since) {
  const n = tabs.get(tabId)?.nav;
  return !!n && n.started >= since && !((n.committed ?? 0) >= n.started) && !((n.stopped ?? 0) >= n.started);
}

/** The top frame's id, as the attachment follows it (Page.getFrameTree, then its navigations). */
export function mainFrameOf(tabId) {
  return tabs.get(tabId)?.mainFrame;
}

export function isAttached(tabId) {
  return tabs.has(tabId);
}

export async function detach(tabId) {
  tabs.delete(tabId);
  await new Promise((r) => chrome.debugger.detach({ tabId }, () => { void chrome.runtime.lastError; r(); }));
}
