// Tab tools: browser_tabs, browser_selected_tab, browser_select_tab, browser_tab_open,
// browser_tab_close, browser_mark_tab, browser_claim_tab, browser_release_tab,
// browser_cleanup, browser_dispose_session.
// Owns: ownership changes through ownership.js. Must never: close, move or group a user tab.
import { ready } from '../services/core.js';
import { sessions } from '../read/debugger.js';
import { fail } from '../services/errors.js';
import { groupOf, joinGroup } from '../services/groups.js';
import { assertReadable, callSession, handleOf, resolveTab, tabFence } from '../services/handles.js';
import { journal } from '../services/journal.js';
import { assertOrigin, described, listed } from '../services/consent.js';
import { PLACEHOLDER, agentWindow, personWindow, markOwned, markTab, ownedTabs, ownerOf, release, setAgentWindow, setCurrent } from '../services/ownership.js';
import { projectTabs } from '../wasm/pcc.js';
import { tabInfo, tabToAct, timeoutOf } from './common.js';
import { waitLoaded } from './navigate.js';

/**
 * Every tab, each with its owner (`pccOwner`: agent or claimed; the core says `user`
 * otherwise); a claimed tab's row carries the handle its side effects need (its fence).
 */
async function browserTabs(params) {
  const owned = new Map((await ownedTabs()).map((t) => [t.tabId, t]));
  const me = callSession(params);
  // The person's tabs the agent may not read show their site alone, or nothing (consent.js).
  const tabs = (await chrome.tabs.query({}))
    .map((t) => listed(t, owned.get(t.id)?.owner))
    .filter(Boolean)
    .map((t) => {
      const o = owned.get(t.id);
      return o ? { ...t, pccOwner: o.owner, ...(o.opener !== undefined ? { pccOpener: o.opener } : {}), ...(o.session ? { pccSession: o.session, pccMine: o.session === me } : {}) } : t;
    });
  const list = projectTabs(JSON.stringify(tabs));
  for (const row of list.tabs) if (row.owner === 'claimed') row.handle = { tabFence: tabFence(row.id) };
  return list;
}

/** `browser_select_tab`: makes a tab the active one of its window (agent-owned or claimed tabs). */
async function browserSelectTab(params) {
  const tab = await tabToAct(params);
  const now = await chrome.tabs.update(tab.id, { active: true });
  await setCurrent(tab.id, callSession(params));
  await chrome.windows.update(now.windowId, { focused: true }).catch(() => {});
  return { ok: true, tab: tabInfo(now) };
}

async function browserSelectedTab(params) {
  const tab = await resolveTab(params.tabId);
  const shown = described(tab, await ownerOf(tab.id));
  if (shown !== tab) return { tab: tabInfo(shown) };
  let handle;
  try {
    assertReadable(tab);
    handle = await handleOf(tab, (await sessions(tab.id))[0]);
  } catch {
    handle = undefined; // a browser page: described, but not controllable
  }
  return { tab: tabInfo(tab, handle) };
}

async function browserTabOpen(params) {
  let url = 'about:blank';
  if (params.url !== undefined) {
    try {
      url = new URL(params.url).href;
    } catch {
      fail('INVALID_REQUEST', 'url must be an absolute URL');
    }
    assertOrigin(url);
  }
  // Open blank, start console/network collection, then load: the journal sees the page's
  // first request and first log line.
  if (params.sessionId === '') fail('INVALID_REQUEST', 'sessionId must not be empty');
  const group = groupOf(params);
  const tab = await newAgentTab(params.active);
  await markOwned(tab.id, 'agent');
  await setCurrent(tab.id, callSession(params));
  if (params.sessionId) await markTab(tab.id, { session: params.sessionId });
  await joinGroup(tab, group);
  if (url !== 'about:blank') {
    await journal(tab.id).catch(() => {}); // no debugger: the tab still opens
    await chrome.tabs.update(tab.id, { url });
  }
  return waitLoaded(tab, timeoutOf(params));
}

/**
 * A blank tab for the agent. `active` given: in the person's last focused window, focused
 * (true) or in the background (false). Not given: while the person uses a window, the active
 * tab of the agent's own window (ownership.js agentWindow), made unfocused the first time: the
 * person's window, tab and OS focus stay theirs; otherwise active in the last focused window.
 */
