// Service worker: the composition root. It composes the tool router from the handler
// families in tools/ (each a module of its own), checks every call against the catalogue,
// gives it a deadline and a dialog guard, and registers the worker's listeners. It never
// filters, budgets, redacts or renders: all of that is in wasm (src/).
//
// Entry point for tests and the Bridge: `globalThis.pcc.call(method, params)` resolves to
// the tool's result, or to `{error: {code, message, hint}}`.
import { memoryBytes } from './wasm/pcc.js';
import { lateFrames } from './inject.js';
import { ready, whileRunning } from './core.js';
import { resolveTab } from './handles.js';
import { fail, toWire, ToolError, HINTS } from './errors.js';
import { status, doctor, recordEvent } from './status.js';
import { startBridge, configureBridge, bridgeState } from './bridge.js';
import { openDialog, dialogOpens } from './dialogs.js';
import * as debuggerTabs from './debugger.js';
import * as dialogTabs from './dialogs.js';
import * as handleTabs from './handles.js';
import * as journalTabs from './journal.js';
import * as ownershipTabs from './ownership.js';
import * as repeatTabs from './repeat.js';
import { tabInfo } from './tools/common.js';
import { readTools } from './tools/read.js';
import { targetTools } from './tools/target.js';
import { actTools } from './tools/act.js';
import { navigateTools } from './tools/navigate.js';
import { tabTools } from './tools/tabs.js';
import { scriptTools } from './tools/script.js';
import { transferTools } from './tools/transfer.js';
import { limits } from './limits.js';

// A closed or replaced tab: every module that keeps per-tab state forgets it, here in one
// place (the core's refs and revisions of the tab too).
const TAB_STATE = [debuggerTabs, dialogTabs, handleTabs, journalTabs, ownershipTabs, repeatTabs];
chrome.tabs.onRemoved.addListener(async (tabId) => {
  for (const m of TAB_STATE) m.forgetTab(tabId);
  (await ready).collector.clearTab(tabId);
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
  browser_status: (p) => status(p, (t) => tabInfo(t)),
  browser_doctor: (p) => doctor(p, (t) => tabInfo(t)),
};

/**
 * The catalogue (the one source of tool names and parameters; a test checks TOOLS against
 * it): each tool's parameters, and the tools whose effects are unknown when they do not
 * finish (all but the readers). Fetched, not imported: a restarted service worker cannot
 * load a JSON module it did not cache at install.
 */
const catalogue = fetch(chrome.runtime.getURL('catalogue.json')).then((r) => r.json()).then((c) => ({
  c,
  params: new Map(c.tools.map((t) => [t.name, new Set(Object.keys(t.params))])),
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
  return { promise, signal: ctl.signal, cancel: () => clearTimeout(timer), abort: (reason) => { clearTimeout(timer); ctl.abort(reason); } };
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
  // A tab id is checked by the tool itself; only the active tab needs looking up here.
  const tabId = Number.isInteger(params.tabId) ? params.tabId : (await resolveTab(params.tabId).catch(() => null))?.id;
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

async function call(method, params = {}) {
  const t0 = performance.now();
  let out;
  let limit;
  try {
    await ready;
    if (typeof method !== 'string' || !Object.hasOwn(TOOLS, method)) fail('INVALID_REQUEST', `unknown method ${String(method).slice(0, limits.methodNameChars)}`, `use one of ${Object.keys(TOOLS).join(', ')}`);
    if (params === null || typeof params !== 'object' || Array.isArray(params)) fail('INVALID_REQUEST', 'params must be an object');
    const { params: known, sideEffects } = await catalogue;
    for (const k of Object.keys(params)) {
      if (!known.get(method)?.has(k)) fail('INVALID_REQUEST', `${method} has no parameter ${k.slice(0, limits.methodNameChars)}`, `its parameters: ${[...(known.get(method) ?? [])].join(', ')}`);
    }
    limit = deadline(method, params, sideEffects, limits);
    const start = () => whileRunning(TOOLS[method](params, limit.signal));
    out = await (DIALOG_FREE.has(method) ? Promise.race([start(), limit.promise]) : guardDialog(method, params, start, limit, sideEffects));
  } catch (e) {
    out = { error: toWire(e) };
  } finally {
    limit?.cancel();
  }
  if (Object.hasOwn(TOOLS, method)) recordEvent(method, out.error, performance.now() - t0).catch(() => {});
  return out;
}

globalThis.pcc = { call, tools: Object.keys(TOOLS), catalogue: () => catalogue.then(({ c }) => c), memoryBytes: () => memoryBytes(), lateFrames, renewals: () => ready.then((c) => c.renewals), bridge: { configure: configureBridge, state: bridgeState } };
startBridge(call);
