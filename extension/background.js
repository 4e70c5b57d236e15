// Service worker: the composition root. It composes the tool router from the handler
// families in tools/ (each a module of its own), checks every call against the catalogue,
// gives it a deadline and a dialog guard, and registers the worker's listeners. It never
// filters, budgets, redacts or renders: all of that is in wasm (src/).
//
// Entry point for tests and the Bridge: `globalThis.pcc.call(method, params)` resolves to
// the tool's result, or to `{error: {code, message, hint}}`.
import { memoryBytes } from './wasm/pcc.js';
import { lateFrames } from './read/inject.js';
import { keepState, ready, startup, stateWrites, whileRunning } from './services/core.js';
import { assertReadable, defaultTab, notedCallTab, noteCallSession, noteCallTab, resolveTab } from './services/handles.js';
import { fail, toWire, ToolError, HINTS } from './services/errors.js';
import { status, doctor, recordEvent } from './services/status.js';
import { startBridge, configureBridge, bridgeState } from './services/bridge.js';
import { openDialog, dialogOpens } from './act/dialogs.js';
import * as debuggerTabs from './read/debugger.js';
import * as dialogTabs from './act/dialogs.js';
import * as handleTabs from './services/handles.js';
import * as journalTabs from './services/journal.js';
import * as ownershipTabs from './services/ownership.js';
import * as portTabs from './read/ports.js';
import { tabInfo } from './tools/common.js';
import { earlyAsks, readTools } from './tools/read.js';
import { targetTools } from './tools/target.js';
import { actTools } from './tools/act.js';
import { navigateTools } from './tools/navigate.js';
import { tabTools } from './tools/tabs.js';
import { scriptTools } from './tools/script.js';
import { transferTools } from './tools/transfer.js';
import { withReachedState } from './tools/follow.js';
import { limits } from './services/limits.js';
import * as consentTabs from './services/consent.js';
import { assertMayRead, described, grantTab, mayRead, revokeTab, setPolicy, startConsent } from './services/consent.js';
import * as secretTabs from './services/secrets.js';
import { scrubbedResult } from './services/secrets.js';
import { ownedTabs, ownerOf } from './services/ownership.js';
import { givingFocusBack } from './act/focus.js';

// A closed or replaced tab: every module that keeps per-tab state forgets it, here in one
// place (the core's refs and revisions of the tab too).
const TAB_STATE = [consentTabs, debuggerTabs, dialogTabs, handleTabs, journalTabs, ownershipTabs, portTabs, secretTabs];
chrome.tabs.onRemoved.addListener(async (tabId, { windowId, isWindowClosing }) => {
  for (const m of TAB_STATE) m.forgetTab(tabId);
  if (!isWindowClosing) ownershipTabs.agentTabClosed(windowId).catch(() => {});
  (await ready).collector.clearTab(tabId);
});
// A tab a page opened: the agent's when an agent tab's page opened it (in its opener's group).
chrome.webNavigation.onCreatedNavigationTarget.addListener(async ({ sourceTabId, tabId }) => {
  if (!(await ownershipTabs.openedBy(sourceTabId, tabId))) return;
  const [from, tab] = await Promise.all([chrome.tabs.get(sourceTabId).catch(() => null), chrome.tabs.get(tabId).catch(() => null)]);
  // A window it opened never keeps the person's focus (act/focus.js).
  if (from && tab) givingFocusBack(from, tab);
  if (from?.groupId >= 0 && tab?.windowId === from.windowId) await chrome.tabs.group({ tabIds: [tabId], groupId: from.groupId }).catch(() => {});
});
chrome.tabs.onReplaced.addListener(async (added, removed) => {
  handleTabs.replacedTab(added, removed);
  ownershipTabs.replacedTab(added, removed);
  (await ready).collector.clearTab(removed);
});

/** The router: every tool by its catalogue name (a test holds it to catalogue.json). */
const TOOLS = {
  ...readTools,
  ...targetTools,
  ...actTools,
  ...navigateTools,
  ...tabTools,
  ...scriptTools,
  ...transferTools,
  browser_status: (p) => status(p, describeTab),
  browser_doctor: (p) => doctor(p, describeTab),
};

/** A tab as a result describes it: its site alone when the agent may not read it (consent.js). */
async function describeTab(tab) {
  return tabInfo(described(tab, await ownerOf(tab.id)));
}

// The agent's own tabs (ownership.js) are the ones the origin policy's request rules cover.
const consentLoaded = startConsent(async () => (await ownedTabs()).filter((t) => t.owner === 'agent').map((t) => t.tabId));

/**
 * Tools that take a tabId but neither read nor act on that tab's page: they describe it (its
 * site alone when it is not readable) or give it back. Every other tool that takes a tabId
 * (or addresses the active tab without one) reads or acts on that tab: the tab must be the
 * agent's, claimed, or one the person let it read (consent.js).
 */
const TAB_FREE = new Set(['browser_selected_tab', 'browser_tab_close', 'browser_release_tab', 'browser_status', 'browser_doctor']);

