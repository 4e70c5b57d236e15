// The tab, navigation, waiting and screenshot tools end to end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openTab, openUserTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });
const open = (page) => openTab(b, server, page);

test('browser_tabs: light descriptors, never a favicon or Base64', async () => {
  const { page, tabId } = await open('favicon.html');
  await page.waitForTimeout(200);
  const r = await b.call('browser_tabs');
  assert.ok(!r.error, JSON.stringify(r));
  const t = r.tabs.find((x) => x.id === tabId);
  assert.equal(t.title, 'Favicon page');
  assert.ok(t.url.endsWith('/favicon.html'));
  const wire = JSON.stringify(r);
  assert.ok(!/favIcon|base64|iVBOR/.test(wire), wire);
  assert.equal(r.count, r.tabs.length);
  const sel = await b.call('browser_selected_tab', { tabId });
  assert.equal(sel.tab.id, tabId);
  assert.ok(sel.tab.handle.incarnation);
  assert.ok(!/favIcon|base64/.test(JSON.stringify(sel)));
  await page.close();
});

test('browser_navigate loads the page, invalidates old refs, refuses bad URLs', async () => {
  const { page, tabId } = await open('basic.html');
  const s1 = (await b.call('browser_snapshot', { tabId })).snapshot;
  const nav = await b.call('browser_navigate', { tabId, url: server.url('nested.html') });
  assert.ok(nav.ok, JSON.stringify(nav));
  assert.ok(nav.tab.url.endsWith('/nested.html'));
  assert.equal(nav.tab.title, 'Nested');
  const s2 = (await b.call('browser_snapshot', { tabId })).snapshot;
  assert.match(s2.state, /Deeply nested unique text alpha/);
  const r = await b.call('browser_click', { tabId, snapshotId: s1.snapshotId, ref: 'e2' });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  for (const url of ['javascript:alert(1)', 'chrome://settings', 'not a url']) {
    const bad = await b.call('browser_navigate', { tabId, url });
    assert.equal(bad.error?.code, 'INVALID_REQUEST', url);
  }
  await page.close();
});

