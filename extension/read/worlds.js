// The fields memory.js remembers as "ever a password" (a "Show password" toggle turned them
// into text fields), made visible to the CDP reads: found through this extension's isolated
// world of every frame, resolved to backend node ids, and marked `type=password` in the
// captured DOMSnapshot, so the core treats them as the password fields they are (no value
// in snapshots, revisions or diffs). The same rewrite the DOM walk does (domwalk.js).
//
// Owns: that lookup and that one attribute rewrite. Must never: change anything else in an
// observation, or the page itself.
import { arrayObjects, enableRuntime, ownWorlds } from './debugger.js';
import { limits } from '../services/limits.js';

const GROUP = 'pcc-was-password';
const LIST = '(() => { const l = globalThis.__pccWasPassword?.list() ?? []; return l.length ? l : 0; })()';
/** More remembered fields than this in one frame: every text-like input counts as one. */

/** Backend node ids of one session's remembered fields; `all` when they cannot be known. */
async function remembered(tabId, target) {
  const found = { ids: new Set(), all: false };
  try {
    await enableRuntime(tabId, target);
  } catch {
    return found; // a session without Runtime has no frame of ours either
  }
  await Promise.all(ownWorlds(tabId, target).map(async (contextId) => {
    try {
      const { result } = await target.send('Runtime.evaluate', { expression: LIST, contextId, objectGroup: GROUP });
      if (!result?.objectId) return;
      const els = await arrayObjects(target, result.objectId);
      if (els.length > limits.passwordNodesResolved) found.all = true;
      else {
        const nodes = await Promise.all(els.map((objectId) => target.send('DOM.describeNode', { objectId })));
        for (const { node } of nodes) found.ids.add(node.backendNodeId);
      }
    } catch (e) {
      // A world that went away with its frame holds nothing; any other failure is unknown.
      if (!/context|not found|destroyed/i.test(String(e?.message))) found.all = true;
    }
  }));
  target.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
  return found;
}

const TEXT_LIKE = new Set(['', 'text', 'search', 'email', 'tel', 'url', 'number']);

/** Marks one DOMSnapshot's remembered fields `type=password` (in place). */
export function markPasswords(snapshot, { ids, all }) {
  if (!ids.size && !all) return;
  const strings = snapshot.strings;
  const str = (s) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  for (const doc of snapshot.documents ?? []) {
    const n = doc.nodes ?? {};
    (n.backendNodeId ?? []).forEach((id, i) => {
      if (!(all || ids.has(id)) || !n.attributes?.[i] || strings[n.nodeName?.[i]]?.toUpperCase() !== 'INPUT') return;
      const attrs = n.attributes[i];
      let at = -1;
      for (let k = 0; k < attrs.length; k += 2) if (strings[attrs[k]]?.toLowerCase() === 'type') at = k;
      const type = at < 0 ? '' : String(strings[attrs[at + 1]]).toLowerCase();
      if (!ids.has(id) && !TEXT_LIKE.has(type)) return;
      if (at < 0) attrs.push(str('type'), str('password'));
      else attrs[at + 1] = str('password');
    });
  }
}

/** Applies the memory of every frame of a tab to a captured observation (in place). */
export async function applyPasswordMemory(tabId, targets, obs) {
  const found = await Promise.all(targets.map((t) => remembered(tabId, t)));
  for (const s of obs.snapshots) {
    const i = targets.findIndex((t) => t.session === s.session);
    if (i >= 0) markPasswords(s.snapshot, found[i]);
  }
}
