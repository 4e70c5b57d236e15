// Repeat AX reads without a capture (issue #20 item 2). Before each AX read, every frame's
// change tracker (changes.js) is asked for its state; when the state equals the one taken
// before this key's last read, nothing the read shows has changed, and the core answers
// `unchanged` from that read's revision (`unchangedSince`) — no AX tree, no DOM snapshot.
//
// Owns: a tab's page state (every frame's tracker answer, the frame set, the URL) and the
// last state per read key. Must never: give a state when any frame has no tracker, does not
// answer in time or answers malformed (the read then captures), or keep a state past the
// revision it was taken for (the core refuses any but the latest; the capture path replaces it).

const states = new Map(); // read key → {state, snapshotId}
const KEPT = 32; // twice the core's REVISIONS_TOTAL: states beyond it name no revision

chrome.tabs.onRemoved.addListener((tabId) => {
  for (const k of states.keys()) if (k.startsWith(`${tabId}|`)) states.delete(k);
});

/** The key of a read: everything that shapes its result besides the page. */
export function readKey(tabId, params) {
  return `${tabId}|${JSON.stringify([params.sessionId ?? '', params.selector ?? '', params.ref ?? '', params.snapshotId ?? '', params.maxChars ?? 0, params.maxNodes ?? 0])}`;
}

/**
 * The page state of a tab now, or null when it cannot be proved: one tracker answer per
 * frame the browser lists, each within `answerMs`.
 */
export async function pageState(tab, answerMs) {
  const [frames, results] = await Promise.all([
    chrome.webNavigation.getAllFrames({ tabId: tab.id }).catch(() => null),
    Promise.race([
      chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, func: () => globalThis.__pccChanges?.check() ?? null }).catch(() => null),
      new Promise((res) => setTimeout(() => res(null), answerMs)),
    ]),
  ]);
  if (!frames?.length || !results) return null;
  const byFrame = new Map(results.map((r) => [r.frameId, r]));
  const parts = [];
  for (const f of frames.sort((a, b) => a.frameId - b.frameId)) {
    const r = byFrame.get(f.frameId);
    if (typeof r?.result !== 'string' || r.documentId !== f.documentId) return null;
    parts.push(`${f.frameId}:${f.documentId}:${r.result}`);
  }
  return `${tab.url}\n${parts.join('|')}`;
}

/** The read this state was taken before, if the page is unchanged since it. */
export function unchangedSince(key, state) {
  const held = state && states.get(key);
  return held && held.state === state ? held.snapshotId : undefined;
}

/** Remembers the state taken before the read that produced `snapshotId` (null forgets). */
export function remember(key, state, snapshotId) {
  states.delete(key);
  if (!state || !snapshotId) return;
  states.set(key, { state, snapshotId });
  if (states.size > KEPT) states.delete(states.keys().next().value);
}
