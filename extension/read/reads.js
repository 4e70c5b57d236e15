// Read-only page tools that walk the DOM in the isolated world (`browser_dom_cua`,
// `browser_extract`), and the page-changing rule every read follows: a read
// that overlaps a navigation is re-observed once, then fails with BROWSER_PAGE_CHANGING.
// Glue only: the walks go to wasm, which selects, bounds, redacts and renders.
import { visibleDom, extract } from '../wasm/pcc.js';
import { ready, jsonText, RawJson } from '../services/core.js';
import { domWalk, documentId, frameArm, framePost } from './walker.js';
import { residentWalk } from '../page/checks.js';
import { articleWalk } from '../page/article.js';
import { fail } from '../services/errors.js';
import { isAttached, loaderIdOf, mainSession } from './debugger.js';
import { answerOf, inject, injectResident, LATE } from './inject.js';
import { limits } from '../services/limits.js';

/** Errors that mean the document went away under the read. */
const NAVIGATED = /frame (with id \d+ )?(was )?removed|no frame with id|inspected target navigated|execution context was destroyed|cannot find context|document (was )?(unloaded|replaced)|target closed|detached while handling/i;

export function isNavigationError(e) {
  return NAVIGATED.test(String(e?.message || e));
}

/** The current document's id: the main frame's loaderId when the debugger is attached, else
 * the content script's per-document id. `undefined` between documents. */
async function docId(tabId, viaDebugger) {
  if (viaDebugger) {
    try {
      return await loaderIdOf(await mainSession(tabId));
    } catch {
      return undefined;
    }
  }
  try {
    const [res] = await chrome.scripting.executeScript({ target: { tabId }, func: documentId });
    return res?.result;
  } catch {
    return undefined; // between documents
  }
}

/**
 * A promise that rejects as soon as the tab's main frame commits a new document (the read
 * in flight can no longer see one document from start to end). A command sent to the old
 * document may otherwise wait for its full timeout, or forever.
 */
export function documentReplaced(tabId) {
  let stop;
  const promise = new Promise((_, reject) => {
    const listener = (d) => {
      if (d.tabId === tabId && d.frameId === 0) reject(new Error('document replaced: the tab navigated during the read'));
    };
    chrome.webNavigation.onCommitted.addListener(listener);
    stop = () => chrome.webNavigation.onCommitted.removeListener(listener);
  });
  promise.catch(() => {}); // observed only through the race
  return { promise, stop };
}

/**
 * Runs `read(tab, loaderId)` so that it saw one document from start to end: same document id
 * before and after, no navigation committed in between (`loaderId`: that document's, when the
 * debugger tells it). One re-observation after a short settle, then BROWSER_PAGE_CHANGING.
 * `read` must be side-effect free. `known`: the tab as the caller just read it.
 */
export async function stableRead(tabId, read, known) {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt) await settle(tabId);
    const replaced = documentReplaced(tabId);
    try {
      const race = (p) => Promise.race([p, replaced.promise]);
      const tab = (!attempt && known) || await chrome.tabs.get(tabId);
      const viaDebugger = isAttached(tabId);
      const before = tab.pendingUrl ? undefined : await race(docId(tabId, viaDebugger));
      if (!before) continue;
      const result = await race(read(tab, viaDebugger ? before : undefined));
      const [now, after] = await Promise.all([chrome.tabs.get(tabId), race(docId(tabId, viaDebugger))]);
      if (!now.pendingUrl && after === before) return result;
    } catch (e) {
      if (!isNavigationError(e)) throw e;
    } finally {
      replaced.stop();
    }
  }
  fail('BROWSER_PAGE_CHANGING', `tab ${tabId} navigated during the read, twice`);
}