test('browser_navigate action: back, forward and reload, each waited for; refs of the left page fail closed', async () => {
  const { page, tabId } = await open('basic.html');
  await b.call('browser_navigate', { tabId, url: server.url('nested.html') });
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const back = await b.call('browser_navigate', { tabId, action: 'back' });
  assert.ok(back.ok && back.tab.url.endsWith('/basic.html'), JSON.stringify(back));
  assert.equal((await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: 'e1' })).error?.code, 'BROWSER_STALE_REF');
  const fwd = await b.call('browser_navigate', { tabId, action: 'forward' });
  assert.ok(fwd.ok && fwd.tab.url.endsWith('/nested.html'), JSON.stringify(fwd));
  await page.evaluate(() => { window.__mark = 1; });
  const re = await b.call('browser_navigate', { tabId, action: 'reload' });
  assert.ok(re.ok && re.tab.url.endsWith('/nested.html'), JSON.stringify(re));
  assert.equal(await page.evaluate(() => window.__mark), undefined, 'a reload is a new document');
  assert.notEqual(re.tab.handle.incarnation, fwd.tab.handle.incarnation);
  const again = await b.call('browser_navigate', { tabId, action: 'forward' });
  assert.equal(again.error?.code, 'INVALID_REQUEST', JSON.stringify(again));
  assert.equal((await b.call('browser_navigate', { tabId, action: 'sideways' })).error?.code, 'INVALID_REQUEST');
  assert.equal((await b.call('browser_navigate', { tabId, action: 'back', url: server.url('basic.html') })).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('browser_wait_for: text and selector, with a timeout that has its own code', async () => {
  const { page, tabId } = await open('favicon.html');
  await page.click('#later');
  const t = await b.call('browser_wait_for', { tabId, text: 'Loaded later', timeout: 5000 });
  assert.ok(t.ok, JSON.stringify(t));
  const s = await b.call('browser_wait_for', { tabId, selector: '#done' });
  assert.ok(s.ok);
  const late = await b.call('browser_wait_for', { tabId, text: 'never appears', timeout: 300 });
  assert.equal(late.error?.code, 'BROWSER_WAIT_TIMEOUT');
  assert.ok(late.error.hint);
  const bad = await b.call('browser_wait_for', { tabId });
  assert.equal(bad.error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('browser_screenshot: exact model text, the image only as an attachment', async () => {
  const { page, tabId } = await open('basic.html');
  const r = await b.call('browser_screenshot', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.equal(r.text, `Screenshot captured for tab ${tabId}.`);
  assert.equal(r.attachment.mimeType, 'image/png');
  assert.ok(Buffer.from(r.attachment.data, 'base64').subarray(1, 4).toString() === 'PNG');
  const { attachment, ...rest } = r;
  assert.ok(!/iVBOR|base64/.test(JSON.stringify(rest)), 'no Base64 outside the attachment');
  await page.close();
});

test('browser_wait_for: text gone, URL glob, load states, network idle, and a target or ref in a state', async () => {
  const { page, tabId } = await open('waits.html');
  const gone = await b.call('browser_wait_for', { tabId, textGone: 'Loading results', timeout: 3000 });
  assert.ok(gone.ok, JSON.stringify(gone));
  assert.ok((await b.call('browser_wait_for', { tabId, url: '*/waits.html', load: 'load' })).ok);
  assert.equal((await b.call('browser_wait_for', { tabId, url: '*/other.html', timeout: 300 })).error?.code, 'BROWSER_WAIT_TIMEOUT');
  assert.ok((await b.call('browser_wait_for', { tabId, target: { role: 'button', name: 'Continue' }, state: 'enabled' })).ok);
  // A target appears, then disappears.
  await page.click('#show');
  const shown = await b.call('browser_wait_for', { tabId, target: { role: 'button', name: 'Details panel' }, timeout: 3000 });
  assert.ok(shown.ok, JSON.stringify(shown));
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const ref = s.state.match(/button "Continue" \[ref=(e\d+)\]/)[1];
  await page.click('#hide');
  assert.ok((await b.call('browser_wait_for', { tabId, target: { role: 'button', name: 'Details panel' }, state: 'hidden', timeout: 3000 })).ok);
  // A ref: attached and visible now, detached once removed.
  const vis = await b.call('browser_wait_for', { tabId, ref, snapshotId: s.snapshotId, state: 'visible' });
  assert.ok(vis.ok, JSON.stringify(vis));
  assert.equal((await b.call('browser_wait_for', { tabId, ref, snapshotId: s.snapshotId, state: 'detached', timeout: 300 })).error?.code, 'BROWSER_WAIT_TIMEOUT');
  await page.click('#remove');
  const det = await b.call('browser_wait_for', { tabId, ref, snapshotId: s.snapshotId, state: 'detached', timeout: 3000 });
  assert.ok(det.ok, JSON.stringify(det));
  assert.equal(await page.$('#go'), null);
  // Network idle waits for the page's fetch to finish.
  await page.click('#fetch');
  const idle = await b.call('browser_wait_for', { tabId, load: 'networkidle', timeout: 5000 });
  assert.ok(idle.ok && idle.waitedMs >= 700, JSON.stringify(idle));
  assert.equal(await page.evaluate(() => window.fetched), true);
  for (const bad of [{ load: 'soon' }, { state: 'visible' }, { target: { text: 'x' }, state: 'glowing' }, { url: 5 }]) {
    assert.equal((await b.call('browser_wait_for', { tabId, ...bad })).error?.code, 'INVALID_REQUEST', JSON.stringify(bad));
  }
  await page.close();
});

test('browser_fill_form: refs and targets filled in order, one result per field, bad input refused whole', async () => {
  const { page, tabId } = await open('inputs.html');
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const dateRef = s.state.match(/"Departure"[^\n]*\[ref=(e\d+)\]/)[1];
  const r = await b.call('browser_fill_form', { tabId, snapshotId: s.snapshotId, fields: [
    { ref: dateRef, value: '2024-05-06' },
    { target: { label: 'Time' }, value: '07:08' },
    { target: { label: 'Search' }, value: 'tides' },
    { ref: 'e999', value: 'x' },
    { target: { label: 'Month' }, value: '2024-07' },
  ] });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.deepEqual(r.fields.map((f) => f.ok ? 'ok' : f.error?.code), ['ok', 'ok', 'ok', 'BROWSER_STALE_REF', 'ok']);
  assert.deepEqual(await page.evaluate(() => ['date', 'time', 'search', 'month'].map((id) => document.getElementById(id).value)), ['2024-05-06', '07:08', 'tides', '2024-07']);
  for (const bad of [{ fields: [] }, { fields: [{ ref: dateRef }] }, { fields: [{ ref: dateRef, value: 'x' }] }, { fields: [{ ref: dateRef, target: { label: 'Time' }, value: 'x' }], snapshotId: s.snapshotId }]) {
    assert.equal((await b.call('browser_fill_form', { tabId, ...bad })).error?.code, 'INVALID_REQUEST', JSON.stringify(bad));
  }
  await page.close();
});

test('browser_select_tab: an agent tab becomes the active one; a user tab only with a claim', async () => {
  const a = await open('basic.html');
  const c = await open('nested.html');
  assert.equal((await b.call('browser_selected_tab')).tab.id, c.tabId);
  const r = await b.call('browser_select_tab', { tabId: a.tabId });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal((await b.call('browser_selected_tab')).tab.id, a.tabId);
  const u = await openUserTab(b, server, 'favicon.html'); // a URL of its own: the harness finds tabs by URL
  const refused = await b.call('browser_select_tab', { tabId: u.tabId });
  assert.equal(refused.error?.code, 'BROWSER_TAB_NOT_OWNED', JSON.stringify(refused));
  assert.equal((await b.call('browser_select_tab', {})).error?.code, 'INVALID_REQUEST');
  for (const t of [a, c, u]) await t.page.close();
});

test('a session opens three tabs, marks one deliverable, and cleanup closes the other two; user tabs stay, claims are given back', async () => {
  const opened = [];
  for (const p of ['basic.html', 'nested.html', 'hidden.html']) {
    const r = await b.call('browser_tab_open', { url: server.url(p), sessionId: 'task-7' });
    assert.ok(r.ok, JSON.stringify(r));
    opened.push(r.tab.id);
  }
  const other = (await b.call('browser_tab_open', { url: server.url('overlay.html'), sessionId: 'task-8' })).tab.id;
  const user = await openUserTab(b, server, 'longlist.html');
  const claim = await b.call('browser_claim_tab', { tabId: user.tabId });
  // The tab strip: the session's tabs share one group, another session has its own, the
  // user's tab (claimed) is in none; every row says whose tab it is and where it sits.
  const rows = new Map((await b.call('browser_tabs')).tabs.map((t) => [t.id, t]));
  const groupIds = opened.map((id) => rows.get(id).groupId);
  assert.ok(Number.isInteger(groupIds[0]) && groupIds.every((g) => g === groupIds[0]), JSON.stringify(groupIds));
  assert.ok(Number.isInteger(rows.get(other).groupId) && rows.get(other).groupId !== groupIds[0]);
  assert.equal(rows.get(user.tabId).groupId, undefined, 'a user tab is never grouped');
  assert.deepEqual([...opened, other, user.tabId].map((id) => rows.get(id).owner), ['agent', 'agent', 'agent', 'agent', 'claimed']);
  assert.ok([...rows.values()].every((t) => Number.isInteger(t.index) && ['user', 'agent', 'claimed'].includes(t.owner)), JSON.stringify([...rows.values()]));
  assert.equal(rows.get(user.tabId).handle?.tabFence, claim.tab.handle.tabFence, 'a claimed row carries the handle its side effects need');
  assert.ok(opened.every((id) => rows.get(id).handle === undefined));
  const group = await b.worker.evaluate((id) => chrome.tabGroups.get(id).then((g) => [g.title, g.color]), groupIds[0]);
  assert.deepEqual(group, ['agent: task-7', 'blue']);
  const custom = (await b.call('browser_tab_open', { url: server.url('basic.html'), groupTitle: 'Research', groupColor: 'green' })).tab.id;
  const bare = (await b.call('browser_tab_open', { url: server.url('basic.html'), groupTitle: '' })).tab.id;
  const rows2 = new Map((await b.call('browser_tabs')).tabs.map((t) => [t.id, t]));
  assert.deepEqual(await b.worker.evaluate((id) => chrome.tabGroups.get(id).then((g) => [g.title, g.color]), rows2.get(custom).groupId), ['Research', 'green']);
  assert.equal(rows2.get(bare).groupId, undefined);
  assert.equal((await b.call('browser_tab_open', { url: server.url('basic.html'), groupColor: 'mauve' })).error?.code, 'INVALID_REQUEST');
  for (const id of [custom, bare]) await b.call('browser_tab_close', { tabId: id });
  const marked = await b.call('browser_mark_tab', { tabId: opened[2], as: 'deliverable' });
  assert.deepEqual([marked.ok, marked.as], [true, 'deliverable']);
  assert.equal((await b.call('browser_mark_tab', { tabId: opened[2], as: 'shiny' })).error?.code, 'INVALID_REQUEST');
  const preview = await b.call('browser_cleanup', { sessionId: 'task-7', preview: true });
  assert.deepEqual([preview.close.sort(), preview.kept], [opened.slice(0, 2).sort(), [{ id: opened[2], as: 'deliverable' }]]);
  assert.equal((await b.call('browser_tabs')).tabs.filter((t) => opened.includes(t.id)).length, 3, 'a preview closes nothing');
  const done = await b.call('browser_cleanup', { sessionId: 'task-7' });
  assert.deepEqual(done.closed.sort(), opened.slice(0, 2).sort());
  const ids = (await b.call('browser_tabs')).tabs.map((t) => t.id);
  assert.ok(!ids.includes(opened[0]) && !ids.includes(opened[1]) && ids.includes(opened[2]) && ids.includes(other) && ids.includes(user.tabId));
  // Without a session: every unmarked agent tab opened without one closes and the claim is
  // given back; another session's tab is reached only by its name (issue #65).
  const mine = (await b.call('browser_tab_open', { url: server.url('basic.html') })).tab.id;
  const all = await b.call('browser_cleanup', {});
  assert.ok(all.closed.includes(mine) && !all.closed.includes(opened[2]) && all.released.includes(user.tabId), JSON.stringify(all));
  assert.ok(!all.closed.includes(other) && (await b.call('browser_tabs')).tabs.some((t) => t.id === other), "another session's tab stays");
  assert.deepEqual((await b.call('browser_cleanup', { sessionId: 'task-8' })).closed, [other]);
  assert.ok((await b.call('browser_tabs')).tabs.some((t) => t.id === user.tabId), 'the user tab stays open');
  const click = await b.call('browser_press', { tabId: user.tabId, key: 'Tab', handle: claim.tab.handle });
  assert.equal(click.error?.code, 'BROWSER_TAB_NOT_OWNED', 'the claim was given back');
  await user.page.close();
});

test('browser_cdp: allowed emulation and metrics on an agent tab; DOM, script, input and user tabs refused', async () => {
  const { page, tabId } = await open('basic.html');
  const em = await b.call('browser_cdp', { tabId, method: 'Emulation.setDeviceMetricsOverride', params: { width: 400, height: 700, deviceScaleFactor: 1, mobile: false } });
  assert.ok(em.ok, JSON.stringify(em));
  assert.equal(await page.evaluate(() => innerWidth), 400);
  const m = await b.call('browser_cdp', { tabId, method: 'Page.getLayoutMetrics' });
  assert.match(m.result, /"cssLayoutViewport":\{[^}]*"clientWidth":400/);
  await b.call('browser_cdp', { tabId, method: 'Emulation.clearDeviceMetricsOverride' });
  for (const method of ['Runtime.evaluate', 'DOM.getDocument', 'Input.dispatchKeyEvent', 'Network.getCookies', 'Storage.getCookies', 'Page.navigate', 'Emulation.setDeviceMetricsOverrideX']) {
    assert.equal((await b.call('browser_cdp', { tabId, method, params: {} })).error?.code, 'INVALID_REQUEST', method);
  }
  const user = await openUserTab(b, server, 'nested.html');
  assert.equal((await b.call('browser_cdp', { tabId: user.tabId, method: 'Page.getLayoutMetrics' })).error?.code, 'BROWSER_TAB_NOT_OWNED');
  await user.page.close();
  await page.close();
});

test('browser_drag: an HTML5 drag is dropped with its data; a mouse-driven slider follows the moves', async () => {
  const { page, tabId } = await open('drag.html');
  const zone = await page.locator('#zone').boundingBox();
  const r = await b.call('browser_drag', { tabId, target: { role: 'button', name: 'Card one' }, toX: zone.x + 50, toY: zone.y + 40 });
  assert.ok(r.ok && r.html5, JSON.stringify(r));
  assert.equal(await page.textContent('#out'), 'dropped card-1');
  const track = await page.locator('#track').boundingBox();
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const knob = s.state.match(/slider "Knob"[^\n]*\[ref=(e\d+)\]/)[1];
  const m = await b.call('browser_drag', { tabId, ref: knob, snapshotId: s.snapshotId, toX: track.x + 215, toY: track.y + 15 });
  assert.ok(m.ok && !m.html5, JSON.stringify(m));
  assert.equal(await page.getAttribute('#knob', 'aria-valuenow'), '200');
  for (const bad of [{ ref: knob, snapshotId: s.snapshotId }, { ref: knob, snapshotId: s.snapshotId, toX: 5 }, { ref: knob, snapshotId: s.snapshotId, toX: 99999, toY: 5 }]) {
    assert.equal((await b.call('browser_drag', { tabId, ...bad })).error?.code, 'INVALID_REQUEST', JSON.stringify(bad));
  }
  await page.close();
});

test('browser_downloads: a clicked download is listed complete, with its file and a redacted URL', async () => {
  const { page, tabId } = await open('downloads.html');
  const click = await b.call('browser_click', { tabId, target: { role: 'link', name: 'Get the report' } });
  assert.ok(click.ok, JSON.stringify(click));
  let d;
  for (let i = 0; i < 30 && d?.state !== 'complete'; i++) {
    await page.waitForTimeout(100);
    d = (await b.call('browser_downloads', {})).downloads.find((x) => x.url.includes('/report.csv'));
  }
  assert.equal(d?.state, 'complete', JSON.stringify(d));
  assert.equal(d.bytes, 19);
  assert.equal(fs.readFileSync(d.path, 'utf8'), 'name,value\nalpha,1\n');
  assert.ok(d.url.endsWith('/report.csv?token=[redacted]'), d.url);
  assert.ok(!JSON.stringify(await b.call('browser_downloads', {})).includes('dl-SECRET-1'));
  assert.equal((await b.call('browser_downloads', { maxEntries: 0 })).error?.code, 'INVALID_REQUEST');
  // browser_download: the caller names where the file goes under the download directory.
  // (Playwright saves every download under a GUID in its own folder: give the browser back
  // its own download directory and naming, as a user's browser has.)
  const cdp = await b.context.browser().newBrowserCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'default' });
  const url = server.url('report.csv?token=dl-SECRET-2');
  const one = await b.call('browser_download', { url, filename: 'pcc-test/reports/q3.csv' });
  assert.equal(one.state, 'complete', JSON.stringify(one));
  assert.ok(one.path.endsWith(`${path.sep}pcc-test${path.sep}reports${path.sep}q3.csv`), one.path);
  assert.equal(fs.readFileSync(one.path, 'utf8'), 'name,value\nalpha,1\n');
  assert.ok(!JSON.stringify(one).includes('dl-SECRET-2'), JSON.stringify(one));
  const two = await b.call('browser_download', { url, filename: 'pcc-test/reports/q3.csv' });
  assert.ok(two.path !== one.path && two.path.includes('q3'), `a taken name gets a number: ${two.path}`);
  for (const filename of ['/etc/x.csv', '../x.csv', 'a/../../x.csv', '']) {
    assert.equal((await b.call('browser_download', { url, filename })).error?.code, 'INVALID_REQUEST', filename);
  }
  assert.equal((await b.call('browser_download', { url: 'file:///etc/passwd' })).error?.code, 'INVALID_REQUEST');
  fs.rmSync(path.dirname(path.dirname(one.path)), { recursive: true, force: true });
  await cdp.detach();
  await page.close();
});

/** A PNG's pixel size, from its IHDR chunk. */
const pngSize = (b64) => { const b = Buffer.from(b64, 'base64'); return [b.readUInt32BE(16), b.readUInt32BE(20)]; };

test('browser_screenshot: fullPage captures the whole tall page, ref one element; the text stays the sentence', async () => {
  const { page, tabId } = await open('tall.html');
  const vp = await b.call('browser_screenshot', { tabId });
  const [vw, vh] = pngSize(vp.attachment.data);
  const dpr = await page.evaluate(() => devicePixelRatio);
  const docH = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(docH > 3000 && vh < docH * dpr, `${vh} of ${docH}`);
  const full = await b.call('browser_screenshot', { tabId, fullPage: true, maxEdge: 16384 });
  assert.equal(full.text, `Screenshot captured for tab ${tabId}.`);
  assert.deepEqual(pngSize(full.attachment.data), [vw, Math.round(docH * dpr)]);
  assert.equal(full.truncated, undefined);
  // At the default size the long side is 1,568 px, the shape kept.
  const bounded = await b.call('browser_screenshot', { tabId, fullPage: true });
  const [bw, bh] = pngSize(bounded.attachment.data);
  assert.equal(bh, 1568);
  assert.ok(Math.abs(bw / bh - vw / (docH * dpr)) < 0.01, `${bw}×${bh}`);
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const ref = s.state.match(/button "Pay now" \[ref=(e\d+)\]/)[1];
  const el = await b.call('browser_screenshot', { tabId, ref, snapshotId: s.snapshotId });
  assert.ok(!el.error, JSON.stringify(el.error));
  assert.deepEqual(pngSize(el.attachment.data), [Math.round(120 * dpr), Math.round(40 * dpr)]);
  assert.equal((await b.call('browser_screenshot', { tabId, ref, snapshotId: s.snapshotId, fullPage: true })).error?.code, 'INVALID_REQUEST');
  assert.equal((await b.call('browser_screenshot', { tabId, ref: 'e999', snapshotId: s.snapshotId })).error?.code, 'BROWSER_STALE_REF');
  await page.close();
});

test('ownership: user tabs are read freely, acted on only after a claim with the handle', async () => {
  const { page, tabId } = await openUserTab(b, server, 'basic.html');
  const snap = await b.call('browser_snapshot', { tabId });
  assert.ok(!snap.error, 'reads need no claim');
  const ref = snap.snapshot.state.split('\n').find((l) => l.includes('button "Click me"')).match(/ref=(e\d+)/)[1];
  let r = await b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref });
  assert.equal(r.error?.code, 'BROWSER_TAB_NOT_OWNED', JSON.stringify(r));
  assert.ok(r.error.hint.includes('browser_claim_tab'));
  assert.equal(await page.evaluate(() => window.clicks), 0, 'nothing happened');
  r = await b.call('browser_navigate', { tabId, url: server.url('nested.html') });
  assert.equal(r.error?.code, 'BROWSER_TAB_NOT_OWNED');
  r = await b.call('browser_tab_close', { tabId });
  assert.equal(r.error?.code, 'BROWSER_TAB_NOT_OWNED');
  const claim = await b.call('browser_claim_tab', { tabId });
  assert.ok(claim.ok, JSON.stringify(claim));
  r = await b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref });
  assert.equal(r.error?.code, 'BROWSER_TARGET_MISMATCH', 'a claimed tab needs its handle');
  r = await b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref, handle: claim.tab.handle });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(await page.evaluate(() => window.clicks), 1);
  await b.call('browser_release_tab', { tabId });
  r = await b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref, handle: claim.tab.handle });
  assert.equal(r.error?.code, 'BROWSER_TAB_NOT_OWNED');
  await page.close();
});

