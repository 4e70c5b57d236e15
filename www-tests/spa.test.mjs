// Client-rendered applications (issue #64), on a page that does what they do
// (pages/spa-widgets.html): a composite widget's ref types into the field it holds, and an
// element that takes no text says so (not "the page refused script"); a name typed into a
// field whose placeholder lists examples mentioning a card is not a secret; an app that has
// not rendered yet reads as such, never as an empty page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';
import { limits } from '../pkg/node/pcc.js';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const refOf = (state, re) => state.split('\n').find((l) => re.test(l))?.match(/\[ref=(\w+)\]/)?.[1];

test('a combobox wrapper and an editor frame take text into the field they hold; a button takes none', async () => {
  const { page, tabId } = await openTab(b, server, 'spa-widgets.html');
  await page.waitForSelector('#cb');
  for (const source of ['dom', 'chromium_ax']) {
    await page.evaluate(() => { payee.value = ''; ce.innerHTML = '<p></p>'; });
    const s = (await b.call('browser_snapshot', { tabId, source })).snapshot;
    const combo = refOf(s.state, /^\s*- combobox/);
    assert.ok(combo, s.state);
    const typed = await b.call('browser_type', { tabId, ref: combo, snapshotId: s.snapshotId, text: 'Gro' });
    assert.ok(!typed.error, `${source}: ${JSON.stringify(typed)}`);
    assert.equal(await page.evaluate(() => payee.value), 'Gro');
    assert.equal(await page.evaluate(() => cb.getAttribute('aria-expanded')), 'true', 'the page saw the keys');
    const s2 = (await b.call('browser_snapshot', { tabId, source })).snapshot;
    const frame = refOf(s2.state, /group "Notes"/) ?? refOf(s2.state, /textbox/);
    const editor = refOf(s2.state, /group "Notes"/);
    if (editor) {
      const filled = await b.call('browser_fill', { tabId, ref: editor, snapshotId: s2.snapshotId, text: 'Split with Sam' });
      assert.ok(!filled.error, JSON.stringify(filled));
      assert.equal(await page.evaluate(() => ce.textContent), 'Split with Sam');
    } else assert.ok(frame, s2.state);
    // A select reads keys (type-ahead): typing into it still reaches it.
    const select = refOf(s2.state, /combobox "Currency"/);
    const picked = await b.call('browser_type', { tabId, ref: select, snapshotId: s2.snapshotId, text: 'G' });
    assert.ok(!picked.error, JSON.stringify(picked));
    assert.equal(await page.evaluate(() => document.getElementById('cur').value), 'GBP');
    const button = refOf(s2.state, /button "Reconcile"/);
    const refused = await b.call('browser_type', { tabId, ref: button, snapshotId: s2.snapshotId, text: 'x' });
    assert.equal(refused.error?.code, 'INVALID_REQUEST', JSON.stringify(refused));
    assert.match(refused.error.message, /takes no text/);
    assert.doesNotMatch(refused.error.hint, /injection|finishes loading/);
  }
  await page.close();
});

test('a name typed into a field whose placeholder lists examples is shown everywhere after', async () => {
  const { page, tabId } = await openTab(b, server, 'spa-widgets.html');
  await page.waitForSelector('#aname');
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const name = refOf(s.state, /textbox "Name"/);
  assert.ok(name, s.state);
  assert.ok(!(await b.call('browser_type', { tabId, ref: name, snapshotId: s.snapshotId, text: 'Travel Fund' })).error);
  const create = refOf(s.state, /button "Create account"/);
  assert.ok(!(await b.call('browser_click', { tabId, ref: create, snapshotId: s.snapshotId })).error);
  for (const source of ['dom', 'chromium_ax']) {
    const after = await b.call('browser_snapshot', { tabId, source });
    const wire = JSON.stringify(after);
    assert.ok(!wire.includes('[redacted]'), `${source}: ${after.snapshot?.state}`);
    assert.match(after.snapshot.state, /link "Travel Fund"/);
    assert.match(after.snapshot.state, /heading "Travel Fund"/);
  }
  const text = await b.call('browser_extract', { tabId, format: 'text' });
  assert.ok(!JSON.stringify(text).includes('[redacted]'), JSON.stringify(text).slice(0, 400));
  await page.close();
});

test('a read of an app that has not rendered yet waits for its first render; one that takes too long reads as not rendered, never as an empty page', async () => {
  const soon = await openTab(b, server, 'spa-widgets.html?boot=600');
  const t0 = Date.now();
  const s1 = await b.call('browser_snapshot', { tabId: soon.tabId });
  assert.ok(!s1.error, JSON.stringify(s1));
  assert.match(s1.snapshot.state, /button "Create account"/, `the read waited for the app (${Date.now() - t0} ms): ${s1.snapshot.state}`);
  await soon.page.close();
  const { page, tabId } = await openTab(b, server, 'spa-widgets.html?boot=8000');
  const s = await b.call('browser_snapshot', { tabId });
  assert.ok(!s.error, JSON.stringify(s));
  assert.match(s.snapshot.state, /note: the page shows nothing yet/, s.snapshot.state);
  await page.close();
});

test('a client-side route change is reported like a navigation, with the state of the route; an anchor jump is not', async () => {
  const { page, tabId } = await openTab(b, server, 'spa-routes.html');
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const reports = refOf(s.state, /link "Reports"/);
  const r = await b.call('browser_click', { tabId, ref: reports, snapshotId: s.snapshotId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.equal(r.routed, true, JSON.stringify(r).slice(0, 300));
  assert.equal(r.navigated, undefined);
  assert.match(r.tab.url, /r=reports/);
  assert.match(r.snapshot?.state ?? '', /heading "Reports"[\s\S]*button "Export CSV"/, 'the route rendered, in the result');
  const s2 = (await b.call('browser_snapshot', { tabId })).snapshot;
  const jump = await b.call('browser_click', { tabId, ref: refOf(s2.state, /link "Notes"/), snapshotId: s2.snapshotId });
  assert.ok(!jump.error && jump.routed === undefined && jump.snapshot === undefined, JSON.stringify(jump).slice(0, 300));
  await page.close();
});

test("a navigating click answers once the page reached is parsed and quiet, not once every image has loaded", async () => {
  // nav-slow.html holds an image whose response never comes: its load event never fires.
  const { page, tabId } = await openTab(b, server, 'nav-a.html');
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const r = await b.call('browser_click', { tabId, ref: refOf(s.state, /link "Slow"/), snapshotId: s.snapshotId });
  assert.ok(!r.error && r.navigated, JSON.stringify(r).slice(0, 300));
  assert.match(r.snapshot?.state ?? '', /heading "Reached"/, 'the state of the page reached');
  assert.equal(await page.evaluate(() => document.readyState), 'interactive', 'its load never came');
  // The settle ended because the page was quiet, not at its cap (where waiting for the load ends).
  assert.ok(r.settledMs < limits().settleMaxMs, `settled in ${r.settledMs} ms: the click waited for the load`);
  await page.close();
});
