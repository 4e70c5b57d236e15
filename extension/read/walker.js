// The DOM walk's page functions as the worker injects them (page/domwalk.js is a content
// script, so it is no module: it leaves its functions on `globalThis.__pccWalker`, here the
// worker's); page/checks.js calls the copy a frame keeps since its document started.
// Owns: nothing but the import. Must never: run a walk in the worker.
import '../page/domwalk.js';

export const { domWalk, frameArm, framePost, documentId, markWalkFrame, walkBoxes, domAct, fieldFacts } = globalThis.__pccWalker;