/** The consent check of a call on a tab (BROWSER_TAB_NOT_GRANTED). A tab that cannot be
 * found is left to the tool: it says what is wrong. */
async function consentOf(method, params, known) {
  if (TAB_FREE.has(method) || !known.get(method)?.has('tabId')) return;
  const tab = await resolveTab(params.tabId).catch(() => null);
  try {
    assertReadable(tab);
  } catch {
    return; // no tab, or one no extension may read (a browser page): the tool says so
  }
  assertMayRead(tab, await ownerOf(tab.id));
  noteCallTab(params, tab);
}

/**
 * The catalogue (the one source of tool names and parameters; a test checks TOOLS against
 * it): each tool's parameters, and the tools whose effects are unknown when they do not
 * finish (all but the readers). Fetched, not imported: a restarted service worker cannot
 * load a JSON module it did not cache at install.
 */
const catalogue = fetch(chrome.runtime.getURL('catalogue.json')).then((r) => r.json()).then((c) => ({
  c,
  params: new Map(c.tools.map((t) => [t.name, new Set(Object.keys(t.params))])),
  // Tools that must be told their tab (select, claim, close, mark, release): no default.
  tabRequired: new Set(c.tools.filter((t) => t.required?.includes('tabId')).map((t) => t.name)),
  sideEffects: new Set(c.tools.filter((t) => !t.annotations.readOnly).map((t) => t.name)),
}));

/**
 * The call's deadline: past it the call answers with a stable code and its `signal` aborts,
 * so the abandoned work sends no further command, renders nothing and acts on nothing.
 */
function deadline(method, params, sideEffects, limits) {
  // No call outlives budget.rs's callDeadlineMs plus its own `timeout`: a hung page or
  // browser API yields a stable code, and the worker keeps serving the next call.
  const base = globalThis.pcc?.callDeadlineMs ?? limits.callDeadlineMs; // tests shorten it
  const ms = base + (Number.isInteger(params.timeout) ? Math.min(params.timeout, limits.timeoutMaxMs) : 0);
  const ctl = new AbortController();
  const endsAt = Date.now() + ms;
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = sideEffects.has(method)
        ? new ToolError('BROWSER_OPERATION_UNCERTAIN', `${method} did not finish within ${ms / 1000} s`, HINTS.BROWSER_OPERATION_UNCERTAIN)
        : new ToolError('BROWSER_PAGE_UNAVAILABLE', `the tab did not answer within ${ms / 1000} s`, 'the page may be hung or crashed; reload it or open a new tab');
      ctl.abort(err);
      reject(err);
    }, ms);
  });
  return { promise, signal: ctl.signal, left: () => endsAt - Date.now(), cancel: () => clearTimeout(timer), abort: (reason) => { clearTimeout(timer); ctl.abort(reason); } };
}

/** Tools that work while a tab's dialog blocks its page (they never wait on the page). */
const DIALOG_FREE = new Set(['browser_dialog', 'browser_tabs', 'browser_selected_tab', 'browser_select_tab', 'browser_tab_open', 'browser_tab_close',
  'browser_claim_tab', 'browser_release_tab', 'browser_mark_tab', 'browser_cleanup', 'browser_dispose_session', 'browser_status', 'browser_doctor',
  'browser_console', 'browser_network', 'browser_downloads', 'browser_download', 'browser_clipboard_read', 'browser_clipboard_write']);

/**
 * A call on a tab whose page is blocked by a dialog never waits for it: refused at once when
 * the dialog is already open; when one opens during the call, a side effect answers
 * `{ok: true, dialog}` (the page ran it: the dialog is its doing) and a read
 * BROWSER_DIALOG_OPEN; the abandoned rest of the call is aborted.
 */
async function guardDialog(method, params, start, limit, sideEffects) {
  // A tab id is checked by the tool itself; only the active tab needs looking up here (the
  // call's consent check may just have done so).
  const tabId = Number.isInteger(params.tabId) ? params.tabId : (notedCallTab(params) ?? await resolveTab(params.tabId).catch(() => null))?.id;
  if (tabId === undefined) return Promise.race([start(), limit.promise]); // the tool says what is wrong
  const blocked = (d) => new ToolError('BROWSER_DIALOG_OPEN', `a ${d.type} dialog is open on tab ${tabId}`, HINTS.BROWSER_DIALOG_OPEN);
  const already = openDialog(tabId);
  if (already) throw blocked(already);
  const opens = dialogOpens(tabId);
  const run = start();
  run.catch(() => {}); // may settle after we answered
  try {
    const first = await Promise.race([run.then((r) => ({ r })), limit.promise, opens.promise.then((d) => ({ d }))]);
    if (!first.d) return first.r;
    limit.abort(blocked(first.d));
    if (!sideEffects.has(method)) throw blocked(first.d);
    return { ok: true, tab: tabInfo(await chrome.tabs.get(tabId).catch(() => ({ id: tabId }))), dialog: first.d };
  } finally {
    opens.cancel();
  }
}

