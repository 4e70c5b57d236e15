// JavaScript dialogs (issue #19): an action that opens one answers at once with the dialog;
// every other call on the blocked tab says BROWSER_DIALOG_OPEN until browser_dialog answers it
// (alert, confirm, prompt, beforeunload); answering is a side effect.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab, openUserTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

/** A tab on the dialog page; Playwright must not dismiss dialogs itself (it does without a listener). */
async function open(path = 'dialogs.html') {
  const t = await openTab(b, server, path);
  t.page.on('dialog', () => {});
  return t;
}

test('alert: the click answers at once with the dialog; reads wait for browser_dialog; then the page goes on', async () => {
  const { page, tabId } = await open();
  const t0 = Date.now();
  const r = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Alert' } });
  assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
  assert.deepEqual([r.ok, r.dialog], [true, { type: 'alert', message: 'Saved <b>now</b>' }], JSON.stringify(r));
  const read = await b.call('browser_snapshot', { tabId });
  assert.equal(read.error?.code, 'BROWSER_DIALOG_OPEN', JSON.stringify(read));
  assert.ok(!read.error.message.includes('Saved'), 'page text stays out of error messages');
  assert.equal((await b.call('browser_click', { tabId, target: { role: 'button', name: 'Confirm' } })).error?.code, 'BROWSER_DIALOG_OPEN');
  const seen = await b.call('browser_dialog', { tabId });
  assert.deepEqual(seen.dialog, { type: 'alert', message: 'Saved <b>now</b>' });
  const ok = await b.call('browser_dialog', { tabId, accept: true });
  assert.deepEqual([ok.ok, ok.dialog], [true, { type: 'alert', accepted: true }]);
  assert.equal(await page.textContent('#out'), 'after alert');
  const s = await b.call('browser_snapshot', { tabId });
  assert.ok(!s.error, JSON.stringify(s.error));
  assert.equal((await b.call('browser_dialog', { tabId, accept: true })).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('confirm is cancelled, prompt answered with text', async () => {
  const { page, tabId } = await open();
  const c = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Confirm' } });
  assert.deepEqual(c.dialog, { type: 'confirm', message: 'Delete the file?' });
  await b.call('browser_dialog', { tabId, accept: false });
  assert.equal(await page.textContent('#out'), 'cancelled');
  const p = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Prompt' } });
  assert.deepEqual(p.dialog, { type: 'prompt', message: 'Your name?', defaultPrompt: 'Ann' });
  const bad = await b.call('browser_dialog', { tabId, accept: 'yes' });
  assert.equal(bad.error?.code, 'INVALID_REQUEST');
  await b.call('browser_dialog', { tabId, accept: true, promptText: 'Bob' });
  assert.equal(await page.textContent('#out'), 'name: Bob');
  await page.close();
});

test('beforeunload: navigating away answers with the dialog; accepting it leaves the page', async () => {
  const { page, tabId } = await open('dialogs.html');
  await page.evaluate(() => addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; }));
  await page.click('#out'); // a beforeunload dialog needs a user gesture on the page
  const nav = await b.call('browser_navigate', { tabId, url: server.url('basic.html'), timeout: 3000 });
  assert.equal(nav.dialog?.type, 'beforeunload', JSON.stringify(nav));
  const left = await b.call('browser_dialog', { tabId, accept: true });
  assert.ok(left.ok, JSON.stringify(left));
  await page.waitForURL(/basic\.html/);
  await page.close();
});

test("a user's tab: its dialog can be read, but answering it needs a claim", async () => {
  const { page, tabId } = await openUserTab(b, server, 'dialogs.html');
  page.on('dialog', () => {});
  const snap = await b.call('browser_snapshot', { tabId }); // attaches: dialogs are seen from now on
  assert.ok(!snap.error);
  const clicked = page.click('#confirm').catch(() => {}); // the user clicks
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await b.call('browser_dialog', { tabId })).dialog?.type, 'confirm');
  assert.equal((await b.call('browser_dialog', { tabId, accept: true })).error?.code, 'BROWSER_TAB_NOT_OWNED');
  const claim = await b.call('browser_claim_tab', { tabId });
  const ok = await b.call('browser_dialog', { tabId, accept: true, handle: claim.tab.handle });
  assert.ok(ok.ok, JSON.stringify(ok));
  await clicked;
  assert.equal(await page.textContent('#out'), 'confirmed');
  await page.close();
});
