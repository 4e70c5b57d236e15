// AX reads after a change (issue #37 item 1): the page names where it changed
// (page/changes.js rootsSince), the core patches the tree it holds with the changed
// subtrees and ancestors (src/tree/ax_patch.rs) or refuses, and either way the read equals a
// whole read of the page. Each case: what changes, whether the read may patch it, and why not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';
import { patchCheck } from './corpus.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch({ policy: { readUserTabs: 'all' } }); });
after(async () => { await b?.close(); await server?.close(); });

const CASES = [
  // [what, change (in the page), patched, the refusal's words when not]
  ['a button added', () => { const x = document.createElement('button'); x.textContent = 'Added'; document.querySelector('main').append(x); }, true],
  ['an item removed', () => document.getElementById('last').remove(), true],
  ['a text changed', () => { document.querySelector('#para b').firstChild.data = 'strong'; }, true],
  ['the text an aria-labelledby names', () => { document.getElementById('lbl').textContent = 'Send later'; }, true],
  ['the text of a <label for>', () => { document.querySelector('label[for=city]').textContent = 'Town'; }, true],
  ['a table cell (the whole table is fetched)', () => { document.getElementById('cell').textContent = 'Pears'; }, true],
  ['aria-hidden on a section', () => document.getElementById('hideable').setAttribute('aria-hidden', 'true'), true],
  ['a class hiding a section', () => document.getElementById('hideable').classList.add('gone'), true],
  ['a details opened', () => { document.getElementById('more').open = true; }, true],
  ['forty items added to a list at once', () => document.getElementById('items').append(...Array.from({ length: 40 }, (_, i) => Object.assign(document.createElement('li'), { textContent: `item ${i}` }))), true],
  ['a value typed by script', () => { document.getElementById('city').value = 'Oslo'; }, true],
  ['a text inside an open shadow root', () => { document.getElementById('card').shadowRoot.getElementById('inner').textContent = 'Shadow changed'; }, true],
  // (Refused by whichever proof fails first: main's fresh children name the list, never fetched.)
  ['a :checked ~ rule showing a list the checkbox does not hold', () => document.getElementById('menu-toggle').click(), false, 'shown, hidden or restyled outside|did not fetch'],
  ['a style rule added', () => document.head.append(Object.assign(document.createElement('style'), { textContent: '#para { display: none }' })), false, 'could not place'],
  ['600 places changed between two reads', () => { for (let i = 0; i < 600; i++) document.querySelector('main').append(Object.assign(document.createElement('p'), { textContent: `p ${i}` })); }, false, 'could not place'],
  ['aria-owns on the page', () => document.getElementById('owner').setAttribute('aria-owns', 'owned'), false, 'could not place'],
  ['a modal dialog opened', () => document.getElementById('dlg').showModal(), false, 'could not place'],
];

test('an AX read after a change the page placed fetches only what changed, and equals a whole read; one it cannot place, or a patch the core cannot prove, reads the whole tree', async () => {
  for (const [what, change, patched, why] of CASES) {
    const { page, tabId } = await openTab(b, server, 'patching.html');
    const r = await patchCheck(b, page, tabId, change);
    assert.ok(r.quiet, `${what}: the page changed by itself`);
    assert.ok(r.same, `${what}: the read differs from a whole read\n${r.patchedState}\n---\n${r.wholeState}`);
    assert.equal(r.patched, patched, `${what}: patched ${r.patched} (${r.refusal})`);
    if (!patched) assert.match(r.refusal, new RegExp(why), what);
    await page.close();
  }
});

test('after a reload the AX read is whole (a new document: its tracker kept none of the old answers)', async () => {
  const { page, tabId } = await openTab(b, server, 'patching.html');
  const read = (sessionId) => b.call('browser_accessibility_snapshot', { tabId, sessionId, timing: true });
  await read('P');
  await page.reload();
  await page.evaluate(() => document.querySelector('main').append('more text'));
  const after = await read('P');
  assert.equal(after.timing.patched, undefined, 'a new document is read whole');
  assert.equal(after.mode, 'full');
  await page.close();
});

test('a renewed instance holds no trees: the AX read after a change is whole, without a patch it would refuse', async () => {
  const { page, tabId } = await openTab(b, server, 'patching.html');
  const read = () => b.call('browser_accessibility_snapshot', { tabId, sessionId: 'R', timing: true });
  await read();
  await page.evaluate(() => document.getElementById('cell').append(' and pears'));
  assert.equal((await read()).timing.patched, true, 'patched before the renewal');
  const renewals = () => b.worker.evaluate(() => globalThis.pcc.renewals());
  const before = await renewals();
  // Renewed soon after the next call (the shipped limits: 10 s idle, above 8 MiB).
  await b.worker.evaluate(() => { globalThis.pcc.renewIdleMs = 50; globalThis.pcc.renewAboveBytes = 0; });
  try {
    await b.call('browser_tabs', {});
    for (let i = 0; i < 100 && (await renewals()) === before; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok((await renewals()) > before, 'the instance was renewed');
  } finally {
    await b.worker.evaluate(() => { delete globalThis.pcc.renewIdleMs; delete globalThis.pcc.renewAboveBytes; });
  }
  await page.evaluate(() => document.getElementById('cell').append(' and plums'));
  const after = await read();
  assert.equal(after.timing.patched, undefined, 'read whole');
  assert.equal(after.mode, 'diff', 'against the revision the renewal carried over');
  assert.equal(await b.worker.evaluate(() => globalThis.pcc.axPatchRefusal()), null, 'no patch was tried');
  await page.close();
});

test('a tiny page is read whole after a change: its whole tree comes faster than a patch (no patch is tried)', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const read = () => b.call('browser_accessibility_snapshot', { tabId, sessionId: 'T', timing: true });
  await read();
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('button'), { textContent: 'Added' })));
  const before = await b.worker.evaluate(() => globalThis.pcc.axPatchRefusal());
  const after = await read();
  assert.equal(after.mode, 'diff');
  assert.equal(after.timing.patched, undefined, 'read whole');
  assert.equal(await b.worker.evaluate(() => globalThis.pcc.axPatchRefusal()), before, 'no patch was tried');
  await page.close();
});
