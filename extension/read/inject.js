// How a read's page function reaches a tab's frames, and the one wait for a child frame's
// answer. `chrome.scripting.executeScript` waits by default for each frame's document to be
// idle; a frame whose load never ends (a `javascript:` URL frame, a document an ad script
// opened and never closed, a request its server holds, a lazy frame never scrolled to) then
// holds the whole call: every read of a news page waited out the answer limit on such frames.
// Injected at once instead, every frame with a document answers in milliseconds.
// Owns: `inject` (at once, into the listed frames or all of them), `injectResident` (the
// page scripts a read keeps in a frame, on its first read) and `answerOf` (a frame's
// answer raced against the core's frameAnswerMs, each wait that runs out counted). Must
// never: wait for a document to finish loading, or wait on a frame without counting it.
import { limits } from '../services/limits.js';

let late = 0;

/** The page function `func` run at once in frames `frameIds` of the tab, or in all of its
 * frames (`'all'`): executeScript's per-frame results. */
export function inject(tabId, frameIds, func, args = []) {
  const target = frameIds === 'all' ? { tabId, allFrames: true } : { tabId, frameIds };
  return chrome.scripting.executeScript({ target, func, args, injectImmediately: true });
}

/**
 * The page scripts a read keeps in a frame, made resident in frames `frameIds` of the tab
 * where they are not (a document that started before the extension did: a tab open at its
 * install or update): the change tracker (page/changes.js) and the walk that stays warm there
 * (page/domwalk.js, with the frame-tag listener and the port's end), as the manifest runs
 * them at document_start everywhere else. Each script keeps to one copy per document, so
 * injecting them again changes nothing. Resolves when they ran (or could not: the caller's
 * next ask then answers null, as before). (Run only where a read reaches, they cost the
 * agent's first read of a page with 30 frames 30-44 ms, and spared the person's loads of such
 * pages no measurable time: a frame's cost is its isolated world, which page/memory.js needs
 * from the start anyway.)
 */
export function injectResident(tabId, frameIds) {
  return chrome.scripting.executeScript({ target: { tabId, frameIds }, files: ['page/changes.js', 'page/domwalk.js'], injectImmediately: true }).catch(() => null);
}

/** `LATE` is what `answerOf` gives for a frame that did not answer in time. */
export const LATE = Symbol('late');

/** `asked` (a frame's answer), or LATE once frameAnswerMs has passed without it. */
export function answerOf(asked) {
  let timer;
  const wait = new Promise((res) => { timer = setTimeout(() => { late++; res(LATE); }, limits.frameAnswerMs); });
  return Promise.race([asked.finally(() => clearTimeout(timer)), wait]);
}

/** How many waits for a frame's answer ran out since the worker started (`pcc.lateFrames()`:
 * the tests hold reads of pages with frames that never load to none). */
export const lateFrames = () => late;