/** Waits (at most budget.rs's NAVIGATION_SETTLE_MAX_MS) for a pending navigation to commit. */
async function settle(tabId) {
  const start = Date.now();
  while (Date.now() - start < limits.navigationSettleMaxMs) {
    const t = await chrome.tabs.get(tabId).catch(() => null);
    if (!t) fail('BROWSER_TARGET_MISMATCH', `tab ${tabId} was closed`, 'list tabs with browser_tabs');
    if (!t.pendingUrl && t.status === 'complete') return;
    await new Promise((r) => setTimeout(r, limits.pollMs));
  }
}

/**
 * A tool's `selector`, checked. A selector may not test an element's `value` attribute
 * (`input[value^="s3"]`): matched or not, one prefix at a time, it would read a prefilled
 * secret that no result ever shows. Attribute names are compared after CSS unescaping.
 */
export function selectorOf(params) {
  const s = params.selector;
  if (s === '') fail('INVALID_REQUEST', 'selector must not be empty');
  if (s && testsValue(s)) fail('INVALID_REQUEST', 'a selector may not test the value attribute', 'select by id, name, role or text instead');
  return s || null;
}

const unescapeCss = (t) => t.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_, hex, ch) => (hex ? String.fromCodePoint(parseInt(hex, 16) || 0xfffd) : ch));
function testsValue(selector) {
  for (const m of selector.matchAll(/\[\s*((?:\\[0-9a-fA-F]{1,6}\s?|\\.|[^\s\]=~|^$*\\])+)\s*[~|^$*]?=/g)) {
    const name = unescapeCss(m[1]).toLowerCase().replace(/^.*\|/, '');
    if (name === 'value') return true;
  }
  return false;
}

function walkError(r, selector) {
  if (r?.badSelector) fail('INVALID_REQUEST', `invalid selector ${JSON.stringify(selector).slice(0, limits.echoChars)}`, 'pass a CSS selector');
  if (r?.notFound) fail('BROWSER_SELECTOR_NOT_FOUND', `no element matches ${JSON.stringify(selector).slice(0, limits.echoChars)}`);
}

/**
 * Runs `func` in frame 0 (errors propagate) and in each of `children` (child frame ids), at
 * once (inject.js), each raced against the core's `frameAnswerMs`: a frame that still does not
 * answer is left out instead of holding the read. A frame whose answer is 'cold'
 * (`residentWalk` found no walk there: a document that started before the extension did) gets
 * the page scripts a read keeps (inject.js injectResident) and runs `func` again, or `cold` instead
 * when they cannot stay there.
 */
async function inFrames(tabId, children, func, args, cold = null) {
  const run = async (frameId) => {
    let r = await inject(tabId, [frameId], func, args);
    if (cold && r[0]?.result === 'cold') r = await injectResident(tabId, [frameId]).then(() => inject(tabId, [frameId], func, args));
    return cold && r[0]?.result === 'cold' ? inject(tabId, [frameId], cold, args) : r;
  };
  const child = async (frameId) => {
    const r = await answerOf(run(frameId).then((r) => (r[0] ? { ...r[0], frameId } : null), () => null));
    return r === LATE ? null : r;
  };
  const [first, ...rest] = await Promise.all([run(0), ...children.map(child)]);
  return [...first.map((r) => ({ ...r, frameId: 0 })), ...rest.filter(Boolean)];
}

/**
 * The walks of every frame of the tab (frame 0 first), as the core's PageWalk. With `keep`
 * (`{id, kept}`), every frame keeps the walked elements under that id for DOM-source refs;
 * `asRendered: false` reads text without its CSS text-transform (the extract).
 */
