// Content script (document_start, every frame): remembers the fields of this document that
// were ever password fields, so that a "Show password" toggle (type → text) never turns a
// password into page text for the reads that walk the page here (DOM source, dom_cua,
// extract, the evaluate scrub). Every extension script of this frame's isolated world sees
// the same set; the page does not.
//
// Owns: `globalThis.__pccWasPassword`. Must never: touch the page's DOM or observe more than
// `type` attribute changes (it runs on every page).
(() => {
  if (globalThis.__pccWasPassword) return;
  const seen = (globalThis.__pccWasPassword = new WeakSet());
  new MutationObserver((records) => {
    for (const r of records) {
      if (String(r.oldValue).toLowerCase() === 'password' && r.target.localName === 'input') seen.add(r.target);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['type'], attributeOldValue: true });
})();
