// Tab handles: tabId, browserId, windowId, tabFence (changes when Chrome replaces
// the tab) and the document incarnation (the main frame's loaderId: new on every
// navigation and reload). Also the gate for pages no extension may read.
import { fail } from './errors.js';
import { documentId } from '../read/walker.js';
import { isCrashed, loaderIdOf } from '../read/debugger.js';
import { openDialog } from '../act/dialogs.js';
import { limits } from './limits.js';
import { currentTab, ownerOf, sessionOf } from './ownership.js';

async function currentDocumentId(tabId) {
  try {
    const [res] = await chrome.scripting.executeScript({ target: { tabId }, func: documentId });
    return res?.result;
  } catch {
    return undefined;
  }
}

let browserIdPromise;
/** One stable id per browser profile, created on first use. */
export function browserId() {
  browserIdPromise ??= chrome.storage.local.get('browserId').then(async ({ browserId: id }) => {
    if (id) return id;
    const fresh = `chrome:${crypto.randomUUID()}`;
    await chrome.storage.local.set({ browserId: fresh });
    return fresh;
  });
  return browserIdPromise;
}

/**
 * This extension runtime: new when the browser session starts, kept in chrome.storage.session
 * with the tab fences, so a restarted worker (Chrome stops it when idle, on memory pressure,
 * after a crash) goes on with the same handles, snapshot ids and, restored by core.js, refs.
 * Set once `runtimeLoaded` resolves (core.js's `ready` waits for it).
 */
export let runtimeId;
const RUNTIME_KEY = 'pcc.runtime';
const fences = new Map(); // tabId → fence
let fenceCounter = 0;
export const runtimeLoaded = chrome.storage.session.get(RUNTIME_KEY).then(({ [RUNTIME_KEY]: r }) => r, () => null).then((r) => {
  if (r && typeof r.id === 'string' && Number.isInteger(r.counter)) {
    runtimeId = r.id;
    fenceCounter = r.counter;
    for (const [k, v] of Object.entries(r.fences ?? {})) if (!fences.has(Number(k))) fences.set(Number(k), v);
  } else {
    runtimeId = crypto.randomUUID().replace(/-/g, '').slice(0, 6);
    saveRuntime();
  }
});
function saveRuntime() {
  chrome.storage.session.set({ [RUNTIME_KEY]: { id: runtimeId, counter: fenceCounter, fences: Object.fromEntries(fences) } }).catch(() => {});
}

export function tabFence(tabId) {
  // Unique within the runtime (the tab id is the handle's own field): a model echoes it.
  if (!fences.has(tabId)) {
    fences.set(tabId, `${runtimeId}.${++fenceCounter}`);
    saveRuntime();
  }
  return fences.get(tabId);
}
/** The handle of a tab whose document is proved to be the one `h` was taken on (the change
 * tracker's state names every frame's document): `h` with the tab's window and fence now. */
export function sameDocumentHandle(tab, h) {
  return { ...h, windowId: tab.windowId, tabFence: tabFence(tab.id) };
}
/** A replaced tab (background.js's one tabs.onReplaced listener calls every module's). */
export function replacedTab(added, removed) {
  fences.delete(removed);
  fences.delete(added); // the replacement gets a fresh fence on first use
  saveRuntime();
}