export async function walkFrames(tab, selector, allFrames, textCap, keep = null, asRendered = true) {
  await ready;
  let results;
  try {
    let round = null;
    // Verify parent-frame relations (only a tab with child frames has any): each parent
    // posts a one-time tag to each child window; a child shown under an element must report
    // that element's tag. A child's walk waits for its tag (domWalk's tagWaitMs).
    // The tab's frames are listed once: the same frames are armed, posted to and walked.
    const frames = allFrames ? (await chrome.webNavigation.getAllFrames({ tabId: tab.id }).catch(() => null)) || [] : [];
    const children = frames.filter((f) => f.frameId !== 0).map((f) => f.frameId);
    if (children.length) {
      const armed = await inFrames(tab.id, children, frameArm, []);
      if (armed.some((r) => r.result > 0)) {
        round = crypto.randomUUID();
        await inFrames(tab.id, children, framePost, [round]);
      }
    }
    results = await inFrames(tab.id, children, residentWalk, walkArgs(selector, textCap, round, keep, asRendered), domWalk);
  } catch (e) {
    if (isNavigationError(e)) throw e;
    fail('BROWSER_SCRIPT_FAILED', `could not read the page: ${String(e.message).slice(0, limits.causeChars)}`);
  }
  return pageWalk(results, selector);
}

/** domWalk's arguments (the core's caps). */
export function walkArgs(selector, textCap, round, keep, asRendered) {
  const caps = { attrChars: limits.walkAttrChars, pseudoChars: limits.walkPseudoChars, tagWaitMs: limits.frameTagWaitMs, hitTests: limits.walkHitTests, pseudoSelectors: limits.walkPseudoSelectors };
  return [selector, limits.walkMaxNodes, textCap, round, keep, asRendered, caps];
}

/** The frames' walk results (`{frameId, result}`, frame 0's among them) as the core's PageWalk. */
export function pageWalk(results, selector) {
  const main = results.find((r) => r.frameId === 0)?.result;
  if (!main) fail('BROWSER_SCRIPT_FAILED', 'the page returned nothing');
  walkError(main, selector);
  const frames = results
    .filter((r) => r.result && r.result.walk)
    .map((r) => ({ frameId: r.frameId, tag: r.result.frameTag || '', url: r.result.url, viewport: r.result.viewport, nodes: new RawJson(r.result.walk.nodes) }));
  const page = { url: main.url, title: main.title, frames };
  if (main.scopeIndex !== undefined) page.scopeIndex = main.scopeIndex;
  return { page, main };
}

export async function domCua(tab, params, signal) {
  const selector = selectorOf(params);
  const opts = { maxChars: params.maxChars, maxNodes: params.maxNodes };
  return stableRead(tab.id, async (t) => {
    const { page } = await walkFrames(t, selector, true, limits.walkTextChars);
    signal?.throwIfAborted(); // abandoned: no rendering for nobody
    return visibleDom(jsonText(page), opts);
  }, tab);
}

export async function extractContent(tab, params, signal) {
  const selector = selectorOf(params);
  if (params.format !== undefined && !['markdown', 'text'].includes(params.format)) fail('INVALID_REQUEST', 'format is "markdown" or "text"');
  const opts = { maxChars: params.maxChars, format: params.format, offset: params.offset };
  return stableRead(tab.id, async (t) => {
    await ready;
    // The caller's selector scopes the read; otherwise the article Readability finds, else
    // the whole body.
    const page = (!selector && await readArticle(t.id, limits)) || (await walkFrames(t, selector, false, limits.walkExtractTextChars, null, false)).page;
    signal?.throwIfAborted();
    return extract(jsonText(page), opts);
  }, tab);
}

/** The article walk (article.js) of frame 0, injecting Readability once per document; null when there is none. */
async function readArticle(tabId, limits) {
  const run = async () => (await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: articleWalk, args: [limits.walkMaxNodes, limits.walkExtractTextChars, limits.walkAttrChars, limits.articleMetaChars] }))[0]?.result;
  try {
    let r = await run();
    if (r?.needsReadability) {
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: ['page/vendor/Readability.js'] });
      r = await run();
    }
    return r?.article ? r : null;
  } catch (e) {
    if (isNavigationError(e)) throw e;
    return null; // a page the extension cannot script: the walk says why
  }
}
