// Small page-side checks, injected with `chrome.scripting.executeScript` (no imports, no
// closures over worker state): the page's side of browser_wait_for, the settle wait after
// an action, the change tracker's answer (page/changes.js keeps the state), and the calls of
// the walk a frame keeps (page/domwalk.js).
// Owns: what each reads of the page. Must never: change the page.

/** Injected: the page's side of a wait — its load state, the text and the selector. */
export function pageCheck(text, selector, textGone) {
  const body = text !== null || textGone !== null ? document.body?.innerText || '' : '';
  let rendered = true;
  if (selector) {
    const el = document.querySelector(selector);
    rendered = !!el && el.getClientRects().length > 0;
  }
  return {
    readyState: document.readyState,
    ok: rendered && (text === null || body.includes(text)) && (textGone === null || !body.includes(textGone)),
  };
}

/** Injected: resolves with the ms waited once the document has been parsed (a document just
 * reached may still be loading: the parser's insertions are mutations too) and quiet for
 * `quietMs`, or at `maxMs`. Infinite animations (spinners) do not count as movement, nor do
 * subresources still loading (an image that never arrives keeps `load` from firing, never the
 * page from being read). */
export function quiet(quietMs, maxMs) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let last = t0;
    const mo = new MutationObserver(() => { last = performance.now(); });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const moving = () => document.getAnimations().some((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime));
    const tick = () => {
      const now = performance.now();
      if ((document.readyState !== 'loading' && now - last >= quietMs && !moving()) || now - t0 >= maxMs) {
        mo.disconnect();
        resolve(Math.round(now - t0));
      } else {
        setTimeout(tick, 20);
      }
    };
    setTimeout(tick, 20);
  });
}

/** The change tracker's state of this frame (page/changes.js), or null when it is absent.
 * `offsetElements`: budget.rs's trackerOffsetElements. The frame listens for the worker's port
 * from then on (page/domwalk.js portListen). */
export function trackerState(offsetElements) {
  globalThis.__pccWalker?.portListen?.();
  return globalThis.__pccChanges?.check(offsetElements) ?? null;
}

/** Injected: the frame's own, warm walk, or 'cold' when its document has none (it loaded
 * before the extension did): the caller then injects `domWalk` itself. */
export function residentWalk(...args) {
  const walker = globalThis.__pccWalker;
  return walker ? walker.domWalk(...args) : 'cold';
}

/** Injected: the frame's resident answerThenWalk (page/domwalk.js), or null without one. */
export function answerThenWalk(...args) {
  return globalThis.__pccWalker?.answerThenWalk?.(...args) ?? null;
}

/**
 * Injected (every frame of a tab, one injection): walkFrames' three steps at once for frames
 * whose content script listens already (domwalk.js arms each frame it starts in): post this
 * round's tags to the frame's child frames, then walk (`walkArgs`, with the round: a child
 * waits for its parent's tag). `{same: true, read}` when the walk showed exactly what walk
 * `heldWalk` (the held read's) did (domwalk.js sameWalk: it is kept as well, should another
 * frame have changed). 'cold' where the frame keeps no walk or does not listen.
 */
export async function postThenWalk(round, walkArgs, heldWalk, factArgs) {
  const walker = globalThis.__pccWalker;
  if (!walker || !globalThis.__pccListening) return 'cold';
  walker.framePost(round);
  const read = await walker.domWalk(...walkArgs);
  // The frame's form-field facts, for the result's last scrub (secrets.js), in the same task.
  const facts = walker.fieldFacts?.(...factArgs);
  return { read, facts, ...(walker.sameWalk?.(read, heldWalk, true) ? { same: true } : {}) };
}

/** Injected: resolves once the document's body holds something rendered (an element with a
 * box, or text) and has been quiet for `quietMs` after it, or at `maxMs`: a client-rendered
 * app's first render. */
export function firstContent(maxMs, quietMs) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let last = t0;
    const mo = new MutationObserver(() => { last = performance.now(); });
    mo.observe(document, { subtree: true, childList: true, characterData: true });
    const shows = () => {
      const body = document.body;
      if (!body) return false;
      if ((body.innerText || '').trim()) return true;
      for (const el of body.querySelectorAll('*')) {
        if (/^(script|style|template|noscript)$/.test(el.localName)) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 1 && r.height > 1 && el.childElementCount === 0) return true;
      }
      return false;
    };
    const tick = () => {
      const now = performance.now();
      if ((shows() && now - last >= quietMs) || now - t0 >= maxMs) {
        mo.disconnect();
        resolve(Math.round(now - t0));
      } else {
        setTimeout(tick, 25);
      }
    };
    tick();
  });
}

/**
 * Injected into the top frame for a screenshot's mask plan: every text the page paints over
 * `region` (viewport CSS px) — text nodes of the document, of open and closed shadow roots,
 * behind a modal dialog and under `aria-hidden` alike (what the state leaves out is painted
 * all the same), and the CSS-generated text of `::before` / `::after` — each with the box of
 * its glyphs (a range's, not its element's: text overflowing a narrow box is covered where it
 * shows). `[[text, x, y, width, height], …]`, each text at most `maxChars`; `{overflow: true}`
 * past `maxTexts` (the caller fails closed: what it could not check is not captured).
 */
export function paintedTexts(region, maxTexts, maxChars) {
  const out = [];
  const x1 = region.x + region.width, y1 = region.y + region.height;
  const over = (r) => r.width > 0 && r.height > 0 && r.x < x1 && r.x + r.width > region.x && r.y < y1 && r.y + r.height > region.y;
  const range = document.createRange();
  const roots = [document];
  // (Closed roots through the extension API, asked only of elements that can host one: it
  // throws on any other.)
  const HOSTS = /-|^(article|aside|blockquote|body|div|footer|h[1-6]|header|main|nav|p|section|span)$/;
  const shadowOf = (el) => el.shadowRoot ?? (HOSTS.test(el.localName) ? chrome.dom?.openOrClosedShadowRoot?.(el) : null) ?? null;
  // `content`'s text: its strings and `attr()`s (Chromium may give either resolved or not).
  const PART = /"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g;
  const generated = (el, content) => {
    if (!content || content === 'none' || content === 'normal') return '';
    let t = '';
    for (const m of content.matchAll(PART)) t += m[1] !== undefined ? m[1] : (el.getAttribute(m[2]) ?? '');
    return t;
  };
  while (roots.length) {
    const root = roots.pop();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.nodeType === 1) {
        if (/^(script|style|template|noscript|head)$/.test(n.localName)) continue;
        const shadow = shadowOf(n);
        if (shadow) roots.push(shadow);
        const r = n.getBoundingClientRect();
        if (!over(r)) continue;
        for (const pseudo of ['::before', '::after']) {
          const t = generated(n, getComputedStyle(n, pseudo).content);
          if (!t.trim()) continue;
          if (out.length >= maxTexts) return { overflow: true };
          out.push([t.slice(0, maxChars), r.x, r.y, r.width, r.height]);
        }
        continue;
      }
      const text = n.data;
      if (!text.trim()) continue;
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (!over(r)) continue;
      if (out.length >= maxTexts) return { overflow: true };
      out.push([text.length > maxChars ? text.slice(0, maxChars) : text, r.x, r.y, r.width, r.height]);
    }
  }
  return { texts: out };
}