const RESTRICTED = [/^chrome:/, /^chrome-extension:/, /^chrome-untrusted:/, /^devtools:/, /^edge:/, /^about:(?!blank|srcdoc)/,
  /^view-source:/, /^https:\/\/chromewebstore\.google\.com\//, /^https:\/\/chrome\.google\.com\/webstore/];

/** Per call (its params object): the tab its consent check just looked up (background.js), for
 * the tool's own first lookup, so that a call looks its tab up once where it would twice. */
const callTabs = new WeakMap();
export function noteCallTab(params, tab) {
  if (tab) callTabs.set(params, tab);
}

/** Per call (its params object): the agent session it belongs to (`''`: none). */
const callSessions = new WeakMap();
export function noteCallSession(params, session) {
  callSessions.set(params, session);
}
/** The agent session of the call whose params these are (`''` when it names none). */
export const callSession = (params) => callSessions.get(params) ?? '';

/**
 * The tab a call of agent session `session` without a tabId addresses: its current tab; else
 * the shown tab of the last focused window, unless that is another session's (a call without
 * tabId never reaches another agent's tab: BROWSER_TARGET_MISMATCH). Undefined when there is
 * neither (the tool says what is wrong).
 */
export async function defaultTab(session) {
  // (An agent tab is released when it closes: the current one is open. The call's consent
  // check looks it up anyway, where a tab gone meanwhile says so.)
  const current = await currentTab(session);
  if (current !== undefined) return current;
  const [shown] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (!shown) return undefined;
  const theirs = await sessionOf(shown.id);
  if (theirs !== session && (await ownerOf(shown.id))) {
    fail('BROWSER_TARGET_MISMATCH', `the shown tab ${shown.id} is another agent session's`, 'open a tab of your own with browser_tab_open, or pass the tabId of one of yours (browser_tabs: mine)');
  }
  return shown.id;
}

/** The tab the call's consent check looked up, if it did (left for the tool's own lookup). */
export const notedCallTab = (params) => callTabs.get(params);

/** The tab of `params.tabId` (or the agent's current tab): the one the call's consent check
 * looked up, the first time it is asked for; else asked of the browser. */
export async function callTab(params) {
  const known = callTabs.get(params);
  callTabs.delete(params);
  return known ?? resolveTab(params.tabId);
}

export async function resolveTab(tabId) {
  if (tabId !== undefined && tabId !== null) {
    if (!Number.isInteger(tabId)) fail('INVALID_REQUEST', 'tabId must be an integer');
    try {
      return await chrome.tabs.get(tabId);
    } catch {
      fail('BROWSER_TARGET_MISMATCH', `no tab ${tabId}`, 'list tabs with browser_tabs and use a current tab id');
    }
  }
  // No tabId: the agent's current tab (the last it opened, selected or claimed) while it is
  // open; else the active tab of the last focused window.
  const current = await currentTab();
  const tab = (current !== undefined && await chrome.tabs.get(current).catch(() => null)) || (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0];
  if (!tab) fail('BROWSER_TARGET_MISMATCH', 'no active tab', 'open a tab or pass tabId');
  return tab;
}

/** Refuses a tab that shows a page no extension may read (a browser page) and, unless
 * `crashedOk` (a navigation: what brings a crashed tab back), one whose renderer crashed. */
export function assertReadable(tab, crashedOk = false) {
  const url = tab.pendingUrl || tab.url || '';
  if (RESTRICTED.some((r) => r.test(url))) {
    fail('BROWSER_PAGE_UNAVAILABLE', `tab ${tab.id} shows a page the browser does not let extensions read`);
  }
  if (!crashedOk && isCrashed(tab.id)) fail('BROWSER_PAGE_UNAVAILABLE', `tab ${tab.id} crashed`, 'reload it with browser_navigate, or open a new tab');
}


/** The last incarnation read per tab (for a handle while a dialog blocks the page). */
const lastIncarnation = new Map();
/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  if (fences.delete(tabId)) saveRuntime();
  lastIncarnation.delete(tabId);
}

/**
 * The current handle of a tab. `incarnation` is the main frame's loaderId when the debugger
 * is available (`loaderId` when the caller has just read it), else the content script's
 * per-document id (`dom:…`).
 */
export async function handleOf(tab, mainSession, domDocumentId, loaderId) {
  let incarnation;
  if (mainSession && openDialog(tab.id)) {
    // A dialog blocks the page and CDP's page calls with it: the document is the one the
    // dialog belongs to, whose handle was taken before it opened.
    incarnation = lastIncarnation.get(tab.id);
  } else if (mainSession) {
    incarnation = loaderId ?? await loaderIdOf(mainSession);
    lastIncarnation.set(tab.id, incarnation);
  } else {
    incarnation = domDocumentId ?? await currentDocumentId(tab.id);
  }
  const h = { tabId: tab.id, browserId: await browserId(), windowId: tab.windowId, tabFence: tabFence(tab.id) };
  // 16 characters of a random token (64 bits for a loaderId) tell one document of a tab from
  // the next; the model echoes it, so it is no longer than that.
  if (incarnation) h.incarnation = incarnation.slice(0, limits.incarnationChars);
  return h;
}
