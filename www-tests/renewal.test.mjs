// The wasm instance is renewed when the worker is idle after a large page (linear memory
// never shrinks; extension/services/core.js): memory is given back, and the model cannot tell: the
// refs it holds still act, an AX repeat is still `unchanged` against the same base,
// snapshot ids keep counting and the console journal keeps what it had.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab, closeTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const worker = (f, arg) => b.worker.evaluate(f, arg);

test('an idle renewal gives memory back and keeps refs, revisions, ids and journals', async () => {
  const { page, tabId } = await openTab(b, server, 'long-session.html');
  try {
    assert.ok(!(await b.call('browser_console', { tabId })).error);
    await page.evaluate(() => console.log('logged before the renewal'));
    const snap = await b.call('browser_snapshot', { tabId });
    assert.ok(!snap.error, JSON.stringify(snap).slice(0, 300));
    const ref = snap.snapshot.state.match(/button "New chat" \[ref=(e\d+)\]/)?.[1];
    assert.ok(ref, snap.snapshot.state.slice(0, 500));
    const ax = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'renew' });
    assert.equal(ax.mode, 'full', JSON.stringify(ax).slice(0, 300));
    const before = await worker(async () => ({ bytes: globalThis.pcc.memoryBytes(), renewals: await globalThis.pcc.renewals() }));

    // Renew soon after the next call (the shipped limits: 10 s idle, above 8 MiB).
    await worker(() => { globalThis.pcc.renewIdleMs = 50; globalThis.pcc.renewAboveBytes = 0; });
    try {
      await b.call('browser_tabs', {});
      let after;
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = await worker(async () => ({ bytes: globalThis.pcc.memoryBytes(), renewals: await globalThis.pcc.renewals() }));
        if (after.renewals > before.renewals) break;
      }
      assert.ok(after.renewals > before.renewals, 'the instance was renewed');
      assert.ok(after.bytes < before.bytes && after.bytes <= 8 << 20, `linear memory ${before.bytes} → ${after.bytes} bytes`);
    } finally {
      await worker(() => { delete globalThis.pcc.renewIdleMs; delete globalThis.pcc.renewAboveBytes; });
    }

    const repeat = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'renew' });
    assert.equal(repeat.mode, 'unchanged', JSON.stringify(repeat).slice(0, 300));
    assert.equal(repeat.baseSnapshotId, ax.snapshotId);
    const click = await b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref });
    assert.ok(click.ok, JSON.stringify(click).slice(0, 300));
    const log = await b.call('browser_console', { tabId });
    assert.ok(log.entries?.some((e) => e.text === 'logged before the renewal'), JSON.stringify(log).slice(0, 300));
    const next = await b.call('browser_snapshot', { tabId });
    assert.ok(![snap.snapshot.snapshotId, ax.snapshotId, repeat.snapshotId].includes(next.snapshot?.snapshotId), 'ids keep counting');
  } finally {
    await closeTab(b, page, tabId);
  }
});
