// `browser_status` and `browser_doctor`: what the extension is connected to and what is
// wrong with it, from the glue's own state (no page data beyond the tab descriptor).
// Recent tool events are kept in a small ring and shown only on request.
import { ready } from './core.js';
import { sessions, isAttached } from '../read/debugger.js';
import { browserId, runtimeId, assertReadable, resolveTab } from './handles.js';
import { mayRead } from './consent.js';
import { ownerOf } from './ownership.js';
import { isJournaled } from './journal.js';
import { documentId } from '../read/walker.js';
import { HINTS } from './errors.js';
import { limits } from './limits.js';

const events = [];

/** Records one finished tool call (method, outcome code, duration); ring-bounded. */
export async function recordEvent(method, error, ms) {
  await ready;
  events.push({ method, ok: !error, ...(error ? { code: error.code } : {}), ms: Math.round(ms) });
  while (events.length > limits.recentEvents) events.shift();
}

async function target(tabId) {
  try {
    return await resolveTab(tabId);
  } catch {
    return undefined;
  }
}

export async function status(params, describe) {
  const tab = await target(params.tabId);
  const out = {
    ok: true,
    browserId: await browserId(),
    runtimeId,
    version: chrome.runtime.getManifest().version,
  };
  if (tab) {
    out.target = {
      tab: await describe(tab),
      loading: tab.status === 'loading' || !!tab.pendingUrl,
      debuggerAttached: isAttached(tab.id),
      journaled: isJournaled(tab.id),
      owner: (await ownerOf(tab.id)) || 'user',
    };
  }
  if (params.includeEvents === true) out.recentEvents = events.slice();
  return out;
}

export async function doctor(params, describe) {
  const problems = [];
  // Facts about the tab that break nothing (whose it is, whether the person granted it): said,
  // never counted as a problem.
  const notes = [];
  const details = {};
  const problem = (code, message, hint = HINTS[code]) => problems.push({ code, message, hint });
  try {
    await ready;
    details.wasm = 'ok';
  } catch (e) {
    problem('BROWSER_SCRIPT_FAILED', 'the wasm collector did not load', 'reload the extension');
  }
  const tab = await target(params.tabId);
  if (!tab) {
    problem('BROWSER_TARGET_MISMATCH', 'no target tab', 'open a tab with browser_tab_open or pass tabId');
  } else {
    let readable = true;
    try {
      assertReadable(tab);
    } catch (e) {
      readable = false;
      problem(e.code, e.message, e.hint);
    }
    // A tab the person did not grant is not touched (no debugger, no injection): said below.
    if (!mayRead(tab, await ownerOf(tab.id))) readable = false;
    if (readable) {
      try {
        const all = await sessions(tab.id);
        details.debugger = { attached: true, frameSessions: all.length - 1 };
      } catch (e) {
        details.debugger = { attached: false };
        problem('BROWSER_PAGE_UNAVAILABLE', `the debugger cannot attach: ${String(e.message).slice(0, limits.causeChars)}`, 'close DevTools or other debugging extensions on this tab; reads fall back to the DOM walk');
      }
      try {
        await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: documentId });
        details.injection = 'ok';
      } catch (e) {
        details.injection = 'failed';
        problem('BROWSER_SCRIPT_FAILED', `script injection failed: ${String(e.message).slice(0, limits.causeChars)}`);
      }
    }
    if (tab.status === 'loading' || tab.pendingUrl) problem('BROWSER_PAGE_CHANGING', `tab ${tab.id} is loading`);
    const owner = await ownerOf(tab.id);
    details.owner = owner || 'user';
    if (!owner && !mayRead(tab, owner)) notes.push({ code: 'BROWSER_TAB_NOT_GRANTED', message: `tab ${tab.id} is the person's and not granted: reads need their grant, side effects a claim after it`, hint: HINTS.BROWSER_TAB_NOT_GRANTED });
    else if (!owner) notes.push({ code: 'BROWSER_TAB_NOT_OWNED', message: `tab ${tab.id} is the user's: reads work, side effects need a claim`, hint: HINTS.BROWSER_TAB_NOT_OWNED });
  }
  const out = { ok: problems.length === 0, problems };
  if (notes.length) out.notes = notes;
  if (tab) out.target = await describe(tab);
  if (params.details === true) out.details = details;
  return out;
}
