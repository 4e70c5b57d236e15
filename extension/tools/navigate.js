// browser_navigate (a URL, or back / forward / reload) and browser_wait_for (load states,
// text, selectors, elements, URLs, network idle).
// Owns: waits bounded by budget.rs's timeouts. Must never: navigate where the origin
// policy does not allow (consent.js: http(s) only, file: when allowLocal).
import { readFact } from '../act/actions.js';
import { sessions } from '../read/debugger.js';
import { assertOrigin } from '../services/consent.js';
import { fail } from '../services/errors.js';
import { assertReadable, handleOf, resolveTab } from '../services/handles.js';
import { journal, requestsSince } from '../services/journal.js';
import { isNavigationError, selectorOf } from '../read/reads.js';
import { pageCheck } from '../page/checks.js';
import { tabInfo, tabToAct, timeoutOf } from './common.js';
import { refNode } from './observe.js';
import { resolveTarget, targetOf } from './target.js';
import { limits } from '../services/limits.js';


/**
 * History moves of `browser_navigate {action}`. Back and forward go to the neighbouring
 * entry of the tab's own history over CDP (chrome.tabs.goBack skips entries Chrome marks as
 * added without a user gesture: an agent's navigations are such entries).
 */
const HISTORY = {
  back: (id) => historyStep(id, -1),
  forward: (id) => historyStep(id, 1),
  reload: (id) => chrome.tabs.reload(id),
};

async function historyStep(tabId, by) {
  const [main] = await sessions(tabId);
  const { currentIndex, entries } = await main.send('Page.getNavigationHistory');
  const to = entries[currentIndex + by];
  if (!to) throw new Error(`no page ${by < 0 ? 'back' : 'forward'} in this tab's history`);
  await main.send('Page.navigateToHistoryEntry', { entryId: to.id });
}

async function browserNavigate(params) {
  let url;
  if (params.action !== undefined) {
    if (params.url !== undefined) fail('INVALID_REQUEST', 'pass url or action, not both');
  } else {
    try {
      url = new URL(params.url);
    } catch {
      fail('INVALID_REQUEST', 'url must be an absolute URL', 'pass e.g. https://example.com/, or action: back, forward or reload');
    }
    assertOrigin(url.href);
  }
  const timeout = timeoutOf(params);
  // (A crashed tab is brought back by a navigation: its error's hint says so.)
  const tab = await tabToAct(params, { readable: true, crashedOk: true });
  if (url) await chrome.tabs.update(tab.id, { url: url.href });
  else {
    try {
      await HISTORY[params.action](tab.id);
    } catch (e) {
      // Nothing happened: no page in that direction.
      fail('INVALID_REQUEST', `cannot go ${params.action}: ${String(e.message).slice(0, limits.causeChars)}`, 'read browser_tabs, or navigate to a URL');
    }
  }
  return waitLoaded(tab, timeout);
}

/** Polls until the tab has loaded, then returns its descriptor and fresh handle. */
export async function waitLoaded(tab, timeout) {
  const start = Date.now();
  let now;
  let seenLoading = false;
  // Loaded: Chrome went through `loading` (or a fast load was missed for 500 ms) and is
  // `complete` with nothing pending.
  for (;;) {
    now = await chrome.tabs.get(tab.id);
    if (now.status === 'loading') seenLoading = true;
    if (now.status === 'complete' && !now.pendingUrl && (seenLoading || Date.now() - start > limits.fastLoadMs)) break;
    if (Date.now() - start > timeout) return { ok: true, loading: true, tab: tabInfo(now) };
    await new Promise((r) => setTimeout(r, 50));
  }
  const all = await sessions(tab.id).catch(() => null);
  return { ok: true, tab: tabInfo(now, await handleOf(now, all?.[0]).catch(() => undefined)) };
}