test('agent tabs: opened, acted on and closed by the agent', async () => {
  const { page, tabId, handle } = await openTab(b, server, 'basic.html');
  assert.ok(handle?.incarnation);
  const s = (await b.call('browser_snapshot', { tabId })).snapshot;
  const ref = s.state.split('\n').find((l) => l.includes('button "Click me"')).match(/ref=(e\d+)/)[1];
  assert.ok((await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref })).ok);
  const closed = page.waitForEvent('close');
  assert.ok((await b.call('browser_tab_close', { tabId })).ok);
  await closed;
  const tabs = await b.call('browser_tabs');
  assert.ok(!tabs.tabs.some((t) => t.id === tabId));
});

test('actions settle: the next read sees what the action started (animation, late DOM, a fetch), not its first frame', async () => {
  const { page, tabId } = await open('settle.html');
  const snap = (await b.call('browser_snapshot', { tabId })).snapshot;
  const refOf = (re) => snap.state.split('\n').find((l) => re.test(l))?.match(/\[ref=(\w+)\]/)?.[1];
  // An infinite spinner is not movement: a click that changes nothing settles at once.
  const still = await b.call('browser_hover', { tabId, ref: refOf(/button "Suggest"/), snapshotId: snap.snapshotId });
  assert.ok(!still.error && still.settledMs < 600, JSON.stringify(still));
  const opened = await b.call('browser_click', { tabId, ref: refOf(/button "Pick a date"/), snapshotId: snap.snapshotId });
  assert.ok(!opened.error && Number.isInteger(opened.settledMs) && opened.settledMs <= 1500, JSON.stringify(opened));
  assert.match((await b.call('browser_snapshot', { tabId })).snapshot.state, /button "Submit date"/);
  const asked = await b.call('browser_click', { tabId, ref: refOf(/button "Suggest"/), snapshotId: snap.snapshotId });
  assert.ok(!asked.error, JSON.stringify(asked));
  assert.match((await b.call('browser_snapshot', { tabId })).snapshot.state, /link "Lisbon"/);
  await page.close();
});

