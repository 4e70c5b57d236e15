// Consent and the origin policy (issue #39): the agent runs in the person's own, signed-in
// browser, so what it may read beyond its own tabs and where its tabs may go is the person's
// decision, never the model's.
//
// - Reads: the agent's own tabs and the tabs it claimed are always readable. A tab of the
//   person's is readable when `readUserTabs` is `all`, or `granted` (the default) and the
//   person granted that tab (while it stays on the site it was granted on) or its site — from
//   the toolbar popup (popup.js) or the options page. `none`: only the agent's own tabs.
//   Claiming a tab counts as reading it: a claim of a tab that is not readable is refused.
// - Origins: `allowedOrigins` (empty: every origin) and `blockedOrigins` are patterns
//   `[scheme://]host[:port]`; a host names itself and its subdomains (`*.host` says the same).
//   They hold for browser_navigate, browser_tab_open and browser_download, and, through
//   declarativeNetRequest session rules scoped to the agent's own tabs, for every request
//   those tabs make (there a pattern's host counts, not its scheme or port). `file:` is
//   refused unless `allowLocal`; no other scheme but http(s) is ever opened.
//
// The person's choices live in chrome.storage (`pcc.policy` in local storage; tab grants in
// session storage: tab ids die with the browser). The Bridge's configuration (`pcc bridge
// --read-user-tabs … --allow-origin … --block-origin … --allow-local`, for unattended use)
// arrives with its welcome and overrides the fields it sets, for as long as it is linked.
// Owns: the policy, the grants, `assertMayRead`, `assertOrigin`, the request rules, what a
// listing shows of a tab the agent may not read. Must never: take a grant or a policy from a
// tool call (a page could steer the model into granting itself), or let a read through on a
// tab it cannot prove readable.
import { fail } from './errors.js';
import { limits } from './limits.js';

const POLICY_KEY = 'pcc.policy';
const GRANTS_KEY = 'pcc.tabGrants';
export const READ_USER_TABS = ['none', 'granted', 'all'];
const DEFAULTS = { readUserTabs: 'granted', sites: [], allowedOrigins: [], blockedOrigins: [], allowLocal: false };

let person = { ...DEFAULTS }; // the person's policy (storage.local)
let bridge = {}; // the fields the linked Bridge's configuration sets
let grants = new Map(); // tabId → the origin it was granted on
let agentTabs = null; // the worker's: ownership.js's agent-owned tab ids (`startConsent`)

/** The policy in force: the defaults, the person's choices, the Bridge's configuration. */
export function policy() {
  return { ...DEFAULTS, ...person, ...bridge };
}

/** A policy object's known fields, checked (throws on a wrong one). */
export function checkedPolicy(p) {
  const out = {};
  if (p === null || typeof p !== 'object') throw new Error('a policy is an object');
  if (p.readUserTabs !== undefined) {
    if (!READ_USER_TABS.includes(p.readUserTabs)) throw new Error(`readUserTabs is one of ${READ_USER_TABS.join(', ')}`);
    out.readUserTabs = p.readUserTabs;
  }
  for (const k of ['sites', 'allowedOrigins', 'blockedOrigins']) {
    if (p[k] === undefined) continue;
    if (!Array.isArray(p[k]) || p[k].some((s) => parsePattern(s) === null)) throw new Error(`${k} is a list of origin patterns like https://example.com or *.example.com`);
    out[k] = p[k].map(String);
  }
  if (p.allowLocal !== undefined) {
    if (typeof p.allowLocal !== 'boolean') throw new Error('allowLocal is true or false');
    out.allowLocal = p.allowLocal;
  }
  return out;
}

/** `[scheme://]host[:port]` (`*.` before the host says what the host alone says) → its
 * parts, or null. */
export function parsePattern(text) {
  if (typeof text !== 'string') return null;
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(?:\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}))?\/?$/i.exec(text.trim());
  if (!m || !m[2].replace(/\./g, '')) return null;
  return { scheme: m[1]?.toLowerCase() ?? null, host: m[2].toLowerCase().replace(/^\.+|\.+$/g, ''), port: m[3] ?? null };
}

/** Does `url` (a URL object) fall under pattern `p`: its host or a subdomain, and the
 * pattern's scheme and port when it names them? */
