// Content script (document_start, every frame): remembers the fields of this document that
// were ever password fields, so that a "Show password" toggle (type → text) never turns a
// password into page text. Every extension script of this frame's isolated world sees the
// same set (DOM source, dom_cua, extract, the evaluate scrub); the CDP reads find it through
// this world's execution context (`list()`, extension/read/worlds.js). The page does not see it.
//
// Owns: `globalThis.__pccWasPassword` ({has, add, list}). Must never: touch the page's DOM or
// observe more than `type` attribute changes (it runs on every page).
(() => {
  if (globalThis.__pccWasPassword) return;
  const seen = new WeakSet();
  const refs = []; // WeakRefs, for list(); bounded: a page cannot grow it without end
  const memory = (globalThis.__pccWasPassword = {
    has: (el) => seen.has(el),
    add(el) {
      if (seen.has(el)) return;
      seen.add(el);
      if (refs.length >= 1000) refs.splice(0, refs.length, ...refs.filter((r) => r.deref()?.isConnected));
      if (refs.length < 1000) refs.push(new WeakRef(el));
    },
    /** The remembered fields still in the document. */
    list: () => refs.map((r) => r.deref()).filter((el) => el?.isConnected),
  });
  new MutationObserver((records) => {
    for (const r of records) {
      if (String(r.oldValue).toLowerCase() === 'password' && r.target.localName === 'input') memory.add(r.target);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['type'], attributeOldValue: true });
})();
