// The article of a page for `browser_extract`, found by Mozilla Readability (vendor/, the
// reader view of Firefox) run in the page's isolated world on a clone of the document.
//
// Owns: preparing the clone (what the page does not render, form fields and rich-text
// editors never reach Readability), running it, and returning its article as a walk in the
// schema of src/input/dom_walk.rs plus the page's own metadata.
// Must never: touch the live document (Readability rewrites what it reads: only the clone),
// read a field's value, or decide about budgets, redaction or rendering (the core's).

/**
 * `{needsReadability}` until vendor/Readability.js is injected in this world; `{article:
 * null}` when Readability finds no article; else `{url, title, article: {byline, site,
 * published, lang}, frames: [{frameId: 0, nodes}]}`.
 */
export function articleWalk(maxNodes, textCap, attrChars, metaChars) {
  if (typeof Readability !== 'function') return { needsReadability: true };
  const BLOCK_TAGS = /^(html|body|div|p|h[1-6]|ul|ol|li|dl|dt|dd|table|thead|tbody|tfoot|tr|td|th|section|article|main|header|footer|nav|aside|figure|figcaption|blockquote|pre|form|hr|address|details)$/;
  const doc = document.cloneNode(true);
  // The clone has the same elements in the same order: walk both in step and drop from the
  // clone what the live page hides or what holds user input rather than page text.
  const live = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
  const copy = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_ELEMENT);
  const drop = [];
  for (let a = live.currentNode, b = copy.currentNode; a && b; a = live.nextNode(), b = copy.nextNode()) {
    if (a.localName !== b.localName) return { article: null }; // the page changed under us
    if (/^(input|textarea|select|option|button|template|dialog|iframe|frame|object)$/.test(a.localName)
      || (a.isContentEditable && !a.parentElement?.isContentEditable)) {
      drop.push(b);
      continue;
    }
    // The head and scripts are never shown yet hold what Readability reads for metadata
    // (meta tags, JSON-LD); it removes scripts and styles itself.
    if (/^(head|title|meta|link|script|style|base)$/.test(a.localName)) continue;
    const cs = getComputedStyle(a);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse' || Number(cs.opacity) === 0) drop.push(b);
    // An inline tag the page lays out as a block (a caption's <span>s) stays a block: its
    // text is not glued to its neighbour's. (Block tags are blocks to the core anyway.)
    else if (!/^(inline|contents)/.test(cs.display) && !BLOCK_TAGS.test(a.localName)) b.setAttribute('data-pcc-block', '');
  }
  for (const b of drop) b.remove();
  let art = null;
  try {
    // The element itself, not its HTML: it is walked below without a second parse.
    art = new Readability(doc, { serializer: (el) => el }).parse();
  } catch { /* a page Readability cannot read: the core falls back to the body */ }
  if (!art?.content) return { article: null };
  const nodes = [];
  const stack = [[art.content, -1]];
  while (stack.length && nodes.length < maxNodes) {
    const [n, parent] = stack.pop();
    if (n.nodeType === Node.TEXT_NODE) {
      // Whitespace between inline elements is a space, not nothing.
      const t = n.data.trim() ? n.data : ' ';
      nodes.push({ parent, tag: '#text', text: t.length > textCap ? t.slice(0, textCap) : t });
      continue;
    }
    if (n.nodeType !== Node.ELEMENT_NODE) continue;
    const attrs = {};
    for (const k of ['href', 'alt', 'title', 'role']) {
      const v = n.getAttribute(k);
      if (v !== null) attrs[k] = v.length > attrChars ? v.slice(0, attrChars) : v;
    }
    const i = nodes.length;
    nodes.push(n.hasAttribute('data-pcc-block') ? { parent, tag: n.localName, attrs, display: 'block' } : { parent, tag: n.localName, attrs });
    for (let k = n.childNodes.length - 1; k >= 0; k--) stack.push([n.childNodes[k], i]);
  }
  const meta = (v) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, metaChars) : undefined);
  return {
    url: location.href,
    title: meta(art.title) ?? document.title,
    article: { byline: meta(art.byline), site: meta(art.siteName), published: meta(art.publishedTime), lang: meta(art.lang) },
    frames: [{ frameId: 0, nodes }],
  };
}