function matches(url, p) {
  const host = url.hostname.toLowerCase();
  if (host !== p.host && !host.endsWith(`.${p.host}`)) return false;
  if (p.scheme && url.protocol !== `${p.scheme}:`) return false;
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  return !p.port || p.port === port;
}

const firstMatch = (url, patterns) => patterns.find((s) => {
  const p = parsePattern(s);
  return p && matches(url, p);
});

/**
 * Why the origin policy refuses `href` (a navigation, a new tab, a download), or null when it
 * allows it. `about:blank` is always allowed.
 */
export function originRefusal(href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return 'it is not an absolute URL';
  }
  if (url.href === 'about:blank') return null;
  const p = policy();
  if (url.protocol === 'file:') return p.allowLocal ? null : 'file: URLs are off (the policy\'s allowLocal)';
  const blocked = firstMatch(url, p.blockedOrigins);
  if (blocked) return `${url.origin} is blocked by the origin policy (blockedOrigins: ${blocked})`;
  if (p.allowedOrigins.length && !firstMatch(url, p.allowedOrigins)) return `${url.origin} is not among the origin policy's allowedOrigins`;
  return null;
}

/** Refuses a navigation, new tab or download the policy does not allow
 * (BROWSER_ORIGIN_BLOCKED), or to a scheme no tab opens (INVALID_REQUEST: javascript:,
 * chrome:, data:…). */
export function assertOrigin(href) {
  let scheme = null;
  try {
    scheme = new URL(href).protocol;
  } catch {
    fail('INVALID_REQUEST', 'the URL must be absolute', 'pass e.g. https://example.com/');
  }
  if (!['http:', 'https:', 'file:'].includes(scheme) && href !== 'about:blank') fail('INVALID_REQUEST', `cannot open a ${scheme} URL`, 'use an http(s) URL');
  const why = originRefusal(href);
  if (why) fail('BROWSER_ORIGIN_BLOCKED', `not opened: ${why}`.slice(0, limits.refusalChars));
}

const originOf = (href) => {
  try {
    const u = new URL(href);
    return u.origin === 'null' ? `${u.protocol}` : u.origin;
  } catch {
    return '';
  }
};

/** May the agent read tab `tab` (a chrome.tabs.Tab) whose owner is `owner` (ownership.js)? */
export function mayRead(tab, owner) {
  if (owner === 'agent' || owner === 'claimed') return true;
  const p = policy();
  if (p.readUserTabs === 'all') return true;
  if (p.readUserTabs === 'none') return false;
  const origin = originOf(tab.pendingUrl || tab.url || '');
  if (!origin) return false;
  if (grants.get(tab.id) === origin) return true;
  let url;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return ['http:', 'https:'].includes(url.protocol) && !!firstMatch(url, p.sites);
}

/** Refuses (BROWSER_TAB_NOT_GRANTED) a read or claim of a person's tab they did not grant. */
export function assertMayRead(tab, owner) {
  if (mayRead(tab, owner)) return;
  const none = policy().readUserTabs === 'none';
  fail('BROWSER_TAB_NOT_GRANTED', `tab ${tab.id} is the person's and ${none ? 'the policy lets the agent read none of their tabs' : 'they have not let the agent read it'}`);
}

/** What a listing shows of tab `tab`: unchanged when readable; else the site alone (no title,
 * path or query), marked `pccGranted: false` for the core's projection; null (not listed)
 * when the policy lets the agent read none of the person's tabs. */
export function listed(tab, owner) {
  if (mayRead(tab, owner)) return tab;
  if (policy().readUserTabs === 'none') return null;
  const { title, url, pendingUrl, favIconUrl, ...rest } = tab;
  return { ...rest, url: originOf(pendingUrl || url || ''), pccGranted: false };
}

/** A single tab as a result describes it: `listed`, or its id and window alone where the
 * policy lists none of the person's tabs. */
export function described(tab, owner) {
  return listed(tab, owner) ?? { id: tab.id, windowId: tab.windowId, pccGranted: false };
}

// ---- the person's grants (popup.js, options.js) ----

/** Lets the agent read tab `tabId` while it stays on the site of `href`. */
export async function grantTab(tabId, href) {
  await loaded;
  const origin = originOf(href);
  if (!Number.isInteger(tabId) || !origin) throw new Error('a grant needs a tab id and its URL');
  grants.set(tabId, origin);
  await chrome.storage.session.set({ [GRANTS_KEY]: Object.fromEntries(grants) });
}