async function newAgentTab(active) {
  if (active !== undefined) {
    const windowId = await personWindow();
    return chrome.tabs.create({ url: 'about:blank', active, ...(windowId !== undefined ? { windowId } : {}) });
  }
  const windowId = await agentWindow();
  if (windowId === undefined) return chrome.tabs.create({ url: 'about:blank', active: true });
  if (windowId !== null) {
    // Made in the background, then shown: a tab made active in an unfocused window took the
    // OS focus with it (a headed browser under a window manager); showing one does not.
    // (The window may be closing with its last agent tab: then a new one is made.)
    const made = await chrome.tabs.create({ url: 'about:blank', windowId, active: false }).catch(() => null);
    if (made) return chrome.tabs.update(made.id, { active: true });
  }
  const made = await chrome.windows.create({ url: 'about:blank', focused: false, type: 'normal' });
  await setAgentWindow(made.id);
  const tab = made.tabs?.[0] ?? (await chrome.tabs.query({ windowId: made.id }))[0];
  // Its placeholder, behind the agent's tab: what the window shows while a press lands on
  // that tab (act/focus.js), made now rather than at the first press.
  await chrome.tabs.create({ url: chrome.runtime.getURL(PLACEHOLDER), windowId: made.id, index: 0, active: false }).catch(() => {});
  return tab;
}

async function browserTabClose(params) {
  const tab = await resolveTab(params.tabId);
  if ((await ownerOf(tab.id)) !== 'agent') fail('BROWSER_TAB_NOT_OWNED', `tab ${tab.id} was not opened by the agent`, 'only tabs from browser_tab_open can be closed');
  await chrome.tabs.remove(tab.id);
  await release(tab.id);
  return { ok: true };
}

/** `browser_mark_tab`: an agent-owned or claimed tab marked `handoff` or `deliverable` (or `none`). */
async function browserMarkTab(params) {
  const tab = await tabToAct(params);
  await markTab(tab.id, { as: params.as === 'none' ? undefined : params.as });
  return { ok: true, tab: tabInfo(tab), ...(params.as === 'none' ? {} : { as: params.as }) };
}

/**
 * `browser_cleanup`: closes the agent's own tabs that are not marked, of the session `sessionId`
 * (the caller's own by default: a caller without a session — the CLI without PCC_SESSION —
 * reaches only the tabs opened without one, never another session's unless it names it) and
 * gives claimed tabs back; user, handoff and deliverable tabs stay. `preview: true` only says
 * what it would do.
 */
async function browserCleanup(params) {
  const mine = (await ownedTabs()).filter((t) => (t.session || '') === (params.sessionId || ''));
  const close = mine.filter((t) => t.owner === 'agent' && !t.as).map((t) => t.tabId);
  const giveBack = mine.filter((t) => t.owner === 'claimed' && !t.as).map((t) => t.tabId);
  const kept = mine.filter((t) => t.as).map((t) => ({ id: t.tabId, as: t.as }));
  if (params.preview) return { preview: true, close, release: giveBack, kept };
  for (const id of close) {
    await chrome.tabs.remove(id).catch(() => {}); // already gone: nothing to close
    await release(id);
  }
  for (const id of giveBack) await release(id);
  return { ok: true, closed: close, released: giveBack, kept };
}

async function browserClaimTab(params) {
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  if ((await ownerOf(tab.id)) !== 'agent') await markOwned(tab.id, 'claimed');
  if (callSession(params) && !(await ownedTabs()).find((t) => t.tabId === tab.id)?.session) await markTab(tab.id, { session: callSession(params) });
  await setCurrent(tab.id, callSession(params));
  const all = await sessions(tab.id).catch(() => null);
  return { ok: true, tab: tabInfo(tab, await handleOf(tab, all?.[0])) };
}

async function browserReleaseTab(params) {
  const tab = await resolveTab(params.tabId);
  if ((await ownerOf(tab.id)) === 'claimed') await release(tab.id);
  return { ok: true };
}

async function browserDisposeSession(params) {
  (await ready).collector.disposeSession(params.sessionId);
  return { ok: true };
}

export const tabTools = {
  browser_tabs: browserTabs,
  browser_selected_tab: browserSelectedTab,
  browser_select_tab: browserSelectTab,
  browser_tab_open: browserTabOpen,
  browser_tab_close: browserTabClose,
  browser_mark_tab: browserMarkTab,
  browser_claim_tab: browserClaimTab,
  browser_release_tab: browserReleaseTab,
  browser_cleanup: browserCleanup,
  browser_dispose_session: browserDisposeSession,
};
