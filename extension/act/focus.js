// The person's OS focus across an agent's pointer press.
// Owns: a press on a tab that is the shown tab of a window without the focus. Chromium gives
// the OS focus to the window whose *shown* tab takes a pointer press (an injected one too:
// measured in a headed browser, the person's next keys went to the agent's window); a
// background tab's press activates nothing. So for the press the window shows the agent's
// placeholder page, and the tab again right after: ~30 ms, no focus change, nothing of the
// person's moves. Must never: change what a focused window shows (the person is in it: the
// press takes nothing from them), leave the window showing another tab, or show one of the
// person's own tabs (that page would see itself shown: `visibilitychange`, a focus it never had).
import { PLACEHOLDER, isAgentWindow } from '../services/ownership.js';
import { limits } from '../services/limits.js';

/** The tab of window `windowId` to show for a moment: its placeholder, else a placeholder made
 * for it (`made`: closed afterwards, but in the agent's own window, where it stays for the next
 * press). Never another tab: in the person's window that is theirs. */
async function standIn(windowId) {
  const all = await chrome.tabs.query({ windowId });
  const placeholder = chrome.runtime.getURL(PLACEHOLDER);
  const other = all.find((t) => t.url === placeholder);
  if (other) return { id: other.id };
  const made = await chrome.tabs.create({ windowId, url: placeholder, active: false, index: 0 });
  return { id: made.id, made: !(await isAgentWindow(windowId)) };
}

// The window the person was in before the focus last moved (chrome.windows.onFocusChanged):
// where it goes back to when a page the agent acts on opens a window that takes it.
let focusedNow = chrome.windows.WINDOW_ID_NONE;
let focusedBefore = chrome.windows.WINDOW_ID_NONE;
/** Windows that agent pages opened lately: windowId → {opener's window, until (ms)}. */
const opening = new Map();
// (A window focused before this worker started sends no event: asked once.)
chrome.windows.getLastFocused().then((w) => {
  if (focusedNow === chrome.windows.WINDOW_ID_NONE && w?.focused) focusedNow = w.id;
}, () => {});

chrome.windows.onFocusChanged.addListener((windowId) => {
  // (Focus passes through "no window" between two: only windows count.)
  if (windowId === focusedNow || windowId === chrome.windows.WINDOW_ID_NONE) return;
  focusedBefore = focusedNow;
  focusedNow = windowId;
  const o = opening.get(windowId);
  if (o && performance.now() <= o.until) giveBack(windowId, o.from);
});

/** The focus, taken by window `popup` that the agent's window `from` opened, back to the window
 * the person was in (unless that is the agent's window they were watching). */
function giveBack(popup, from) {
  const back = focusedBefore;
  if (back === chrome.windows.WINDOW_ID_NONE || back === from || back === popup) return;
  // (A window manager may refuse a window that asks for the focus; it gives the focus to the
  // one before when the window that took it is minimized: the popup waits there, still the
  // agent's to act on.)
  chrome.windows.update(popup, { state: 'minimized' })
    .then(() => chrome.windows.update(back, { focused: true }))
    .catch(() => {});
}

/**
 * A window a page of the agent's tab `opener` opened (tab `opened`, the agent's: ownership.js
 * openedBy) that takes the OS focus — `window.open` after the agent's click, a user activation
 * — while the person was in another window: the focus goes back to that window as soon as the
 * new one takes it, within popupFocusWatchMs (the popup stays open behind, reported by the
 * action as `opened`). Keys the person typed in those few milliseconds may have reached it. A
 * window the person was watching the agent's tab in keeps what it does.
 */
export function givingFocusBack(opener, opened) {
  if (opened.windowId === opener.windowId) return;
  opening.set(opened.windowId, { from: opener.windowId, until: performance.now() + limits.popupFocusWatchMs });
  for (const [w, o] of opening) if (performance.now() > o.until) opening.delete(w);
  if (focusedNow === opened.windowId) giveBack(opened.windowId, opener.windowId);
}

/** `press()` (a pointer press on tab `tabId`) without moving the OS focus. */
export async function keepingFocus(tabId, press) {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab?.active) return press();
  const win = await chrome.windows.get(tab.windowId).catch(() => null);
  if (!win || win.focused) return press();
  const stand = await standIn(tab.windowId).catch(() => null);
  // (A window that cannot show another tab now — one being dragged, closing — gets the press as
  // it is: the action goes on.)
  const shown = stand && await chrome.tabs.update(stand.id, { active: true }).catch(() => null);
  if (!shown) {
    if (stand?.made) chrome.tabs.remove(stand.id).catch(() => {});
    return press();
  }
  try {
    return await press();
  } finally {
    await chrome.tabs.update(tabId, { active: true }).catch(() => {});
    if (stand.made) chrome.tabs.remove(stand.id).catch(() => {});
  }
}