/** Takes back the grant of tab `tabId`. */
export async function revokeTab(tabId) {
  await loaded;
  grants.delete(tabId);
  await chrome.storage.session.set({ [GRANTS_KEY]: Object.fromEntries(grants) });
}

/** Is tab `tabId` granted on the site of `href`? */
export function tabGranted(tabId, href) {
  return grants.get(tabId) === originOf(href);
}

/** Stores the person's policy fields `p` (checked), merged into what they set before. */
export async function setPolicy(p) {
  await loaded;
  person = { ...person, ...checkedPolicy(p) };
  await chrome.storage.local.set({ [POLICY_KEY]: person });
  await applyRules();
}

/** The linked Bridge's policy fields (its welcome), or none when it is gone. */
export async function setBridgePolicy(p) {
  await loaded;
  try {
    bridge = p ? checkedPolicy(p) : {};
  } catch {
    bridge = {}; // a Bridge of another version: the person's policy holds
  }
  await applyRules();
}

/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  if (grants.delete(tabId)) void chrome.storage.session.set({ [GRANTS_KEY]: Object.fromEntries(grants) });
}

// ---- the agent tabs' requests (declarativeNetRequest session rules) ----

/** The session rules' ids (declarativeNetRequest's own numbering: not limits). */
const RULE = { blocked: 1, unlisted: 2 };

/**
 * The session rules for the agent's own tabs now: one blocking their requests to the blocked
 * origins' hosts, one blocking every host outside the allowed ones (when the list is not empty).
 * None while the agent has no tab.
 */
async function applyRules() {
  if (!chrome.declarativeNetRequest || !agentTabs) return; // (the popup and options pages: the worker applies)
  const tabIds = await agentTabs();
  const p = policy();
  const hosts = (list) => [...new Set(list.map(parsePattern).filter(Boolean).map((x) => x.host))];
  const addRules = [];
  const resourceTypes = ['main_frame', 'sub_frame', 'stylesheet', 'script', 'image', 'font', 'object', 'xmlhttprequest', 'ping', 'csp_report', 'media', 'websocket', 'webtransport', 'webbundle', 'other'];
  if (tabIds.length && p.blockedOrigins.length) {
    addRules.push({ id: RULE.blocked, priority: 2, action: { type: 'block' }, condition: { tabIds, requestDomains: hosts(p.blockedOrigins), resourceTypes } });
  }
  if (tabIds.length && p.allowedOrigins.length) {
    addRules.push({ id: RULE.unlisted, priority: 1, action: { type: 'block' }, condition: { tabIds, excludedRequestDomains: hosts(p.allowedOrigins), resourceTypes } });
  }
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [RULE.blocked, RULE.unlisted], addRules }).catch(() => {});
}

/** The agent's own tabs changed (ownership.js): the request rules follow them. */
export function agentTabsChanged() {
  void loaded.then(applyRules);
}

let loaded;
/** Loads the stored policy and grants and keeps them current; `owned()`: the agent's tab ids
 * (the worker's; null in the popup and options pages, which leave the rules to it). */
export function startConsent(owned) {
  agentTabs = owned;
  loaded = (async () => {
    const [{ [POLICY_KEY]: saved }, { [GRANTS_KEY]: g }] = await Promise.all([chrome.storage.local.get(POLICY_KEY), chrome.storage.session.get(GRANTS_KEY)]);
    try {
      person = { ...DEFAULTS, ...checkedPolicy(saved ?? {}) };
    } catch {
      person = { ...DEFAULTS };
    }
    grants = new Map(Object.entries(g || {}).map(([k, v]) => [Number(k), v]));
    await applyRules();
  })();
  // The popup and the options page write storage: this worker follows.
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[POLICY_KEY]) {
      try {
        person = { ...DEFAULTS, ...checkedPolicy(changes[POLICY_KEY].newValue ?? {}) };
      } catch {
        person = { ...DEFAULTS };
      }
      void applyRules();
    }
    if (area === 'session' && changes[GRANTS_KEY]) grants = new Map(Object.entries(changes[GRANTS_KEY].newValue || {}).map(([k, v]) => [Number(k), v]));
  });
  return loaded;
}

/** For the popup and options pages (they run in their own context): the same loading. */
export function consentLoaded() {
  return loaded ?? startConsent(null);
}
