// Settling after a side effect: an action reports once the page is quiet, so that the next
// read sees the menu that opened, not its animation half-way. Quiet means: a navigation the
// action started has committed and its document is parsed, no DOM mutation and no finite
// animation or transition running for `settleQuietMs`, and no fetch/XHR the page started
// since the action still in flight (journaled tabs). Never longer than `settleMaxMs` from the action, or from the commit of a
// navigation the action started (waited for at most `actionCommitMaxMs`).
//
// Owns: the settle wait and `settledMs`. Must never: act, retry, or fail an action that
// already ran (whatever goes wrong while waiting only ends the wait).
import { ready } from '../services/core.js';
import { requestsSince } from '../services/journal.js';
import { quiet } from '../page/checks.js';
import { limits } from '../services/limits.js';
import { pendingNavigation } from '../read/debugger.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until tab `tabId` settles after an action that started at `since` (Date.now());
 * resolves with `{ms}` from `since`, and `navigating: true` when a navigation the action started
 * has not committed within `actionCommitMaxMs` (the tab still shows the page it left). A
 * navigation that commits (a form's POST the server answers late) is waited for, and the
 * settle wait counts from its commit: the result describes the page the action reached.
 */
export async function settle(tabId, since = Date.now()) {
  await ready;
  let from = since;
  // (A form's submission starts its navigation a moment after the click: a navigation seen
  // once the page was quiet is waited for, and the page settles again after it.)
  for (let round = 0; ; round++) {
    while (pendingNavigation(tabId, since)) {
      if (Date.now() - since >= limits.actionCommitMaxMs) return { ms: Date.now() - since, navigating: true };
      await sleep(25);
      from = Date.now();
    }
    const ms = await quietAfter(tabId, since, from);
    if (round === 2 || !pendingNavigation(tabId, since)) return { ms };
  }
}

/** The settle wait proper, at most `settleMaxMs` from `from`; ms from `since`. */
async function quietAfter(tabId, since, from) {
  const left = () => Math.max(0, limits.settleMaxMs - (Date.now() - from));
  try {
    // A navigation the action started: its document is parsed and quiet (checks.js `quiet`),
    // not loaded — the tab's `load` waits on every image and ad, which no read needs.
    while (left() > 0) {
      const injected = chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: quiet, args: [limits.settleQuietMs, left()], injectImmediately: true });
      await Promise.race([injected.catch(() => sleep(50)), sleep(left() + 50)]);
      if (requestsSince(tabId, since) === 0) break;
      while (left() > 0 && requestsSince(tabId, since) > 0) await sleep(25);
    }
  } catch {
    // The tab went away or cannot be scripted: the action's outcome stands as reported.
  }
  return Date.now() - since;
}
