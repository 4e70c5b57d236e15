// The elements an AX read after a change fetches again (issue #37 item 1): asked of this
// extension's isolated world of the tab's main frame (page/changes.js `rootsSince`), as
// Runtime object ids for Accessibility.queryAXTree and getAXNodeAndAncestors.
//
// Owns: that lookup and its object group. Must never: guess elements the page did not name
// (no answer is null: the read then fetches the whole tree).
import { arrayObjects, enableRuntime, ownWorlds } from './debugger.js';
import { limits } from '../services/limits.js';

const GROUP = 'pcc-changed';

/**
 * Where every change since the main frame's tracker answered `held` happened, as object ids:
 * `{subtrees, nodes}` (elements whose subtree changed; elements whose children came or went),
 * or null when the page cannot place them (or cannot be asked).
 */
export async function changedRoots(tabId, main, held) {
  await enableRuntime(tabId, main);
  const expression = `window === top && globalThis.__pccChanges?.rootsSince ? (globalThis.__pccChanges.rootsSince(${JSON.stringify(held)}, ${limits.axPatchRoots}) ?? 0) : null`;
  const answers = await Promise.all(ownWorlds(tabId, main).map((contextId) => main.send('Runtime.evaluate', { expression, contextId, objectGroup: GROUP }).then((r) => r.result, () => null)));
  const pair = answers.find((r) => r?.type === 'object' && r.objectId);
  if (!pair) return null;
  const [subtrees, nodes] = await Promise.all((await arrayObjects(main, pair.objectId)).map((id) => arrayObjects(main, id)));
  return { subtrees, nodes };
}

/** Lets the page's elements go (after the read that fetched them). */
export function releaseRoots(main) {
  main.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
}