test('clipboard: written text is read back; what is read is bounded and scrubbed of the active tab\'s sensitive values', async () => {
  const { page, tabId } = await open('basic.html');
  await page.bringToFront();
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<label>PIN <input type="password" value="Clip-S3cret-91"></label>'));
  const w = await b.call('browser_clipboard_write', { text: 'hello from pcc — ünïcode' });
  assert.deepEqual(w, { ok: true });
  assert.deepEqual(await b.call('browser_clipboard_read'), { content: 'hello from pcc — ünïcode' });
  // The user copied a secret that is in a sensitive field of the page: never shown.
  await b.call('browser_clipboard_write', { text: 'note Clip-S3cret-91 end' });
  const r = await b.call('browser_clipboard_read');
  assert.ok(!r.content.includes('Clip-S3cret-91') && r.content.startsWith('note '), JSON.stringify(r));
  await b.call('browser_clipboard_write', { text: 'x'.repeat(20000) });
  assert.equal((await b.call('browser_clipboard_read')).content.length, 20000);
  assert.equal((await b.call('browser_clipboard_write', { text: 'x'.repeat(20001) })).error?.code, 'INVALID_REQUEST');
  assert.equal((await b.call('browser_clipboard_write', {})).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('an action that starts a navigation answers with the page it reached: a form POST the server redirects 300 ms later; one that does not commit in time says it is still navigating', async () => {
  const { page, tabId } = await open('slow-form.html');
  const r = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Log in' } });
  assert.ok(!r.error, JSON.stringify(r.error));
  assert.equal(r.navigated, true, JSON.stringify(r));
  assert.match(r.tab.url, /\/article\.html$/, JSON.stringify(r.tab));
  assert.equal(r.tab.title, 'How tides work');
  assert.equal(r.navigating, undefined);
  await b.call('browser_navigate', { tabId, url: server.url('slow-form.html') });
  const slow = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Wait and sign in' } });
  assert.ok(!slow.error, JSON.stringify(slow.error));
  assert.equal(slow.navigating, true, JSON.stringify(slow));
  assert.match(slow.tab.url, /slow-form\.html$/, 'the page it left, said to be still navigating');
  assert.equal(slow.snapshot, undefined, 'a page not reached yet is not read');
  await page.close();
});

test('an action that reached another page answers with its state, read as the session last read a page (AX here): its refs act, and the next read is unchanged against it', async () => {
  const { page, tabId } = await open('slow-form.html');
  const first = await b.call('browser_accessibility_snapshot', { tabId });
  const ref = first.state.split('\n').find((l) => /button "Log in"/.test(l)).match(/ref=(a\d+)/)[1];
  const r = await b.call('browser_click', { tabId, ref, snapshotId: first.snapshotId });
  assert.equal(r.navigated, true, JSON.stringify(r));
  assert.match(r.snapshot?.snapshotId ?? '', /^ax-/, JSON.stringify(r));
  assert.match(r.snapshot.state, /heading "How tides work"/, 'the page reached, not the form');
  assert.doesNotMatch(r.snapshot.state, /Log in/);
  const again = await b.call('browser_accessibility_snapshot', { tabId });
  assert.equal(again.mode, 'unchanged', 'the state in the result is the base of the next read');
  const news = r.snapshot.state.split('\n').find((l) => /link "News"/.test(l)).match(/ref=(a\d+)/)[1];
  const clicked = await b.call('browser_click', { tabId, ref: news, snapshotId: r.snapshot.snapshotId });
  assert.ok(!clicked.error, JSON.stringify(clicked.error));
  assert.equal(clicked.navigated, true);
  // A page read with browser_snapshot last: the page reached by browser_navigate comes the same way.
  await b.call('browser_snapshot', { tabId });
  const back = await b.call('browser_navigate', { tabId, url: server.url('article.html') });
  assert.match(back.snapshot?.snapshotId ?? '', /^snapshot-/, JSON.stringify(back).slice(0, 300));
  assert.match(back.snapshot.state, /heading "How tides work"/);
  // An action that stayed on its page answers without a state.
  const h = back.snapshot.state.split('\n').find((l) => /link "Home"/.test(l)).match(/ref=(e\d+)/)[1];
  const hovered = await b.call('browser_hover', { tabId, ref: h, snapshotId: back.snapshot.snapshotId });
  assert.ok(!hovered.error && hovered.snapshot === undefined, JSON.stringify(hovered));
  await page.close();
});
