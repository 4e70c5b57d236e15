// Agent tabs in the tab strip (issue #19 item 8): every tab the agent opens joins a tab group
// of its session in its window — titled `agent` or `agent: <sessionId>`, blue, unless the
// call names another `groupTitle` or `groupColor`, or `groupTitle: ""` for none — so that the person at the
// browser sees which tabs are the agent's. A user's tab, claimed or not, is never moved.
//
// Owns: the group of a newly opened agent tab. Must never: group, move or ungroup a tab the
// agent did not open; fail the tab's opening (a window without tab groups leaves it ungrouped).
import { fail } from './errors.js';
import { limits } from './limits.js';

export const GROUP_COLORS = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'];

/** The group a `browser_tab_open` asks for: `{title, color}`, or null for none. */
export function groupOf(params) {
  const title = params.groupTitle ?? (params.sessionId ? `agent: ${params.sessionId}` : 'agent');
  const color = params.groupColor ?? 'blue'; // (one of GROUP_COLORS: the catalogue's enum)
  return title.trim() ? { title: title.slice(0, limits.groupTitleChars), color } : null;
}

/** Puts the agent's new tab into its window's group of that title (made when missing). */
export async function joinGroup(tab, group) {
  if (!group || !chrome.tabGroups) return;
  try {
    const [existing] = await chrome.tabGroups.query({ windowId: tab.windowId, title: group.title });
    const groupId = await chrome.tabs.group({ tabIds: [tab.id], ...(existing ? { groupId: existing.id } : { createProperties: { windowId: tab.windowId } }) });
    if (!existing) await chrome.tabGroups.update(groupId, { title: group.title, color: group.color });
  } catch {
    // A window that cannot hold groups (a popup, an app window): the tab stays ungrouped.
  }
}
