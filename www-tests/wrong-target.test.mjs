// Wrong-target safety (issue #9): mutate the page, then act with a ref from before the
// mutation. The action must hit the provably same element or fail closed — never another
// element, however alike it looks. Both sources: AX refs (backend node ids, real input
// events with a hit check) and DOM-walk refs (elements of the named walk, found through the
// debugger: the same input events and hit check).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

/** The ref of the "Delete" button in the list item whose text is `label`. */
function deleteRefOf(state, label) {
  const lines = state.split('\n');
  const at = lines.findIndex((l) => l.includes(label));
  const line = lines.slice(at).find((l) => /button "Delete"/.test(l));
  return line?.match(/\[ref=(\w+)\]/)?.[1];
}

async function setup(source) {
  const { page, tabId } = await openTab(b, server, 'targets.html');
  const snap = (await b.call('browser_snapshot', { tabId, source })).snapshot;
  assert.ok(snap, 'snapshot');
  const ref = deleteRefOf(snap.state, 'Beta');
  assert.ok(ref, snap.state);
  const click = () => b.call('browser_click', { tabId, ref, snapshotId: snap.snapshotId });
  const hits = () => page.evaluate(() => window.hits);
  return { page, tabId, snap, ref, click, hits };
}

for (const source of ['chromium_ax', 'dom']) {
  test(`${source}: reordered items — the old ref still hits the same element`, async () => {
    const t = await setup(source);
    await t.page.evaluate(() => window.mutate.reorder());
    const r = await t.click();
    assert.ok(!r.error, JSON.stringify(r));
    assert.deepEqual(await t.hits(), ['B:orig']);
    await t.page.close();
  });

  test(`${source}: a node replaced by an identical-looking one — fails closed`, async () => {
    const t = await setup(source);
    await t.page.evaluate(() => window.mutate.replace('B'));
    const r = await t.click();
    assert.equal(r.error?.code, 'BROWSER_STALE_REF', JSON.stringify(r));
    assert.deepEqual(await t.hits(), []);
    await t.page.close();
  });

  test(`${source}: a duplicate button inserted before the target — the original is hit`, async () => {
    const t = await setup(source);
    await t.page.evaluate(() => window.mutate.duplicateBefore('B'));
    const r = await t.click();
    assert.ok(!r.error, JSON.stringify(r));
    assert.deepEqual(await t.hits(), ['B:orig']);
    await t.page.close();
  });

  test(`${source}: an identical-looking button laid over the target — refused, the cover is not clicked`, async () => {
    const t = await setup(source);
    await t.page.evaluate(() => window.mutate.cover('B'));
    const r = await t.click();
    assert.equal(r.error?.code, 'BROWSER_ELEMENT_OBSCURED', JSON.stringify(r));
    assert.deepEqual(await t.hits(), []);
    await t.page.close();
  });

  test(`${source}: the click is trusted input, as a user's`, async () => {
    const t = await setup(source);
    await t.page.evaluate(() => document.addEventListener('click', (e) => { window.trusted = e.isTrusted; }, true));
    const r = await t.click();
    assert.ok(!r.error, JSON.stringify(r));
    assert.deepEqual(await t.hits(), ['B:orig']);
    assert.equal(await t.page.evaluate(() => window.trusted), true);
    await t.page.close();
  });

  test(`${source}: after a navigation the old ref fails closed and nothing is clicked`, async () => {
    const t = await setup(source);
    await b.call('browser_navigate', { tabId: t.tabId, url: server.url('targets.html?again') });
    const r = await t.click();
    assert.equal(r.error?.code, 'BROWSER_STALE_REF', JSON.stringify(r));
    assert.deepEqual(await t.hits(), []);
    await t.page.close();
  });
}

test('dom: refs name their walk — later walks (snapshot, dom_cua, extract) never redirect an old ref', async () => {
  const t = await setup('dom');
  await t.page.evaluate(() => window.mutate.reorder());
  // Walks after the snapshot: the same indices now hold other elements.
  const later = await b.call('browser_snapshot', { tabId: t.tabId, source: 'dom' });
  assert.ok(!later.error);
  assert.notEqual(deleteRefOf(later.snapshot.state, 'Beta'), undefined);
  assert.ok(!(await b.call('browser_dom_cua', { tabId: t.tabId })).error);
  assert.ok(!(await b.call('browser_extract', { tabId: t.tabId })).error);
  const r = await t.click();
  assert.ok(!r.error, JSON.stringify(r));
  assert.deepEqual(await t.hits(), ['B:orig']);
  // And the later snapshot's own ref for the same index points at its own element.
  const gammaNow = deleteRefOf(later.snapshot.state, 'Gamma');
  const r2 = await b.call('browser_click', { tabId: t.tabId, ref: gammaNow, snapshotId: later.snapshot.snapshotId });
  assert.ok(!r2.error, JSON.stringify(r2));
  assert.deepEqual(await t.hits(), ['B:orig', 'C:orig']);
  await t.page.close();
});

