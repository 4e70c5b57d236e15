// The DOM walk's page functions as the worker injects them (page/domwalk.js is a content
// script, so it is no module: it leaves its functions on `globalThis.__pccWalker`, here the
// worker's), and the call of the copy a frame keeps since its document started.
// Owns: which copy of the walk a frame runs. Must never: run the walk anywhere but the
// frame's isolated world.
import './page/domwalk.js';

export const { domWalk, frameArm, framePost, documentId, markWalkFrame, domAct } = globalThis.__pccWalker;

/** Injected: the frame's own, warm walk, or 'cold' when its document has none (it loaded
 * before the extension did): the caller then injects `domWalk` itself. */
export function residentWalk(...args) {
  const walker = globalThis.__pccWalker;
  return walker ? walker.domWalk(...args) : 'cold';
}
