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
