// Tab ownership: tabs the agent opened are its own; a user's tab must be claimed
// explicitly before any side effect, and side effects on a claimed tab carry its handle.
// Reads work on the agent's and claimed tabs and on the person's tabs consent.js lets it
// read; a tab an agent tab's page opens is the agent's too (`openedBy`).
// Kept in chrome.storage.session so an evicted worker remembers what it owns.
import { agentTabsChanged } from './consent.js';
import { fail } from './errors.js';
import { limits } from './limits.js';

const KEY = 'pcc.ownership';
let owned; // Map tabId → 'agent' | 'claimed'

async function load() {
  if (!owned) {
    const { [KEY]: saved } = await chrome.storage.session.get(KEY);
    owned = new Map(Object.entries(saved || {}).map(([k, v]) => [Number(k), v]));
  }
  return owned;
}

async function save() {
  await chrome.storage.session.set({ [KEY]: Object.fromEntries(owned) });
}

export async function markOwned(tabId, how) {
  (await load()).set(tabId, how);
  await save();
  agentTabsChanged();
}

export async function release(tabId) {
  (await load()).delete(tabId);
  await save();
  agentTabsChanged();
}

export async function ownerOf(tabId) {
  return (await load()).get(tabId);
}

/**
 * What the agent said about its tabs: `as` (`handoff`: handed to the user, e.g. a login;
 * `deliverable`: a page it delivers), the agent `session` that opened it, and the agent tab
 * whose page opened it (`opener`). Cleanup keeps marked tabs.
 */
const MARKS_KEY = 'pcc.tabMarks';
let marks; // Map tabId → {as?, session?}

async function loadMarks() {
  if (!marks) {
    const { [MARKS_KEY]: saved } = await chrome.storage.session.get(MARKS_KEY);
    marks = new Map(Object.entries(saved || {}).map(([k, v]) => [Number(k), v]));
  }
  return marks;
}

/** Merges `fields` into a tab's marks (`as: undefined` removes the mark). */
export async function markTab(tabId, fields) {
  const m = await loadMarks();
  const next = { ...m.get(tabId), ...fields };
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  if (Object.keys(next).length) m.set(tabId, next);
  else m.delete(tabId);
  await chrome.storage.session.set({ [MARKS_KEY]: Object.fromEntries(m) });
}

/** Every owned tab with its owner and marks: `[{tabId, owner, as?, session?}]`. */
export async function ownedTabs() {
  const [o, m] = [await load(), await loadMarks()];
  return [...o].map(([tabId, owner]) => ({ tabId, owner, ...m.get(tabId) }));
}

/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  void release(tabId);
  void markTab(tabId, { as: undefined, session: undefined });
}

/** A replaced tab keeps its ownership: the handle's fence tells the agent it changed. */
export function replacedTab(added, removed) {
  void load().then(async (m) => { if (m.has(removed)) { m.set(added, m.get(removed)); m.delete(removed); await save(); agentTabsChanged(); } });
}

/** Tabs pages of agent tabs opened lately: `{from, tabId, at}` (the newest last), for the
 * action that opened them (`openedSince`). */
const opened = [];

/**
 * A tab a page opened (`target=_blank`, `window.open`: webNavigation's
 * onCreatedNavigationTarget). Opened by an agent tab, it is the agent's too: same session,
 * its opener remembered (browser_tabs shows it), and the action that opened it says so.
 */
export async function openedBy(from, tabId) {
  if ((await ownerOf(from)) !== 'agent') return false;
  opened.push({ from, tabId, at: Date.now() });
  if (opened.length > limits.openedTabsKept) opened.shift();
  const session = (await loadMarks()).get(from)?.session;
  await markOwned(tabId, 'agent');
  await markTab(tabId, { opener: from, ...(session ? { session } : {}) });
  return true;
}

/** The tabs that tab `from`'s pages opened since `since` (Date.now() ms). */
export function openedSince(from, since) {
  return opened.filter((o) => o.from === from && o.at >= since).map((o) => o.tabId);
}

