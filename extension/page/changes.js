// Content script (document_start, every frame): the change tracker. It counts whatever can
// change what a read of this document shows, so that a repeat read of a page where nothing
// happened needs no capture (the core's read plan, src/session/read_plan.rs, asks every frame: an AX read answers
// `unchanged`, a snapshot its last result).
//
// What it counts: every DOM mutation (the document and each shadow root it has found) but a
// `data-*` attribute no read shows and no style rule names, and
// the events that change state without one: scroll, resize, focus, input, toggles (details,
// popovers), loads and errors (images, frames, style sheets), animations and transitions,
// hover, media, fonts. What no event reports is compared at each check instead: form values
// set by script, shadow roots attached after insertion, style rules added through the CSSOM,
// and the offsets of scroll containers (their scroll events come a frame late).
//
// Where: it notes the elements each counted change touched, so that an AX read after a
// change fetches only their subtrees (`rootsSince`; src/tree/ax_patch.rs proves the rest).
//
// Owns: `globalThis.__pccChanges.check(offsetElements, deferOffsets)` → `"<document instance>:<count>"`,
// `rootsSince(answer, max)`,
// and `adopt(containers)` (the scroll containers the walk after a deferring check found). Must never:
// touch the page's DOM or its prototypes (the page does not see it), or answer the same
// string twice when something it watches changed in between.
(() => {
  if (globalThis.__pccChanges) return;
  // Nothing is observed until the extension first asks: the first check is the baseline (a
  // read captures after it), so pages no agent reads pay for nothing but this script.
  let started = false;
  // (crypto.randomUUID needs a secure context; an http page's isolated world is not one.)
  const instance = [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, '0')).join('');
  let count = 0;
  const bump = () => { count++; };
  // Where the changes counted since the last answer happened (issue #37: an AX read patches
  // these elements instead of fetching the page's whole tree). `touched`: elements whose
  // subtree changed — the targets of attribute and text changes, nodes added, the targets
  // of field and focus events, fields whose value moved, hosts of late shadow roots.
  // `parents`: elements whose children came or went (their own node changes; the added
  // children are in `touched`). `local` is false once a change cannot be placed.
  let touched = new Set();
  let parents = new Set();
  let local = true;
  // More places than this between two answers (a page rebuilding itself, or one no agent has
  // read for a while): not placed, and no element is held any longer.
  const PLACES = 512;
  const full = () => {
    if (touched.size + parents.size <= PLACES) return false;
    touched.clear();
    parents.clear();
    local = false;
    return true;
  };
  const element = (n) => {
    if (n?.nodeType === Node.TEXT_NODE || n?.nodeType === Node.COMMENT_NODE) n = n.parentNode;
    if (n instanceof ShadowRoot) n = n.host;
    if (n?.nodeType === Node.ELEMENT_NODE) return n;
    local = false; // the document itself
    return null;
  };
  const touch = (n) => {
    const el = local && element(n);
    if (el && !full()) touched.add(el);
  };
  const placed = (r) => {
    if (!local) return;
    if (r.type !== 'childList') return touch(r.target);
    const parent = element(r.target);
    if (parent) parents.add(parent);
    // (Added text changes its parent's own text, and many nodes added at once are one
    // place: the parent's subtree.)
    if (parent && r.addedNodes.length > 16) touched.add(parent);
    else {
      for (const n of r.addedNodes) {
        if (n.nodeType === Node.ELEMENT_NODE) touched.add(n);
        else if (n.nodeType === Node.TEXT_NODE && parent) touched.add(parent);
      }
    }
    full();
  };
  // A mutation counts unless it provably changes nothing a read shows: a `data-*` attribute
  // (no read shows one but data-testid: domwalk.js ATTRS, src/tree/mod.rs) that no style
  // rule of the document or a shadow root names (`ruleText`, read once per batch).
  const UNREAD = /^data-(?!testid$)/;
  const counted = (records) => {
    let text;
    let any = false;
    for (const r of records) {
      if (r.type === 'attributes' && UNREAD.test(r.attributeName)) {
        if (text === undefined) text = ruleText();
        if (text !== null && !text.includes(r.attributeName)) continue;
      }
      any = true;
      placed(r);
    }
    return any;
  };
  const observer = new MutationObserver((records) => { if (counted(records)) bump(); });
  // Events whose target is what they change (its value, checked state, focus, open state,
  // loaded content); the rest change style or layout only, which the AX read's layout
  // snapshot compares (src/tree/ax_patch.rs), or the document as a whole.
  const PLACED = new Set(['focusin', 'focusout', 'input', 'change', 'toggle', 'load', 'error', 'beforematch', 'play', 'pause', 'ended', 'loadedmetadata']);
  const WHOLE = new Set(['fullscreenchange', 'visibilitychange', 'pageshow']);
  const event = (e) => {
    bump();
    if (WHOLE.has(e.type)) local = false;
    else if (PLACED.has(e.type)) touch(e.composedPath?.()[0] ?? e.target);
  };
  // (Not `animationiteration`: an animation that repeats — a spinner, a pulsing dot — is the
  // same animation running, which its start already counted; its ticks made every read of
  // such a page a new one, measured on the corpus's medium-3, one every 1.2 s.)
  const EVENTS = ['scroll', 'scrollend', 'resize', 'focusin', 'focusout', 'input', 'change', 'toggle', 'load', 'error',
    'animationstart', 'animationend', 'animationcancel', 'transitionrun', 'transitionend', 'transitioncancel',
    'mouseover', 'mouseout', 'play', 'pause', 'ended', 'loadedmetadata', 'fullscreenchange', 'beforematch', 'visibilitychange', 'pageshow'];
  const watched = new WeakSet();
  /** Watches a document or shadow root (mutations; the events that do not leave it). */
  function watch(root) {
    watched.add(root);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const type of EVENTS) root.addEventListener(type, event, { capture: true, passive: true });
  }
  function start() {
    started = true;
    watch(document);
    for (const type of EVENTS) window.addEventListener(type, event, { capture: true, passive: true });
    document.fonts?.addEventListener?.('loadingdone', bump);
  }

  // Custom elements may keep a closed shadow root; only this world can open it.
  const CUSTOM = /-/;
  const shadowOf = (el) => el.shadowRoot ?? (CUSTOM.test(el.localName) ? chrome.dom?.openOrClosedShadowRoot?.(el) : null);
  // The style rules of a document or shadow root, as what identifies them: each sheet (by
  // identity), its rule count and its first and last rule (a sheet added, removed, loaded,
  // replaced — `replaceSync` with as many rules — or a rule inserted or deleted changes it).
  const rulesOf = (root) => {
    let sig = '';
    for (const s of [...(root.styleSheets ?? []), ...(root.adoptedStyleSheets ?? [])]) {
      try {
        const r = s.cssRules;
        sig += `${idOf(s)}:${r.length}:${idOf(r[0])}:${idOf(r[r.length - 1])},`;
      } catch {
        sig += `${idOf(s)},`; // a cross-origin sheet: its rules cannot change from this page
      }
    }
    return sig;
  };

  let last = '';
  let roots = [document]; // the document and the shadow roots the last pass found

  // The text of every style rule of `roots` (lower case), and what it was read from: each
  // sheet (imported ones too), its rule count and its first and last rule, by identity (a
  // sheet added, replaced, loaded or edited through the CSSOM changes them; a rule swapped in
  // place between the two is missed, as the rule counts `unreported` compares miss it).
  let css = { from: '', text: '' };
  const ids = new WeakMap();
  let nextId = 0;
  const idOf = (o) => (o ? (ids.get(o) ?? (ids.set(o, ++nextId), nextId)) : 0);
  /**
   * The text of every style rule, in which a rule that names an attribute (a selector, or
   * `attr()` in a value) holds its name: serialized rules spell names out (no escapes). Null
   * when a sheet cannot be read (cross-origin): any attribute may be named there.
   */
  function ruleText() {
    const sheets = [];
    const gather = (list) => {
      for (const sheet of list) {
        sheets.push(sheet);
        // (Imports come first: only @layer statements may stand among them.)
        for (const rule of sheet.cssRules) {
          if ('styleSheet' in rule) { if (rule.styleSheet) gather([rule.styleSheet]); } else if (!('nameList' in rule)) break;
        }
      }
    };
    try {
      for (const root of roots) gather([...(root.styleSheets ?? []), ...(root.adoptedStyleSheets ?? [])]);
    } catch {
      return null; // a cross-origin sheet: its rules cannot be read
    }
    const from = sheets.map((s) => { const r = s.cssRules; return `${idOf(s)}:${r.length}:${idOf(r[0])}:${idOf(r[r.length - 1])}`; }).join();
    if (from !== css.from) {
      let text = '';
      for (const sheet of sheets) for (const rule of sheet.cssRules) if (!('styleSheet' in rule)) text += rule.cssText.toLowerCase();
      css = { from, text };
    }
    return css.text;
  }
  // A page of at most `offsetElements` elements (budget.rs, passed by each check) has its
  // scroll containers found by the pass itself (every element's offsets read): an element's
  // scroll since the last check is then seen at once, without the idle scan below or a
  // frame's wait.
  let small = false; // the last pass that looked for scroll containers found them all
  let scrolling = []; // the scroll containers the last pass found
  const values = new WeakMap(); // field → its value (and checked state) at the last pass
  let ruleSheets = null; // the style rules at the last pass (rulesOf)
  /**
   * One pass over the elements: what no event reports (form values, shadow roots, style
   * rules) as one string to compare, and, with `offsetElements`, the scroll containers among
   * the first that many elements (`scrolling`; `small` says whether that was all of them).
   */
  function unreported(offsetElements) {
    let h = 0x811c9dc5;
    const mix = (s) => {
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
      h = Math.imul(h ^ 0x1f, 16777619);
    };
    let fields = 0, shadows = 0, rules = '', seen = 0;
    const wasField = (el, v) => {
      const before = values.get(el);
      if (before !== undefined && before !== v) touch(el);
      values.set(el, v);
      return v;
    };
    const found = [document];
    scrolling = [];
    for (let r = 0; r < found.length; r++) {
      rules += rulesOf(found[r]);
      for (const el of found[r].querySelectorAll('*')) {
        if (++seen <= offsetElements && (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth)) scrolling.push(el);
        const shadow = shadowOf(el);
        if (shadow) {
          shadows++;
          found.push(shadow);
          if (!watched.has(shadow)) { watch(shadow); bump(); touch(el); }
        }
        const tag = el.localName;
        if (tag === 'input' || tag === 'textarea' || tag === 'select') {
          fields++;
          mix(wasField(el, tag === 'select' ? String(el.selectedIndex) : `${el.value}${el.checked ? '\u0001' : ''}${el.indeterminate ? '\u0002' : ''}`));
        }
      }
    }
    roots = found;
    // A style rule added, removed or replaced can restyle anything: not placed.
    if (ruleSheets !== null && rules !== ruleSheets) local = false;
    ruleSheets = rules;
    mix(rules);
    if (offsetElements) small = seen <= offsetElements;
    return `${fields}/${shadows}/${h >>> 0}`;
  }

  // Without the scroll containers of this state, a check lets one frame pass (a visible
  // document; at most 100 ms) so that an element's scroll that already happened is counted.
  const nextFrame = () => new Promise((resolve) => {
    if (document.visibilityState !== 'visible') return resolve();
    const t = setTimeout(resolve, 100);
    requestAnimationFrame(() => { clearTimeout(t); resolve(); });
  });

  // An element's scroll is reported by its scroll event, one frame late; its offsets can be
  // read at once. The scroll containers are found in idle time (short slices, given up when
  // anything changes) once the page is still; for the page state they were found in, a check
  // compares their offsets instead of waiting for the next frame.
  let scrollers = [];
  let offsets = '';
  let partial = { els: [], offsets: '' }; // a larger page's first containers (checks without its containers)
  let scannedAt = -1; // the count the scrollers belong to
  let scanning = -1;
  const offsetsOf = (els) => els.map((el) => `${el.scrollTop},${el.scrollLeft}`).join(';');
  function scanSoon() {
    if (scanning === count || typeof requestIdleCallback !== 'function') return;
    const at = (scanning = count);
    const found = [];
    let r = 0, i = 0, list = null;
    const slice = () => {
      if (count !== at || scanning !== at) { if (scanning === at) scanning = -1; return; }
      const t0 = performance.now();
      for (; r < roots.length; r++, i = 0, list = null) {
        list ??= roots[r].querySelectorAll('*');
        for (; i < list.length; i++) {
          const el = list[i];
          if (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth) found.push(el);
          if ((i & 63) === 63 && performance.now() - t0 > 4) { i++; requestIdleCallback(slice); return; }
        }
      }
      // Accepted once a frame has passed with nothing counted: a scroll made before the
      // offsets were read has sent its event by then.
      const o = offsetsOf(found);
      nextFrame().then(() => {
        if (count === at && scanning === at) { scrollers = found; offsets = o; scannedAt = at; }
        if (scanning === at) scanning = -1;
      });
    };
    requestIdleCallback(slice);
  }

  // The count this frame last answered with. A check that finds more already answers a
  // state no read holds yet (counts only grow): waiting a frame for a late scroll event
  // could not make it an `unchanged`, and an event that comes later bumps the next answer.
  let answered = -1;
  // The count of a check that left its scroll containers to the walk that follows it in the
  // same task (`adopt`), until that task ends.
  let adoptable = -1;
  // Per answer given (newest last, the last 8): what was touched since the answer before it.
  const history = [];
  const answer = () => {
    const a = `${instance}:${count}`;
    const last = history.at(-1);
    if (last?.answer === a) {
      for (const n of touched) last.touched.add(n);
      for (const n of parents) last.parents.add(n);
      last.local &&= local;
    } else {
      history.push({ answer: a, touched, parents, local });
      if (history.length > 8) history.shift();
    }
    touched = new Set();
    parents = new Set();
    local = true;
    return a;
  };
  globalThis.__pccChanges = {
    /**
     * `deferOffsets`: a walk follows in this task (page/checks.js answerThenWalk) and hands
     * over the scroll containers it finds (`adopt`). A check whose answer is new anyway
     * (something was counted since the last) then reads no element's offsets.
     */
    async check(offsetElements = 0, deferOffsets = false) {
      if (!started) start();
      if (counted(observer.takeRecords())) bump();
      // Nothing counted since the last answer: the elements are those of the last pass, so
      // `small` still says whether this pass reads every offset.
      const known = scannedAt === count;
      if (deferOffsets && !known && count !== answered) {
        last = `${unreported(0)}/${scrollX},${scrollY},${innerWidth},${innerHeight}`;
        small = false; // unknown until a walk hands its containers over
        adoptable = answered = count;
        setTimeout(() => { adoptable = -1; }, 0);
        return answer();
      }
      if (!known && !small && count === answered) {
        await nextFrame();
        if (counted(observer.takeRecords())) bump();
      }
      const before = count;
      // With the scroll containers of this state known, only their offsets are read: no
      // element's offsets are read in the pass (most of its time on a small page).
      const now = `${unreported(known ? 0 : offsetElements)}/${scrollX},${scrollY},${innerWidth},${innerHeight}`;
      if (now !== last) { last = now; bump(); }
      if (!known) {
        // The containers among the elements read (on a small page, every container of this
        // state): a scroll of one, or another element scrolling, is a change. A larger page's
        // are kept apart (the rest are found in idle time; this check waited a frame).
        const o = offsetsOf(scrolling);
        const was = small ? { els: scrollers, offsets } : partial;
        if (o !== was.offsets || scrolling.length !== was.els.length || scrolling.some((el, i) => el !== was.els[i])) bump();
        if (small) {
          scrollers = scrolling;
          offsets = o;
          scannedAt = count; // this state's containers (a counted change ends them)
        } else {
          partial = { els: scrolling, offsets: o };
        }
      } else {
        const o = offsetsOf(scrollers);
        if (o !== offsets) { offsets = o; bump(); }
        // A scroll moves offsets, not which elements scroll: the containers still hold.
        if (count === before) scannedAt = count;
      }
      if (scannedAt !== count && !small) scanSoon();
      answered = count;
      return answer();
    },
    /**
     * Where every change counted since this frame answered `held` (the answer before an AX
     * read's last read) happened, for the read to fetch again: `[subtrees, nodes]` — elements
     * whose whole subtree is fetched (a table's part as the whole table: Chromium decides from
     * the whole table whether it is for layout; the field a changed `<label>` names; elements
     * whose `aria-labelledby` / `-describedby` / `-activedescendant` point into a change) and
     * elements whose children came or went (their own node and ancestors are fetched), each
     * connected, none inside a subtree. Null when they cannot be placed (an answer no longer
     * kept, the document itself changed, a style rule added or removed, a modal dialog,
     * `aria-owns` anywhere) or are more than `max`: the read then fetches the whole tree.
     */
    rootsSince(held, max) {
      if (counted(observer.takeRecords())) bump();
      const at = history.findIndex((h) => h.answer === held);
      if (at < 0 || !local || document.querySelector(':modal')) return null;
      const whole = new Set(touched);
      const own = new Set(parents);
      for (const h of history.slice(at + 1)) {
        if (!h.local) return null;
        for (const n of h.touched) whole.add(n);
        for (const n of h.parents) own.add(n);
      }
      if (roots.some((r) => r.querySelector('[aria-owns]'))) return null;
      const tableOf = (el) => {
        let t = el.closest('table');
        for (let up = t; up; up = up.parentElement?.closest('table')) t = up;
        return t;
      };
      const subtrees = new Set();
      const nodes = new Set();
      for (const el of [...whole, ...own]) {
        if (!el.isConnected) continue; // removed: its parent's mutation names the parent
        const table = tableOf(el);
        if (table) subtrees.add(table);
        else (whole.has(el) ? subtrees : nodes).add(el);
        const label = el.closest('label');
        if (label?.control) subtrees.add(label.control);
      }
      const REFS = ['aria-labelledby', 'aria-describedby', 'aria-activedescendant'];
      const changed = [...subtrees, ...nodes];
      for (const r of roots) {
        for (const x of r.querySelectorAll('[aria-labelledby], [aria-describedby], [aria-activedescendant]')) {
          const home = x.getRootNode();
          const ids = REFS.flatMap((a) => (x.getAttribute(a) || '').split(/\s+/)).filter(Boolean);
          if (ids.some((id) => { const t = home.getElementById?.(id); return t && changed.some((e) => e.contains(t) || t.contains(e)); })) subtrees.add(x);
        }
      }
      const inSubtree = (a) => [...subtrees].some((b) => b !== a && b.contains(a));
      const list = [[...subtrees].filter((a) => !inSubtree(a)), [...nodes].filter((a) => !subtrees.has(a) && !inSubtree(a))];
      return list[0].length + list[1].length > max ? null : list;
    },
    /**
     * The scroll containers a walk found (every element of the document walked, in the task
     * of the deferred check and with nothing counted since): they and their offsets become
     * this state's, as a pass would have found them. Anything else is ignored (the next check
     * finds them itself).
     */
    adopt(containers) {
      if (counted(observer.takeRecords())) bump();
      if (!containers || adoptable !== count) return;
      scrollers = containers;
      offsets = offsetsOf(containers);
      scannedAt = count;
      small = true;
      adoptable = -1;
    },
  };
})();