test('chromium_ax: date, time, colour and range fields take whole values; malformed ones are refused with the format', async () => {
  const { page, tabId } = await openTab(b, server, 'inputs.html');
  const snap = (await b.call('browser_snapshot', { tabId })).snapshot;
  const refOf = (name) => snap.state.split('\n').find((l) => l.includes(`"${name}"`))?.match(/\[ref=(\w+)\]/)?.[1];
  const fill = (name, text, tool = 'browser_fill') => b.call(tool, { tabId, ref: refOf(name), snapshotId: snap.snapshotId, text });
  const value = (id) => page.evaluate((id) => document.getElementById(id).value, id);
  for (const [name, id, text] of [['Departure', 'date', '2013-07-07'], ['Time', 'time', '13:45'], ['When', 'local', '2013-07-07T13:45'],
    ['Month', 'month', '2013-07'], ['Week', 'week', '2013-W27'], ['Colour', 'color', '#336699'], ['Volume', 'range', '7']]) {
    const r = await fill(name, text);
    assert.ok(!r.error, `${name}: ${JSON.stringify(r)}`);
    assert.equal(await value(id), text, name);
  }
  // Typing a date is setting it too (key by key it would land in the segments: 30707-02-01).
  assert.ok(!(await fill('Departure', '2014-08-09', 'browser_type')).error);
  assert.equal(await value('date'), '2014-08-09');
  const bad = await fill('Departure', '07/07/2013');
  assert.equal(bad.error?.code, 'INVALID_REQUEST');
  assert.match(bad.error.message, /YYYY-MM-DD/);
  // Held but outside min/max: done, and said (the page's validation will complain).
  const outside = await fill('Departure', '1999-01-01');
  assert.ok(!outside.error && outside.invalid === true, JSON.stringify(outside));
  // A range clamps: the field did not take the value, and says what it holds.
  const clamped = await fill('Volume', '11');
  assert.equal(clamped.error?.code, 'INVALID_REQUEST', JSON.stringify(clamped));
  assert.match(clamped.error.message, /now holds "10"/);
  assert.ok((await page.evaluate(() => window.changes)).includes('color'));
  await page.close();
});

test('chromium_ax: a page that steals the focus — typing reports uncertain, never ok; a field that never keeps it is refused before any key', async () => {
  const { page, tabId } = await openTab(b, server, 'inputs.html');
  const snap = (await b.call('browser_snapshot', { tabId })).snapshot;
  const refOf = (name) => snap.state.split('\n').find((l) => l.includes(`"${name}"`))?.match(/\[ref=(\w+)\]/)?.[1];
  const typed = await b.call('browser_type', { tabId, ref: refOf('Name'), snapshotId: snap.snapshotId, text: 'Ada Lovelace' });
  assert.equal(typed.error?.code, 'BROWSER_OPERATION_UNCERTAIN', JSON.stringify(typed));
  const thief = () => page.evaluate(() => document.getElementById('search').value);
  const before = await thief();
  const note = await b.call('browser_fill', { tabId, ref: refOf('Note'), snapshotId: snap.snapshotId, text: 'hello' });
  assert.equal(note.error?.code, 'BROWSER_ELEMENT_OBSCURED', JSON.stringify(note));
  assert.equal(await thief(), before, 'no key reached the thief');
  await page.close();
});

test('chromium_ax: a target hidden after the snapshot — refused at once as having no box, nothing clicked', async () => {
  const t = await setup('chromium_ax');
  await t.page.evaluate(() => { for (const b of document.querySelectorAll('button')) if (b.closest('li')?.textContent.includes('Beta')) b.style.display = 'none'; });
  const r = await t.click();
  assert.equal(r.error?.code, 'BROWSER_ELEMENT_OBSCURED', JSON.stringify(r));
  assert.match(r.error.message, /no visible box/);
  assert.deepEqual(await t.hits(), []);
  await t.page.close();
});