/** Side effects need an agent tab, or a claimed tab and a handle with its current fence. */
export async function assertMayAct(tab, params, currentHandle) {
  const how = await ownerOf(tab.id);
  if (!how) {
    fail('BROWSER_TAB_NOT_OWNED', `tab ${tab.id} is the user's tab`, 'open a tab with browser_tab_open, or claim this one with browser_claim_tab and pass its handle');
  }
  if (how === 'claimed') {
    const h = params.handle;
    if (!h || h.tabFence !== currentHandle.tabFence || (h.tabId !== undefined && h.tabId !== tab.id)) {
      fail('BROWSER_TARGET_MISMATCH', `side effects on claimed tab ${tab.id} need its current handle`, 'pass handle from browser_claim_tab or the latest snapshot');
    }
  }
}

/**
 * Each agent session's current tab: the last one it opened, selected or claimed
 * (`setCurrent`). A session is one client of the Bridge (an MCP connection, a pi session, a
 * DSH agent, a CLI's PCC_SESSION); `''` is the calls that name none. A call without tabId
 * addresses its session's current tab while it is open (handles.js defaultTab); the agent's
 * tabs may live in a window of their own that the person never focuses.
 */
const CURRENT_KEY = 'pcc.currentTabs';
// (Kept in memory too: only this module writes it, and every call without a tabId reads it.
// The stored copy is for the next worker life.)
let current; // a promise of the stored {session: tabId}, once asked
function currents() {
  if (!current) {
    // (A read that fails is not kept: the next call asks again.)
    const asked = chrome.storage.session.get(CURRENT_KEY).then((r) => r[CURRENT_KEY] ?? {}, () => { if (current === asked) current = undefined; return {}; });
    current = asked;
  }
  return current;
}
export async function setCurrent(tabId, session = '') {
  const all = { ...(await currents()), [session]: tabId };
  current = Promise.resolve(all);
  await chrome.storage.session.set({ [CURRENT_KEY]: all });
}
export async function currentTab(session = '') {
  const id = (await currents())[session];
  return Number.isInteger(id) && (await ownerOf(id)) ? id : undefined;
}

/** The agent session that opened or claimed tab `tabId` (`''`: none, or the person's tab). */
export async function sessionOf(tabId) {
  return (await loadMarks()).get(tabId)?.session ?? '';
}

/**
 * The window the agent's new tabs open in while the person uses a window of theirs: one of
 * its own, made unfocused, so the person keeps their tab and focus and the agent's tab is the
 * active, painting tab of its window (a background tab paints no frame of its own:
 * debugger.js whilePainting). A pointer press there would give that window the OS focus:
 * act/focus.js shows another tab of the window for the press (its placeholder, PLACEHOLDER,
 * made with the window). Its id; `null` when a window is in use and the agent has
 * none yet (the caller makes one); `undefined` when no window is in use (the tab then opens in
 * the last focused window).
 */
const WINDOW_KEY = 'pcc.agentWindow';
export const PLACEHOLDER = 'ui/agent-window.html';
export async function agentWindow() {
  const inUse = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).then((w) => w.focused, () => false);
  const { [WINDOW_KEY]: id } = await chrome.storage.session.get(WINDOW_KEY);
  const open = Number.isInteger(id) && (await chrome.windows.get(id).catch(() => null));
  if (open && open.type === 'normal') return open.id;
  return inUse ? null : undefined;
}
/** The agent's window once its last agent tab closed: its placeholder closed too (the window
 * goes; a page the person opens later never lands in it). */
export async function agentTabClosed(windowId) {
  if (!(await isAgentWindow(windowId))) return;
  const left = await chrome.tabs.query({ windowId }).catch(() => []);
  const placeholder = chrome.runtime.getURL(PLACEHOLDER);
  if (left.length && left.every((t) => t.url === placeholder)) await chrome.tabs.remove(left.map((t) => t.id)).catch(() => {});
}

/** Is window `windowId` the agent's own? */
export async function isAgentWindow(windowId) {
  return (await chrome.storage.session.get(WINDOW_KEY))[WINDOW_KEY] === windowId;
}
export async function setAgentWindow(windowId) {
  await chrome.storage.session.set({ [WINDOW_KEY]: windowId });
}

/** The person's window: the last focused normal window that is not the agent's own (a
 * window the agent's tab focused since counts as the agent's). */
export async function personWindow() {
  const { [WINDOW_KEY]: agents } = await chrome.storage.session.get(WINDOW_KEY);
  const last = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).catch(() => null);
  if (last && last.id !== agents) return last.id;
  const other = (await chrome.windows.getAll({ windowTypes: ['normal'] })).find((w) => w.id !== agents);
  return other?.id ?? last?.id;
}