/** A URL glob (`*` any run of characters, `?` one) as a RegExp over the whole URL. */
function globRegExp(glob) {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/**
 * `browser_wait_for`: until every condition given holds — `text` shown, `textGone` no longer
 * shown, `selector` rendered, the tab's `url` matching a glob, its `load` state reached
 * (`networkidle`: loaded and no fetch/XHR for 500 ms), and a `target` or `ref` in a `state`.
 */
async function browserWaitFor(params, signal) {
  const { text, selector, textGone, url, load, state } = params;
  const element = params.target !== undefined || params.ref !== undefined;
  if (![text, selector, textGone, url, load].some((v) => v !== undefined) && !element) fail('INVALID_REQUEST', 'wait_for needs text, textGone, selector, url, load, or a target or ref');
  if (state !== undefined && !element) fail('INVALID_REQUEST', 'state needs a target or ref', `pass one with state ${state}`);
  if (params.target !== undefined && params.ref !== undefined) fail('INVALID_REQUEST', 'pass a target or a ref with its snapshotId, not both');
  if (selector !== undefined) selectorOf(params);
  const timeout = timeoutOf(params);
  let tab = await resolveTab(params.tabId);
  assertReadable(tab);
  if (load === 'networkidle') await journal(tab.id).catch(() => {}); // fetch/XHR in flight are seen from here on
  const urlRe = url === undefined ? null : globRegExp(url);
  const pageSide = [text, selector, textGone, load].some((v) => v !== undefined);
  const start = Date.now();
  let idleSince = null;
  for (;;) {
    signal?.throwIfAborted();
    tab = await chrome.tabs.get(tab.id);
    let ok = !urlRe || urlRe.test(tab.url || '');
    if (ok && pageSide) {
      let page = null;
      try {
        [{ result: page }] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: pageCheck, args: [text ?? null, selector ?? null, textGone ?? null] });
      } catch (e) {
        if (/selector/i.test(String(e.message))) fail('INVALID_REQUEST', 'invalid selector', 'pass a CSS selector');
        // The page is between documents: try again until the timeout.
      }
      ok = !!page?.ok;
      if (ok && load !== undefined) {
        ok = load === 'domcontentloaded' ? page.readyState !== 'loading' : page.readyState === 'complete' && tab.status === 'complete';
        if (ok && load === 'networkidle') {
          if (requestsSince(tab.id, 0) > 0) idleSince = null;
          else idleSince ??= Date.now();
          ok = idleSince !== null && Date.now() - idleSince >= limits.networkIdleMs;
        }
      }
    }
    if (ok && element) ok = await elementIn(tab, params, state ?? 'visible', signal);
    if (ok) return { ok: true, waitedMs: Date.now() - start };
    if (Date.now() - start > timeout) fail('BROWSER_WAIT_TIMEOUT', `the condition did not hold within ${timeout} ms`, 'check it (browser_find, a snapshot), or wait longer with timeout');
    await new Promise((r) => setTimeout(r, limits.pollMs));
  }
}

/**
 * Whether a target or ref is in `state` now. A target matches visible elements only, so for
 * a target `attached` is `visible` and `hidden` is `detached` (no visible match).
 */
async function elementIn(tab, params, state, signal) {
  let { snapshotId, ref } = params;
  if (params.target !== undefined) {
    try {
      ({ snapshotId, ref } = await resolveTarget(tab, { ...targetOf(params), index: params.target.index ?? 0 }, signal));
    } catch (e) {
      if (e.code !== 'BROWSER_TARGET_NOT_FOUND' && !isNavigationError(e)) throw e;
      return state === 'hidden' || state === 'detached';
    }
    if (state === 'visible' || state === 'attached') return true;
  }
  let node;
  try {
    const all = await sessions(tab.id, signal);
    node = await refNode(all, await handleOf(tab, all[0]), snapshotId, ref);
  } catch (e) {
    if (e.code !== 'BROWSER_STALE_REF') throw e;
    return state === 'detached' || state === 'hidden';
  }
  if (state === 'attached') return true;
  if (state === 'detached') return false;
  const fact = await readFact(node.session, node.backendNodeId, state === 'enabled' ? 'enabled' : 'visible');
  return state === 'hidden' ? fact === false : fact === true;
}

export const navigateTools = { browser_navigate: browserNavigate, browser_wait_for: browserWaitFor };
