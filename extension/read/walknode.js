// A DOM-walk ref's element as CDP knows it. The walk (domwalk.js) keeps the elements it
// listed in this extension's isolated world, under the walk's own id; through that world's
// execution context over CDP the element becomes `{session, backendNodeId}`, so a walk ref
// acts like an accessibility ref: trusted Input.* events at a stable, hit-checked point.
//
// Owns: that lookup. Must never: return an element of another walk or frame (the walk id is
// per read, so each frame of a read keeps a walk under it: the frame the ref was walked in is
// marked first with a one-time token, and only the world holding that token answers), guess
// from text or position, or act.
import { enableRuntime, ownWorlds } from './debugger.js';
import { markWalkFrame } from './walker.js';
import { inject } from './inject.js';

const GROUP = 'pcc-walk-ref';

/**
 * `{session, backendNodeId}` of element `walkIndex` of walk `walkId` in one of the tab's
 * sessions; `{gone: true}` when its frame no longer keeps it (another document); null when
 * no world of this extension can be asked (the caller then acts through the page script, as
 * without a debugger). An element taken out of its document still resolves: the caller's
 * connection check makes it a stale ref.
 */
export async function walkNode(tabId, all, { walkId, walkIndex, frameId }) {
  if (typeof walkId !== 'string' || !Number.isInteger(walkIndex)) return null;
  const mark = crypto.randomUUID(); // the worker is a secure context
  let held;
  try {
    [{ result: held }] = await inject(tabId, [Number(frameId) || 0], markWalkFrame, [mark, walkId, walkIndex]);
  } catch {
    return null;
  }
  if (!held) return { gone: true };
  const expression = `globalThis.__pccWalkMark === ${JSON.stringify(mark)} ? globalThis.__pccWalks?.get(${JSON.stringify(walkId)})?.[${walkIndex}] ?? null : null`;
  for (const session of all) {
    try {
      await enableRuntime(tabId, session);
    } catch {
      continue;
    }
    for (const contextId of ownWorlds(tabId, session)) {
      try {
        const { result } = await session.send('Runtime.evaluate', { expression, contextId, objectGroup: GROUP });
        if (!result?.objectId) continue;
        const { node } = await session.send('DOM.describeNode', { objectId: result.objectId });
        session.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
        return { session, backendNodeId: node.backendNodeId };
      } catch {
        // A world that went away with its frame holds nothing.
      }
    }
    session.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
  }
  return null;
}
