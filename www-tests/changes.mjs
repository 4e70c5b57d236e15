// The five scripted changes of an agent's loop (issue #37): what a page sees between two
// reads — add a button, remove an item, rename a link, toggle a checkbox, type into a field.
// Used by the corpus check (a patched AX read against a whole one after each) and by
// bench/loop.mjs (each read's time after each ÷ Playwright's).
//
// Each runs in the page (`page.evaluate(change, n)`, `n` a fresh number) and answers false
// when the page has nothing it needs (no link, nothing left to remove).

/** Gives a page a checkbox and a text field of its own (most real pages have neither; a
 * page's own controls may navigate or run handlers). Run once before the first read. */
export const setupChanges = () => {
  const own = document.createElement('div');
  own.id = 'pcc-loop';
  own.innerHTML = '<label><input type="checkbox" id="pcc-loop-box"> Loop option</label> <input id="pcc-loop-field" aria-label="Loop field">';
  (document.querySelector('main') || document.body).append(own);
};

export const CHANGES = {
  'add a button': (n) => {
    const b = document.createElement('button');
    b.textContent = `Loop button ${n}`;
    (document.querySelector('main') || document.body).appendChild(b);
    return true;
  },
  'remove an item': () => {
    const root = document.querySelector('main') || document.body;
    const theirs = (sel) => [...root.querySelectorAll(sel)].filter((x) => !x.closest('#pcc-loop')).pop();
    const el = theirs('li') || theirs('p') || theirs('tr') || theirs('label') || theirs('div');
    el?.remove();
    return !!el;
  },
  'rename a link': (n) => {
    const a = [...document.querySelectorAll('a[href]')].find((x) => x.offsetParent !== null && x.textContent.trim()) || document.querySelector('a[href]');
    if (!a) return false;
    a.textContent = `Loop link ${n}`;
    return true;
  },
  'toggle a checkbox': () => {
    document.getElementById('pcc-loop-box').click();
    return true;
  },
  'type into a field': (n) => {
    const f = document.getElementById('pcc-loop-field');
    f.focus();
    f.value += String(n % 10);
    f.dispatchEvent(new InputEvent('input', { bubbles: true, data: String(n % 10), inputType: 'insertText' }));
    return true;
  },
};