/** Tools that never change the core's state (refs, revisions, journals): no state write after them. */
const STATELESS = new Set(['browser_status', 'browser_doctor', 'browser_tabs', 'browser_selected_tab', 'browser_screenshot', 'browser_dialog', 'browser_downloads', 'browser_clipboard_read', 'browser_clipboard_write']);

/** The call's params with its session's defaults (`sessionId`, `tabId`; `takes`: the tool's
 * parameters that have one), noted for the tools. */
async function withSession(method, params, takes, session) {
  let out = params;
  if (session && takes?.has('sessionId') && params.sessionId === undefined) out = { ...out, sessionId: session };
  if (takes?.has('tabId') && params.tabId === undefined) {
    // (A tool that only describes a tab takes the session's current one, and never fails on it.)
    const id = TAB_FREE.has(method) ? await defaultTab(session).catch(() => undefined) : await defaultTab(session);
    if (id !== undefined) out = { ...out, tabId: id };
  }
  noteCallSession(out, session);
  return out;
}

/**
 * `session`: the agent session of the call (one per client of the Bridge: bridge.js), or
 * undefined. It is the default `sessionId` of every tool that takes one (its tabs, tab group,
 * cleanup and AX revisions are its own), and a call without tabId addresses its current tab
 * (handles.js defaultTab), never another session's.
 */
async function call(method, params = {}, session = undefined) {
  const t0 = performance.now();
  let out;
  let limit;
  let early;
  try {
    const core = await ready;
    if (typeof method !== 'string' || !Object.hasOwn(TOOLS, method)) fail('INVALID_REQUEST', `unknown method ${String(method).slice(0, limits.methodNameChars)}`, `use one of ${Object.keys(TOOLS).join(', ')}`);
    const { params: known, sideEffects, tabRequired } = await catalogue;
    // Checked once, here, against the tool's schema (src/tools/params.rs): no handler checks a
    // parameter's type again.
    params = core.schemas.check(method, params);
    const agent = typeof session === 'string' && session ? session.slice(0, limits.sessionIdChars) : '';
    params = await withSession(method, params, tabRequired.has(method) ? null : known.get(method), agent);
    // A read's ask of a document it already holds goes out now, alongside the check below
    // (tools/read.js earlyAsks): its answer waits for the check.
    early = earlyAsks[method]?.(params);
    await consentLoaded;
    await consentOf(method, params, known);
    limit = deadline(method, params, sideEffects, limits);
    const start = () => whileRunning(TOOLS[method](params, limit.signal));
    out = await (DIALOG_FREE.has(method) ? Promise.race([start(), limit.promise]) : guardDialog(method, params, start, limit, sideEffects));
    // An action that reached another page answers with it (tools/follow.js), within the call's time.
    out = await withReachedState(method, out, typeof params.sessionId === 'string' ? params.sessionId : agent, { openDialog, dialogOpens }, limit.left());
  } catch (e) {
    out = { error: toWire(e) };
  } finally {
    limit?.cancel();
    early?.drop();
  }
  if (Object.hasOwn(TOOLS, method)) {
    recordEvent(method, out.error, performance.now() - t0).catch(() => {});
    if (!STATELESS.has(method)) keepState();
  }
  return scrubbedResult(out, ...scrubTab(params, out), t0);
}

/** The tab whose secrets a result is scrubbed against — the call's, the result's or the
 * current one — and whether the agent may read it (its fields are read only then), asked of
 * the browser only when the scrub needs to know (secrets.js: not when this call's own read
 * gathered the fields). `[tabId, readable]`: a promise of the id, a function giving a
 * promise of the answer. */
function scrubTab(params, out) {
  const id = Number.isInteger(params?.tabId) ? params.tabId : Number.isInteger(out?.tab?.id) ? out.tab.id : undefined;
  let tab;
  const lookup = () => (tab ??= (id !== undefined ? chrome.tabs.get(id) : resolveTab(undefined)).catch(() => null));
  const readable = async () => {
    const t = await lookup();
    if (!t) return false;
    try {
      assertReadable(t);
    } catch {
      return false;
    }
    return mayRead(t, await ownerOf(t.id));
  };
  return [id !== undefined ? Promise.resolve(id) : lookup().then((t) => t?.id), readable];
}

globalThis.pcc = { call, stateWrites: () => ({ ...stateWrites }), axPatchRefusal: () => ready.then((c) => c.collector.lastPatchRefusal() ?? null), tools: Object.keys(TOOLS), catalogue: () => catalogue.then(({ c }) => c), memoryBytes: () => memoryBytes(), startup: () => ready.then(() => ({ ...startup })), lateFrames, portAnswers: portTabs.portAnswers, consent: { setPolicy, grantTab, revokeTab }, renewals: () => ready.then((c) => c.renewals), bridge: { configure: configureBridge, state: bridgeState } };
startBridge(call);
