// The DOM walk (the DOM source, browser_dom_cua, the extract without an article). A content
// script too (document_start, every frame, like changes.js): the walk then runs as a function
// that stays in the frame's isolated world, warm after its first call (a function injected
// per call with chrome.scripting.executeScript runs cold every time: 1.3-1.6x the time on a
// 500-element page). The worker imports this file as well (extension/read/walker.js) to inject a
// function into a frame where the content script did not run. Page CSP does not apply in the
// isolated world. The walk returns raw facts in the schema of src/input/dom_walk.rs; the service worker
// hands them to wasm. It bounds raw sizes and never reads the value of a password or hidden
// input; every decision about meaning is the core's. A walk with `keep = {id, kept}` keeps
// its elements in the isolated world under that id (the last `kept` walks), so that actions
// on its `dom` refs find exactly those elements again (never another walk's element at the
// same index). `asRendered` applies CSS text-transform to text (what the reader sees; the
// extract reads the source text instead). `attrChars`, `pseudoChars`: budget.rs's caps of an
// attribute value and of CSS-generated text; `tagWaitMs`: how long a child frame waits for its
// parent's tag.
// Owns: `globalThis.__pccWalker` (the functions below). Must never: close over anything
// outside its own function (each is also injected alone).
async function domWalk(selector, maxNodes, textCap, round, keep, asRendered, { attrChars, pseudoChars, tagWaitMs, hitTests, pseudoSelectors, onScrollers }) {
  // A child frame: its parent's one-time tag crosses processes asynchronously (framePost);
  // wait for it, at most tagWaitMs, instead of the worker sleeping for every page.
  // (frameArm's listener wakes the wait as soon as a tag comes: no polling.)
  const until = performance.now() + tagWaitMs;
  while (round && window !== window.top && globalThis.__pccReceived?.round !== round && performance.now() < until) {
    await new Promise((resolve) => {
      const t = setTimeout(resolve, until - performance.now());
      (globalThis.__pccTagWaiters ??= new Set()).add(() => { clearTimeout(t); resolve(); });
    });
  }
  // The attributes the core reads (an element's own are few: they are looked up here, not
  // each of these asked for).
  const ATTRS = new Set(['id', 'name', 'type', 'role', 'href', 'placeholder', 'aria-label', 'aria-labelledby', 'aria-hidden', 'data-testid',
    'aria-expanded', 'aria-selected', 'aria-disabled', 'aria-level', 'aria-haspopup', 'contenteditable', 'autocomplete',
    'alt', 'title', 'tabindex', 'list', 'multiple', 'hidden', 'inert', 'value', 'src', 'aria-checked',
    'aria-pressed', 'size', 'headers', 'scope', 'abbr', 'summary', 'open', 'readonly', 'required', 'aria-readonly',
    'aria-required', 'min', 'max', 'rules', 'axis', 'label', 'xlink:title', 'aria-invalid', 'aria-owns']);
  const TEXT_CAP = textCap;
  // The name a label, or what a field's aria-labelledby points at, gives `field`: its content
  // as Chromium reads it for a name. CSS-generated text counts; an aria-label or an image's
  // alt stands for what it is on; a control inside gives its value (a text field's, a
  // select's or listbox's chosen option, a range's; a menu nothing; never the field itself,
  // nor a password or hidden field's); hidden content is left out unless the reference
  // itself is hidden; blocks are set apart by spaces; a title stands in for empty content.
  // An input whose value no walk reads: a password (or one that ever was, memory.js) or hidden.
  const secretInput = (el) => el.localName === 'input' && (/^(password|hidden)$/i.test(el.type) || !!globalThis.__pccWasPassword?.has(el));
  const TEXT_TYPES = /^(text|search|email|tel|url|number|range)$/;
  const userInvalid = (el) => {
    try { return el.matches(':user-invalid'); } catch { return false; } // (Chromium 119+)
  };
  // CSS-generated text: the strings of a `content` value and the attributes it names, in
  // order (an image or a counter reads as nothing, as in Chromium's names: a `counters()`
  // separator string included).
  // A `content` with alternative text (`"★" / "Favorite"`) reads as that text: the part after
  // the first `/` outside strings and functions.
  const altOf = (c) => {
    let quote = '', depth = 0;
    for (let i = 0; i < c.length; i++) {
      const ch = c[i];
      if (quote) { if (ch === '\\') i++; else if (ch === quote) quote = ''; } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if (ch === '/' && depth === 0) return c.slice(i + 1);
    }
    return c;
  };
  // A CSS string's text, its escapes resolved.
  const unescaped = (t) => t.replace(/\\([0-9a-f]{1,6}) ?|\\(.)/gi, (_, h, c) => (h ? String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)) : c));
  // `open-quote` / `close-quote`: the pair of the element's `quotes` for its depth among the
  // quotations around it (`auto`: English curly quotes, double then single).
  const quoteMark = (el, open) => {
    let depth = 0;
    for (let p = el.parentElement; p; p = p.parentElement) if (p.localName === 'q') depth++;
    const q = getComputedStyle(el).quotes;
    const marks = q === 'auto' ? ['\u201c', '\u201d', '\u2018', '\u2019'] : [...q.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescaped(m[1]));
    const at = Math.min(depth, Math.floor(marks.length / 2) - 1) * 2;
    return at >= 0 ? marks[at + (open ? 0 : 1)] ?? '' : '';
  };
  const contentText = (el, c) => (!c || c === 'none' || c === 'normal' ? '' : [...altOf(c).matchAll(/(?:url|counters?)\((?:"(?:[^"\\]|\\.)*"|[^)"])*\)|"((?:[^"\\]|\\.)*)"|attr\(([\w-]+)\)|(?<![\w-])(open|close)-quote/g)]
    .map((m) => (m[2] ? el.getAttribute(m[2]) ?? '' : m[3] ? quoteMark(el, m[3] === 'open') : unescaped(m[1] ?? ''))).join(''));
  // Generated content comes only from a style rule that names the pseudo-element (the user
  // agent's own: a <q>'s quotes). Reading a pseudo-element's style is the walk's costliest
  // read, and most elements have no such rule: `mayGenerate(el)` says whether the selector of
  // any rule for ::before or ::after, the pseudo-element taken off, matches the element (a
  // superset of those that have generated content). Every element may when a rule cannot be
  // read (a cross-origin sheet, a nested or scoped rule, a selector that no longer parses),
  // and from a shadow host on whose own sheets have such rules (`:host::before`, `::slotted`);
  // and when there are more such selectors than `pseudoSelectors` (matching them all would
  // cost more than it spares).
  const pseudoRules = globalThis.__pccPseudoRules ??= new WeakMap(); // sheet → {rules, n, first, last, sel}
  const pseudoSelectorOf = (root) => {
    const sheets = [];
    const gather = (list) => {
      for (const sheet of list) {
        sheets.push(sheet);
        for (const rule of sheet.cssRules) {
          const kind = rule.constructor.name;
          if (kind === 'CSSImportRule') { if (rule.styleSheet) gather([rule.styleSheet]); } else if (kind !== 'CSSLayerStatementRule') break;
        }
      }
    };
    try {
      gather([...(root.styleSheets ?? []), ...(root.adoptedStyleSheets ?? [])]);
    } catch {
      return null; // a cross-origin sheet: its rules cannot be read
    }
    const parts = [];
    for (const sheet of sheets) {
      const rules = sheet.cssRules;
      let known = pseudoRules.get(sheet);
      if (!known || known.rules !== rules || known.n !== rules.length || known.first !== rules[0] || known.last !== rules[rules.length - 1]) {
        known = { rules, n: rules.length, first: rules[0], last: rules[rules.length - 1], sel: pseudoSelectorsIn(rules) };
        pseudoRules.set(sheet, known);
      }
      if (known.sel === null) return null;
      if (known.sel) parts.push(known.sel);
    }
    const list = parts.join(', ');
    // (Commas count the selectors from above: some stand inside `:is()` or `:not()`.)
    return list && list.split(',').length > pseudoSelectors ? null : list;
  };
  // The selectors of a rule list's rules for ::before / ::after, each pseudo-element as
  // `:is(*)`, as one list; null when that cannot be told.
  function pseudoSelectorsIn(rules) {
    const out = [];
    const GROUPS = /^CSS(Media|Supports|LayerBlock|Container)Rule$/;
    // Rules that style no element (imports: read as sheets of their own).
    const ELSEWHERE = /^CSS(Import|LayerStatement|Keyframes|Page|FontFace|FontFeatureValues|FontPaletteValues|Property|CounterStyle|Namespace|ViewTransition|PositionTry)Rule$/;
    const scan = (list) => {
      for (const rule of list) {
        const kind = rule.constructor.name;
        if (kind === 'CSSStyleRule') {
          if (rule.cssRules?.length) return false; // nested rules: their selectors are relative
          const s = withoutPseudo(rule.selectorText);
          if (s === null) continue;
          try { document.documentElement.matches(s); } catch { return false; }
          out.push(s);
        } else if (GROUPS.test(kind)) {
          if (!scan(rule.cssRules)) return false;
        } else if (!ELSEWHERE.test(kind) && 'cssRules' in rule) {
          return false; // @scope, @starting-style, a grouping rule not known here
        }
      }
      return true;
    };
    return scan(rules) ? out.join(', ') : null;
  }
  // A selector with its ::before / ::after (or :before / :after) made `:is(*)` (any element),
  // outside strings and escapes; null when it names neither.
  function withoutPseudo(sel) {
    let out = '', quote = '', found = false;
    for (let i = 0; i < sel.length; i++) {
      const ch = sel[i];
      if (ch === '\\') { out += ch + (sel[i + 1] ?? ''); i++; continue; }
      if (quote) { if (ch === quote) quote = ''; out += ch; continue; }
      if (ch === '"' || ch === "'") { quote = ch; out += ch; continue; }
      const m = ch === ':' && /^::?(before|after)(?![\w-])/i.exec(sel.slice(i, i + 9));
      if (m) { out += ':is(*)'; i += m[0].length - 1; found = true; continue; }
      out += ch;
    }
    return found ? out : null;
  }
  const documentPseudo = pseudoSelectorOf(document);
  const pseudoMatch = documentPseudo === null ? null : documentPseudo ? `q, ${documentPseudo}` : 'q';
  let anyPseudo = pseudoMatch === null; // every element from here on may have generated content
  const mayGenerate = (el) => anyPseudo || el.matches(pseudoMatch);
  // (A pseudo-element not rendered gives nothing; one that is a box of its own is set apart.)
  const generated = (el, pseudo) => {
    if (!mayGenerate(el)) return '';
    const cs = getComputedStyle(el, pseudo);
    const t = contentText(el, cs.content);
    if (!t || cs.display === 'none' || cs.visibility !== 'visible') return '';
    return cs.display.startsWith('inline') ? t : ` ${t} `;
  };
  const chosen = (el) => [...el.querySelectorAll('[role=option][aria-selected=true]')].map((o) => o.textContent).join(' ');
  const controlValue = (el, tag, role) => {
    if (role === 'menu') return '';
    if (tag === 'input') {
      if (secretInput(el)) return '';
      if (/^(button|submit|reset)$/.test(el.type)) return el.value || { submit: 'Submit', reset: 'Reset' }[el.type] || '';
      return TEXT_TYPES.test(el.type) ? el.value : null;
    }
    if (tag === 'textarea') return el.value;
    if (tag === 'select') return [...el.selectedOptions].map((o) => o.label).join(' ');
    if (role === 'listbox') return chosen(el);
    if (role === 'combobox') {
      const owned = (el.getAttribute('aria-owns') || el.getAttribute('aria-controls') || '').split(/\s+/).map((id) => id && el.getRootNode().getElementById?.(id)).filter(Boolean);
      // (else its text field's value, else the text of a combobox that holds nothing but text)
      return [el, ...owned].map(chosen).join(' ').trim() || el.querySelector('input')?.value || (el.children.length ? '' : el.textContent.trim());
    }
    if (/^(slider|spinbutton|scrollbar|progressbar|meter)$/.test(role)) return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? '';
    return null;
  };
  const nameText = (root, field, byLabelledby) => {
    const hiddenToo = !root.checkVisibility?.({ visibilityProperty: true });
    const text = (node, depth) => {
      if (node.nodeType === Node.TEXT_NODE) return node.data;
      if (node === field) return ' ';
      if (node.nodeType !== Node.ELEMENT_NODE || depth > 64) return '';
      const tag = node.localName;
      if (tag === 'br') return ' ';
      if (/^(script|style|template|noscript)$/.test(tag)) return '';
      if (!hiddenToo && (node.getAttribute('aria-hidden') === 'true' || !node.checkVisibility?.({ visibilityProperty: true }))) return '';
      const role = node.getAttribute('role');
      const value = node !== root ? controlValue(node, tag, role) : null;
      if (value !== null) return ` ${value} `;
      const label = (node !== root || byLabelledby) && node.getAttribute('aria-label')?.trim();
      const image = /^(img|area)$/.test(tag) || (tag === 'input' && node.type === 'image');
      // (An image's text stands apart from the text around it, as Chromium joins it.)
      let t = label || (image ? ` ${node.getAttribute('alt') ?? node.getAttribute('title') ?? ''} ` : '');
      if (!label && !image) {
        t = generated(node, '::before');
        for (const k of node.childNodes) {
          t += text(k, depth + 1);
          if (t.length > TEXT_CAP) break; // bounded like every walked text
        }
        t += generated(node, '::after');
        if (!t.trim() && node !== root) t = node.getAttribute('title') ?? '';
      }
      return getComputedStyle(node).display.startsWith('inline') ? t : ` ${t} `;
    };
    return text(root, 0).replace(/\s+/g, ' ').trim();
  };
  const nodes = [];
  const elements = [];
  let scopeIndex;
  // A selector narrows the top document only (frames are walked whole, then fenced by the core).
  const top = window === window.top;
  let scope = null;
  if (selector && top) {
    try {
      scope = document.querySelector(selector);
    } catch {
      return { badSelector: true };
    }
    if (!scope) return { notFound: true };
  }
  // An open modal dialog makes the rest of the page inert: it is walked as such.
  let modal = null;
  try { modal = document.querySelector(':modal'); } catch { /* :modal unsupported */ }
  const active = document.activeElement;
  // (Not a list item: Chromium names none from its content, measured; its generated text
  // served no name, and list items hold a fifth of what the walk asked for one.)
  const NAMED_BY_CONTENT = /^(a|button|label|summary|h[1-6]|option|legend|caption|th|td)$/;
  // The nodes to visit, with their parent's index and whether they are inside a name: three
  // stacks (no array made per node).
  const stack = [document.documentElement], parents = [-1], inNames = [false];
  // Whitespace-only text is not kept: the next sibling says `ws: true` instead (parents
  // whose next child is preceded by whitespace).
  const wsBefore = new Set();
  const cursors = [];
  const tables = new Map(); // table element → {bg, spacing}
  // Text shows as its parent's text-transform renders it (Chromium's names do too).
  const transforms = [];
  // MathML's single-letter identifier (`<mi>x</mi>`, text-transform: math-auto) renders in
  // mathematical italic, as Chromium reads it: Latin and Greek letters (italic h is U+210E).
  const mathItalic = (t) => {
    const c = t.codePointAt(0);
    if ([...t].length !== 1) return t;
    if (c === 0x68) return '\u210e';
    const at = c >= 0x41 && c <= 0x5a ? 0x1d434 + c - 0x41 : c >= 0x61 && c <= 0x7a ? 0x1d44e + c - 0x61
      : c >= 0x391 && c <= 0x3a9 ? 0x1d6e2 + c - 0x391 : c >= 0x3b1 && c <= 0x3c9 ? 0x1d6fc + c - 0x3b1 : 0;
    return at ? String.fromCodePoint(at) : t;
  };
  const cased = (node, t, tt) => {
    if (tt === 'math-auto') return mathItalic(t);
    if (tt === 'uppercase') return t.toUpperCase();
    if (tt === 'lowercase') return t.toLowerCase();
    if (tt !== 'capitalize') return t;
    const prev = node.previousSibling?.textContent;
    const wordStart = !prev || /\s$/.test(prev);
    return t.replace(/(^|[^\p{L}\p{N}'’])(\p{L})/gu, (m, a, b, at) => (at === 0 && !a && !wordStart ? m : a + b.toUpperCase()));
  };
  const overflowing = [];
  while (stack.length && nodes.length < maxNodes) {
    const node = stack.pop(), parent = parents.pop(), inName = inNames.pop();
    const i = nodes.length;
    if (node.nodeType === Node.TEXT_NODE) {
      const t = node.data;
      if (!t.trim()) {
        if (t) wsBefore.add(parent);
        // Whitespace that ends an element (`<strong> </strong>`) is a space after it.
        if (t && !node.nextSibling && parent >= 0) nodes[parent].wsEnd = true;
        continue;
      }
      const entry = { parent, tag: '#text', text: cased(node, t.length > TEXT_CAP ? t.slice(0, TEXT_CAP) : t, transforms[parent]) };
      if (wsBefore.delete(parent)) entry.ws = true;
      nodes.push(entry);
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) {
      // A quotation's marks (no node of the DOM), as the text they render (below).
      if (node.pccQuote !== undefined) {
        const entry = { parent, tag: '#text', text: node.pccQuote };
        if (wsBefore.delete(parent)) entry.ws = true;
        nodes.push(entry);
      }
      continue;
    }
    const tag = node.localName;
    const attrs = {};
    // (Names first: iterating `attributes` makes an Attr object of each, the walk's costliest line.)
    const names = node.getAttributeNames();
    // An element that says it is `none` / `presentation` has all its ARIA attributes read: a
    // global one undoes that (the core knows which).
    const bare = names.includes('role') && /(^|\s)(none|presentation)(\s|$)/i.test(node.getAttribute('role'));
    for (const a of names) {
      if (!ATTRS.has(a) && !(bare && a.startsWith('aria-'))) continue;
      const v = node.getAttribute(a);
      attrs[a] = v.length > attrChars ? v.slice(0, attrChars) : v;
    }
    const behind = modal && !modal.contains(node) && !node.contains(modal);
    if (behind) attrs.inert = '';
    // A field that was ever a password in this document (memory.js) stays one.
    const was = tag === 'input' && (node.type === 'password' || globalThis.__pccWasPassword?.has(node));
    if (was) { attrs.type = 'password'; globalThis.__pccWasPassword?.add(node); }
    const secret = secretInput(node);
    if (secret) delete attrs.value;
    const cs = getComputedStyle(node);
    // (Only an element whose overflow is not `visible` can scroll.)
    if (onScrollers && (cs.overflowX !== 'visible' || cs.overflowY !== 'visible')) overflowing.push(node);
    const r = node.getBoundingClientRect();
    const entry = { parent, tag, rect: [r.x, r.y, r.width, r.height] };
    // No attributes, no `attrs` (most elements); a field always has them: without them the
    // core takes its value as unsafe.
    if (Object.keys(attrs).length || tag === 'input' || tag === 'textarea' || tag === 'select') entry.attrs = attrs;
    // The defaults are left out (the core reads a missing one as inline, visible, opaque).
    if (cs.display !== 'inline') entry.display = cs.display;
    if (cs.visibility !== 'visible') entry.visibility = cs.visibility;
    if (cs.opacity !== '1') entry.opacity = Number(cs.opacity);
    if (wsBefore.delete(parent)) entry.ws = true;
    // Clicks the page handles: an onclick attribute, or a pointer cursor starting here.
    cursors[i] = cs.cursor;
    if (asRendered && cs.textTransform !== 'none') transforms[i] = cs.textTransform;
    if (node.hasAttribute('onclick') || (cs.cursor === 'pointer' && cursors[parent] !== 'pointer')) entry.clickable = true;
    if (tag === 'td') {
      // What Chromium's data-table guess reads of a cell's box (src/tree/dom_tree.rs CellTally).
      let box = 0;
      [cs.borderTopWidth, cs.borderBottomWidth, cs.borderLeftWidth, cs.borderRightWidth].forEach((w, k) => { if (parseFloat(w) > 0) box |= 1 << k; });
      const table = node.closest('table');
      if (table) {
        let t = tables.get(table);
        if (!t) {
          const ts = getComputedStyle(table);
          t = { bg: ts.backgroundColor, spacing: ts.borderSpacing.split(' ').every((v) => parseFloat(v) > 0) };
          tables.set(table, t);
        }
        if (t.spacing && cs.backgroundColor !== t.bg && !/^(transparent|rgba\(.*, 0\))$/.test(cs.backgroundColor)) box |= 16;
      }
      if (box) entry.cellBox = box;
    }
    if (tag === 'select') entry.value = [...node.selectedOptions].map((o) => o.label).join(', ').slice(0, TEXT_CAP);
    else if ('value' in node && typeof node.value === 'string' && /^(input|textarea)$/.test(tag) && !secret) entry.value = node.value.slice(0, TEXT_CAP);
    if ('checked' in node && tag === 'input') entry.checked = node.checked;
    if (tag === 'input' && node.indeterminate && node.type === 'checkbox') entry.mixed = true;
    // A field failing its constraints, as Chromium tells it: an empty required field only once
    // the user has been at it (no value is read: a password's validity is its own).
    const validity = (tag === 'input' || tag === 'select' || tag === 'textarea') && node.willValidate ? node.validity : null;
    if (validity && !validity.valid && (!validity.valueMissing || userInvalid(node))) entry.invalid = true;
    if (tag === 'option') entry.selected = node.selected;
    if ('disabled' in node) entry.disabled = !!node.disabled;
    if (node === active) entry.focused = true;
    // The verified parent-frame relation: the tag posted to this element's window (framePost).
    if ((tag === 'iframe' || tag === 'frame') && round && globalThis.__pccPosted?.round === round) {
      const t = globalThis.__pccPosted.map.get(node);
      if (t) entry.frameTag = t;
    }
    if (tag === 'iframe' || tag === 'frame') {
      // Where its document starts: inside the border and padding, at the element's scale.
      const scale = node.offsetWidth > 0 ? r.width / node.offsetWidth : 1;
      const left = node.clientLeft + parseFloat(cs.paddingLeft || 0), top = node.clientTop + parseFloat(cs.paddingTop || 0);
      if (left || top || Math.abs(scale - 1) > 0.001) entry.frameBox = [left, top, scale];
    }
    if (node.labels && node.labels.length) entry.label = [...node.labels].map((l) => nameText(l, node)).join(' ').slice(0, TEXT_CAP);
    else if (/^(input|textarea|select)$/.test(tag) && node.hasAttribute('aria-labelledby')) {
      // A field named only by aria-labelledby: its label text, for the name and for the
      // sensitivity rules (the referenced text may be hidden or outside this walk).
      const root = node.getRootNode();
      const text = node.getAttribute('aria-labelledby').split(/\s+/).map((id) => id && root.getElementById?.(id)).filter(Boolean).map((el) => nameText(el, node, true)).join(' ').trim();
      if (text) entry.label = text.slice(0, TEXT_CAP);
    }
    if (node === scope) scopeIndex = i;
    nodes.push(entry);
    elements[i] = node;
    // An SVG `<use>` renders a copy of what it references (a sprite's `<symbol>`, a `<g>`):
    // Chromium shows that copy as a group named by the original's `<title>` (an icon's only
    // name). The copy is a closed user-agent tree: its group is written here, as a `g` holding
    // that title.
    if (tag === 'use' && nodes.length + 3 <= maxNodes) {
      const id = /^#(.+)/.exec(node.getAttribute('href') ?? node.getAttribute('xlink:href') ?? '')?.[1];
      const used = id && node.getRootNode().getElementById?.(id);
      const title = used && /^(symbol|g|svg)$/.test(used.localName) && [...used.children].find((c) => c.localName === 'title');
      const text = title ? title.textContent.trim().slice(0, TEXT_CAP) : '';
      if (text) nodes.push({ parent: i, tag: 'g', rect: entry.rect }, { parent: i + 1, tag: 'title', rect: [0, 0, 0, 0] }, { parent: i + 2, tag: '#text', text });
    }
    // Inert, text that is not page content, or fallback content a browser with frames and
    // media never renders.
    if (behind || /^(script|style|template|noscript|iframe|frame|video|audio)$/.test(tag)) continue;
    // A custom element's closed shadow root is read too (the extension API reaches it).
    const shadow = node.shadowRoot ?? (tag.includes('-') ? chrome.dom?.openOrClosedShadowRoot?.(node) : null);
    // A shadow tree's own rules style its host, its elements and what its slots take.
    if (shadow && !anyPseudo && pseudoSelectorOf(shadow) !== '') anyPseudo = true;
    // Inside what takes its name from its content, CSS-generated text (::before / ::after)
    // is part of the name, as Chromium computes it; elsewhere it is not read (cost).
    const named = inName || NAMED_BY_CONTENT.test(tag) || node.hasAttribute('role');
    if (named) {
      const before = generated(node, '::before');
      if (before) entry.before = before.slice(0, pseudoChars);
      const after = generated(node, '::after');
      if (after) entry.after = after.slice(0, pseudoChars);
    }
    // The children as they render, pushed last to first (no list is made of them): a shadow
    // host's shadow root (its own children show only where a slot takes them), a slot's
    // assigned nodes (else its fallback content), any other element's children.
    // A `<q>` in running text renders its quotation marks (the user agent's generated
    // content, which Chromium reads as text): they are its first and last text. (In a name
    // they are its before / after, above. Other generated text is read only there: reading
    // every element's pseudo-elements for running text — a price's "$", a separator — made a
    // read after a change 7-19% slower, A/B on four corpus pages: ehow-1 22.9 -> 27.3 ms.)
    const quoted = tag === 'q' && !named;
    const close = quoted ? generated(node, '::after') : '';
    if (close) { stack.push({ pccQuote: close }); parents.push(i); inNames.push(false); }
    const slotted = tag === 'slot' && node.assignedNodes ? node.assignedNodes() : null;
    if (slotted?.length) {
      for (let k = slotted.length - 1; k >= 0; k--) { stack.push(slotted[k]); parents.push(i); inNames.push(named); }
    } else {
      for (let k = (shadow ?? node).lastChild; k; k = k.previousSibling) { stack.push(k); parents.push(i); inNames.push(named); }
    }
    const open = quoted ? generated(node, '::before') : '';
    if (open) { stack.push({ pccQuote: open }); parents.push(i); inNames.push(false); }
  }
  /**
   * Occlusion, as the AX source reads it from paint order: an element a user could act on whose
   * visible center in the viewport hits a positioned (fixed, absolute, sticky) element painted
   * above it, neither its ancestor nor its descendant, is `covered` (a sticky header over a
   * row, a cookie banner, a modal's backdrop). The first `hitTests` such elements are tested.
   */
  function coverage() {
    const ACTABLE = /^(a|button|input|select|textarea|summary)$/;
    const up = (n) => n.parentElement ?? n.parentNode?.host ?? null; // across shadow roots
    let tested = 0;
    for (let i = 0; i < nodes.length && tested < hitTests; i++) {
      const el = elements[i];
      const e = nodes[i];
      if (!el || !(ACTABLE.test(e.tag) || e.clickable || (e.attrs && ('role' in e.attrs || 'tabindex' in e.attrs)))) continue;
      const [x, y, w, h] = e.rect;
      const l = Math.max(x, 0), t = Math.max(y, 0), r = Math.min(x + w, innerWidth), b = Math.min(y + h, innerHeight);
      if (r <= l || b <= t) continue;
      tested++;
      const hit = el.getRootNode().elementFromPoint?.((l + r) / 2, (t + b) / 2);
      if (!hit || hit === el) continue;
      const around = new Set();
      for (let n = el; n; n = up(n)) around.add(n);
      let n = hit;
      for (; n && !around.has(n) && !el.contains(n); n = up(n)) {
        if (/^(fixed|absolute|sticky)$/.test(getComputedStyle(n).position)) break;
      }
      if (n && !around.has(n) && !el.contains(n)) e.covered = true;
    }
  }
  // `onScrollers` (the change tracker's `adopt`, page/checks.js answerThenWalk): the scroll
  // containers, when this walk saw every element of the document (no cap reached, nothing
  // behind a modal left out).
  if (onScrollers && !stack.length && !modal) onScrollers(overflowing.filter((el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth));
  if (keep) {
    coverage(); // refs are only given on kept walks
    const walks = (globalThis.__pccWalks ??= new Map());
    walks.set(keep.id, elements);
    while (walks.size > keep.kept) walks.delete(walks.keys().next().value);
  }
  // (crypto.randomUUID needs a secure context; an http page's isolated world is not one.)
  globalThis.__pccDocumentId ??= `dom:${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  // The tag this window received from its parent in this round; none when ambiguous.
  const got = globalThis.__pccReceived;
  const frameTag = round && got?.round === round && got.tags.size === 1 ? [...got.tags][0] : undefined;
  // Elements an open modal dialog hides (the core says so in one line).
  const behindModal = modal ? document.body.getElementsByTagName('*').length - modal.getElementsByTagName('*').length - 1 : 0;
  return { url: location.href, documentId: globalThis.__pccDocumentId, title: document.title, viewport: { width: innerWidth, height: innerHeight }, scopeIndex, frameTag,
    // The nodes cross as one JSON string (the worker splices it in as is): far cheaper than a
    // structured clone of every node object.
    walk: { url: location.href, title: document.title, nodes: JSON.stringify(nodes), ...(keep ? { walkId: keep.id } : {}), ...(behindModal > 0 ? { behindModal } : {}) } };
}

/**
 * A repeat of a read (answerThenWalk, postThenWalk: after `read`, a kept walk). True when
 * `read` shows exactly what this frame's last kept walk showed, over the very same elements
 * (a copy of a node is not the node a ref holds), and `heldId`, the walk of the read that
 * would answer again, is one of the walks that showed it. Then `read` is let go (that walk and
 * its refs stay kept), or with `keepRead` (a frame among others: another may have changed, and
 * the tab is read with this walk after all) kept too, behind the held walk. Otherwise `read`
 * becomes the last walk. A change that alters nothing a walk reads (a class no rule of
 * interest matches) then costs a walk, not a read.
 */
function sameWalk(read, heldId, keepRead) {
  const walks = globalThis.__pccWalks;
  const id = read.walk?.walkId;
  const els = id && walks?.get(id);
  if (!els) return false;
  // A round's frame tags are new each time (framePost): compared as there or not.
  const tagged = (t) => (t.includes('"frameTag":"') ? t.replace(/"frameTag":"\w+"/g, '"frameTag":1') : t);
  const nodes = tagged(read.walk.nodes);
  const head = JSON.stringify([read.url, read.documentId, read.title, read.viewport, read.scopeIndex, !!read.frameTag, read.walk.title, read.walk.behindModal]);
  const last = globalThis.__pccLastWalk;
  const prev = last?.ids.includes(heldId) && walks.get(heldId);
  let same = !!prev && last.head === head && last.nodes === nodes && prev.length === els.length;
  for (let i = 0; same && i < els.length; i++) same = els[i] === prev[i];
  if (!same) {
    globalThis.__pccLastWalk = { ids: [id], head, nodes };
    return false;
  }
  walks.delete(id);
  // The held walk is the newest but this one: the walks kept after it push older ones out first.
  walks.delete(heldId);
  walks.set(heldId, prev);
  if (keepRead) {
    walks.set(id, els);
    last.ids = [...last.ids.filter((k) => k !== heldId).slice(-2), heldId, id];
  }
  return true;
}

/**
 * The tracker's answer and, unless it is `held` (the answer before the last read of the same
 * kind), the frame's walk right after it (`walkArgs`), in one task (`offsetElements`: budget.rs's
 * trackerOffsetElements). A new answer leaves the scroll containers to the walk, which finds
 * them among the elements it reads anyway: `{answer, frames, read?, same?, facts?}` (`frames`:
 * this window's child frames, none walked for when there are any; `read`: domWalk's result; `same: true` instead when the walk
 * showed exactly what walk `heldWalk`, the held read's, did: sameWalk; `facts`: the form-field
 * facts of this state, for the result's last scrub), or null without a tracker here. Run
 * injected (page/checks.js) or asked through the frame's port (portListen).
 */
async function answerThenWalk(held, walkArgs, offsetElements, heldWalk, factArgs) {
  const tracker = globalThis.__pccChanges;
  const walker = globalThis.__pccWalker;
  if (!tracker || !walker) return null;
  walker.portListen();
  // A tracker that predates `adopt` (an older content script) reads its offsets itself.
  const adopt = tracker.adopt?.bind(tracker);
  const answer = await tracker.check(offsetElements, !!adopt);
  // (Child frames are nodes of this document: one that comes is a mutation, a new answer.)
  const frames = window.length;
  // (A window with child frames is read with them: the caller reads the tab the other way.)
  if (answer === held || frames) return { answer, frames };
  // The walk hands the scroll containers it finds to the tracker (it saw them in this task).
  walkArgs[6] = { ...walkArgs[6], onScrollers: adopt };
  const read = await walker.domWalk(...walkArgs);
  const facts = walker.fieldFacts(...factArgs);
  // The walk shows what the held read's walk showed: that read answers again.
  return walker.sameWalk(read, heldWalk) ? { answer, frames, same: true, facts } : { answer, frames, read, facts };
}

/**
 * The frame's end of a port the worker opens to this document (extension/read/ports.js): a
 * read asks here what it would inject, without an injection per call — `answerThenWalk`, or
 * `check` (the tracker's answer alone: page/checks.js trackerState, with this window's child
 * frames). Each message `{id, fn, args}` is answered `{id, result}` (`result` null when it
 * fails). Only this extension can connect to a content script. Listening starts with the
 * first read of the document (the worker opens a port only to a document it has read): a page
 * no agent reads never touches an extension API (the first use of `chrome.runtime` in a frame
 * builds its bindings).
 */
function portListen() {
  if (globalThis.__pccPortListening) return;
  globalThis.__pccPortListening = true;
  const ASKED = {
    answerThenWalk: (...args) => globalThis.__pccWalker.answerThenWalk(...args),
    // With `factArgs`, an answer other than `held` (the one this document gave before the
    // read's last) brings the form-field facts of the state it names, read in the same task,
    // for the result's last scrub (secrets.js): a read after a change needs no injection of
    // its own for them.
    check: async (offsetElements, held, factArgs) => {
      const tracker = globalThis.__pccChanges;
      if (!tracker) return null;
      const answer = await tracker.check(offsetElements);
      return factArgs && answer !== held ? { answer, frames: window.length, facts: globalThis.__pccWalker.fieldFacts(...factArgs) } : { answer, frames: window.length };
    },
  };
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== 'pcc-read') return;
    port.onMessage.addListener(async (m) => {
      let result = null;
      try {
        if (Object.hasOwn(ASKED, m?.fn) && Array.isArray(m.args)) result = await ASKED[m.fn](...m.args);
      } catch { /* null: the worker reads the normal way */ }
      try { port.postMessage({ id: m?.id, result }); } catch { /* the worker went away */ }
    });
  });
}

/**
 * Frame verification, step 1 (every frame): listen for the parent's tag. Only a message
 * whose source is this window's parent counts. Returns the number of child frames here.
 */
function frameArm() {
  if (!globalThis.__pccListening) {
    globalThis.__pccListening = true;
    addEventListener('message', (e) => {
      const d = e.data;
      if (window.parent === window || e.source !== window.parent || !d || typeof d.__pccTag !== 'string' || typeof d.__pccRound !== 'string') return;
      if (globalThis.__pccReceived?.round !== d.__pccRound) globalThis.__pccReceived = { round: d.__pccRound, tags: new Set() };
      globalThis.__pccReceived.tags.add(d.__pccTag);
      const waiting = globalThis.__pccTagWaiters;
      globalThis.__pccTagWaiters = null;
      for (const wake of waiting ?? []) wake();
    });
  }
  return document.querySelectorAll('iframe, frame').length;
}

/** Step 2 (every frame): post a fresh one-time tag to each child frame's window. */
function framePost(round) {
  const map = new WeakMap();
  for (const el of document.querySelectorAll('iframe, frame')) {
    const tag = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    map.set(el, tag);
    try {
      el.contentWindow?.postMessage({ __pccTag: tag, __pccRound: round }, '*');
    } catch { /* not loaded */ }
  }
  globalThis.__pccPosted = { round, map };
}

/** An id of this document, kept in the isolated world: a new document gets a new one. */
function documentId() {
  globalThis.__pccDocumentId ??= `dom:${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  return globalThis.__pccDocumentId;
}

/**
 * Marks this frame's isolated world with a one-time token (walknode.js then asks over CDP the
 * world that holds it) and says whether it still keeps element `index` of walk `walkId`.
 */
function markWalkFrame(mark, walkId, index) {
  globalThis.__pccWalkMark = mark;
  return !!globalThis.__pccWalks?.get(walkId)?.[index];
}

/** The border boxes (this frame's viewport, CSS px) of elements `indices` of walk `walkId`:
 * `[x, y, width, height]` each, null for one gone or without a box (`browser_screenshot`
 * marks a state the model holds). */
function walkBoxes(walkId, indices) {
  const els = globalThis.__pccWalks?.get(walkId);
  return indices.map((i) => {
    const el = els?.[i];
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 ? [r.x, r.y, r.width, r.height] : null;
  });
}

/** Acts on element `index` of walk `walkId` (DOM-source refs): synthetic events, best effort. */
function domAct(walkId, index, action, value) {
  const el = globalThis.__pccWalks?.get(walkId)?.[index];
  if (!el || !el.isConnected) return { stale: true };
  el.scrollIntoView({ block: 'center', inline: 'center' });
  if (action === 'click') el.click();
  else if (action === 'hover') el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
  else if (action === 'fill' || action === 'type') {
    el.focus();
    const next = action === 'fill' ? value : (el.value ?? '') + value;
    if ('value' in el) el.value = next; else el.textContent = next;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (action === 'select_option') {
    const opt = [...el.options].find((o) => o.value === value || o.label === value || o.text === value);
    if (!opt) return { noOption: true };
    el.value = opt.value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (action === 'press') {
    el.focus();
    el.dispatchEvent(new KeyboardEvent('keydown', { key: value, bubbles: true }));
    el.dispatchEvent(new KeyboardEvent('keyup', { key: value, bubbles: true }));
  }
  return { ok: true };
}

/**
 * Injected into every frame's isolated world (page overrides do not reach it): the form
 * fields with a value, as facts for the core to decide which values are sensitive. The
 * values go to wasm only, which scrubs them from the evaluate result. At most `maxFields`
 * facts an answer, after the first `skip` ones: `{fields, overflow: true, next}` says the
 * caller asks again from `next` (a page of thousands of filled fields — a spreadsheet, a bulk
 * editor — is checked whole, in several answers). `boxes` (a screenshot's mask plan): in the
 * top frame, each rendered field's border box too (`box: [x, y, width, height]`, viewport CSS
 * px), wherever it sits — behind a modal, under `aria-hidden`, in a closed shadow root.
 */
function fieldFacts(maxFields, maxChars, labelChars, skip = 0, boxes = false) {
  /** The text just before `el` that no other control claims (a text run or an inline element
   * before it, else before its parent; never a `<label>` or anything holding a control), at
   * most `n` characters: "PIN:", "Card number". */
  const textBefore = (el, n) => {
    const claimed = (p) => p.nodeType === 1 && (/^(label|script|style|input|textarea|select|button)$/i.test(p.localName) || p.querySelector?.('input, textarea, select, [contenteditable]'));
    for (let at = el, up = 0; at && at !== document.body && up < 2; at = at.parentElement, up++) {
      for (let p = at.previousSibling; p; p = p.previousSibling) {
        if (claimed(p)) return '';
        const t = (p.nodeType === 3 || p.nodeType === 1 ? p.textContent : '').trim();
        if (t) return t.slice(-n);
      }
    }
    return '';
  };
  const ATTRS = ['type', 'name', 'id', 'autocomplete', 'aria-label', 'placeholder'];
  const out = [];
  let seen = 0;
  const roots = [document];
  // Closed shadow roots too (a component may hand out its field through a property): the
  // extension API reaches them, on every element that can host one.
  const HOSTS = /-|^(article|aside|blockquote|body|div|footer|h[1-6]|header|main|nav|p|section|span)$/;
  const shadowOf = (el) => el.shadowRoot ?? (HOSTS.test(el.localName) ? chrome.dom?.openOrClosedShadowRoot?.(el) : null);
  while (roots.length) {
    const root = roots.pop();
    for (const el of root.querySelectorAll('*')) {
      const shadow = shadowOf(el);
      if (shadow) roots.push(shadow);
      const tag = el.localName;
      const field = tag === 'input' || tag === 'textarea' || tag === 'select';
      if (!field && !el.isContentEditable) continue;
      // The live value, and the one the markup was served with (`value` attribute,
      // `defaultValue`): an expression can read either.
      const values = new Set([field ? el.value : el.textContent, field ? el.defaultValue : '', el.getAttribute('value')]);
      values.delete(null);
      values.delete('');
      values.delete(undefined);
      if (!values.size) continue;
      const attrs = {};
      for (const a of ATTRS) if (el.hasAttribute(a)) attrs[a] = el.getAttribute(a);
      // A field that was ever a password in this document (memory.js) stays one.
      if (globalThis.__pccWasPassword?.has(el)) attrs.type = 'password';
      // Named by labels, aria-labelledby or a title: all of it counts.
      const named = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean).map((id) => root.getElementById?.(id)?.textContent || '');
      let label = [...[...(el.labels || [])].map((l) => l.textContent), ...named, el.getAttribute('title') || ''].join(' ').trim();
      label = label.slice(0, labelChars);
      // Unlabelled: the text just before it may name it for a reader ("PIN:", "Card number");
      // the core reads its last words only (prose before a field is not its label).
      const near = !label && !el.hasAttribute('aria-label') && !el.hasAttribute('placeholder') ? textBefore(el, labelChars) : '';
      for (const v of values) {
        if (seen++ < skip) continue;
        // More than one answer holds: the caller asks for the rest.
        if (out.length >= maxFields) return { fields: out, overflow: true, next: seen - 1 };
        const value = String(v);
        const fact = { tag, attrs, label, ...(near ? { near } : {}), value: value.slice(0, maxChars), cut: value.length > maxChars };
        if (boxes && window === window.top) {
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) fact.box = [r.x, r.y, r.width, r.height];
        }
        out.push(fact);
      }
    }
  }
  return { fields: out, overflow: false };
}

globalThis.__pccWalker ??= { domWalk, sameWalk, answerThenWalk, portListen, frameArm, framePost, documentId, markWalkFrame, walkBoxes, domAct, fieldFacts };
// A frame this content script starts in listens for its parent's tags from the start, so that
// a read can post and walk in one injection (page/checks.js postThenWalk). (Not in the worker.)
if (typeof document !== 'undefined') frameArm();
