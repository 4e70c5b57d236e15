// browser_accessibility_snapshot end to end: full / diff / unchanged on real pages, with
// refs that act on the right element and never survive their document.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const open = (path) => openTab(b, server, path);

async function ax(tabId, extra = {}) {
  const r = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'e2e', ...extra });
  assert.ok(!r.error, JSON.stringify(r.error));
  return r;
}

const refIn = (line) => line.match(/\[ref=(a\d+)\]/)?.[1];

test('full, then unchanged, then one-line diffs for a label change, a typed value, an added element', async () => {
  const { page, tabId } = await open('basic.html');
  const full = await ax(tabId);
  assert.equal(full.mode, 'full');
  assert.equal(full.source, 'chromium_ax');
  assert.match(full.state, /button "Query" \[ref=a\d+\]/);
  const same = await ax(tabId);
  assert.equal(same.mode, 'unchanged');
  assert.equal(same.charCount, 0);
  assert.equal(same.baseSnapshotId, full.snapshotId);
  assert.equal(same.state, undefined);

  await page.evaluate(() => { document.getElementById('counter').textContent = 'Renamed'; });
  const renamed = await ax(tabId);
  assert.equal(renamed.mode, 'diff');
  assert.match(renamed.state, /^~ button "Renamed" \[ref=a\d+\]$/);
  assert.equal(renamed.baseSnapshotId, same.snapshotId);

  const searchRef = refIn(full.state.split('\n').find((l) => l.includes('textbox "Search"')));
  const typed = await b.call('browser_type', { tabId, snapshotId: renamed.snapshotId, ref: searchRef, text: 'orders' });
  assert.ok(typed.ok, JSON.stringify(typed));
  const valued = await ax(tabId);
  assert.equal(valued.mode, 'diff');
  assert.equal(valued.state.split('\n').length, 1, valued.state);
  assert.match(valued.state, /^~ textbox "Search" value="orders"/);

  await page.evaluate(() => {
    const btn = document.createElement('button');
    btn.textContent = 'Brand new';
    btn.onclick = () => { btn.textContent = 'Brand new clicked'; };
    document.body.appendChild(btn);
  });
  const added = await ax(tabId);
  assert.equal(added.mode, 'diff');
  assert.match(added.state, /^\+ button "Brand new" \[ref=a\d+\]$/);
  const fresh = refIn(added.state);
  assert.ok(!full.state.includes(`[ref=${fresh}]`), 'a fresh ref');
  const clicked = await b.call('browser_click', { tabId, snapshotId: added.snapshotId, ref: fresh });
  assert.ok(clicked.ok, JSON.stringify(clicked));
  assert.equal(await page.evaluate(() => document.body.lastElementChild.textContent), 'Brand new clicked');
  // A ref of an unchanged node from the full read still acts, under the newest id.
  const queryRef = refIn(full.state.split('\n').find((l) => l.includes('button "Query"')));
  const q = await b.call('browser_click', { tabId, snapshotId: added.snapshotId, ref: queryRef });
  assert.ok(q.ok, JSON.stringify(q));
  assert.equal(await page.textContent('#out'), 'Searched: orders');
  await page.close();
});

test('removed nodes fail closed; mass change, reload and navigation give full', async () => {
  const { page, tabId } = await open('basic.html');
  const full = await ax(tabId);
  await page.evaluate(() => document.getElementById('hover').remove());
  const removed = await ax(tabId);
  assert.equal(removed.mode, 'diff');
  assert.match(removed.state, /^- button "Hover me"$/m);
  const hoverRef = refIn(full.state.split('\n').find((l) => l.includes('"Hover me"')));
  const r = await b.call('browser_hover', { tabId, snapshotId: removed.snapshotId, ref: hoverRef });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');

  await page.evaluate(() => { document.body.innerHTML = '<h1>Other</h1><button>Only</button>'; });
  assert.equal((await ax(tabId)).mode, 'full', 'more than half changed');

  await page.reload({ waitUntil: 'load' });
  const afterReload = await ax(tabId);
  assert.equal(afterReload.mode, 'full');
  assert.equal(afterReload.baseSnapshotId, undefined, 'never a cross-page diff');
  const old = await b.call('browser_click', { tabId, snapshotId: full.snapshotId, ref: refIn(full.state.split('\n').find((l) => l.includes('"Query"'))) });
  assert.equal(old.error?.code, 'BROWSER_STALE_REF');
  assert.ok(old.error.message.includes(full.snapshotId), old.error.message);

  await page.goto(server.url('nested.html'), { waitUntil: 'load' });
  assert.equal((await ax(tabId)).mode, 'full');
  assert.equal((await ax(tabId, { disableDiffing: true })).mode, 'full');
  await page.close();
});

test('an iframe added or removed yields bounded lines, never debug objects', async () => {
  const { page, tabId } = await open('longlist.html');
  await ax(tabId);
  await page.evaluate(() => {
    const f = document.createElement('iframe');
    f.title = 'Late frame';
    f.width = 400; f.height = 300;
    f.srcdoc = '<h2>Late</h2>' + Array.from({ length: 300 }, (_, i) => `<button>Frame button ${i}</button>`).join('');
    document.querySelector('main').appendChild(f);
  });
  await page.waitForFunction(() => document.querySelector('iframe').contentDocument?.readyState === 'complete');
  const added = await ax(tabId);
  assert.ok(['diff', 'full'].includes(added.mode));
  assert.ok(added.charCount <= 20000 && added.nodeCount <= 200, `${added.charCount} ${added.nodeCount}`);
  assert.match(added.state, /iframe "Late frame"/);
  assert.ok(!/[{}]/.test(added.state), 'no debug objects');
  await page.evaluate(() => document.querySelector('iframe').remove());
  const removed = await ax(tabId);
  assert.ok(removed.charCount <= 20000 && removed.nodeCount <= 200);
  assert.ok(!/[{}]/.test(removed.state || ''));
  await page.close();
});

test('long-session page: appending one message is a diff of at most 600 chars', async () => {
  const { page, tabId } = await open('long-session.html');
  const full = await ax(tabId);
  assert.equal(full.mode, 'full');
  assert.ok(full.charCount <= 20000);
  await page.evaluate(() => {
    const msg = document.createElement('div');
    msg.className = 'msg assistant';
    msg.innerHTML = '<div><span>assistant</span></div><div><div><p>Here is the budget summary you asked for.</p></div></div>'
      + '<div class="actions"><button aria-label="Copy message">⧉</button><button aria-label="Retry">↻</button><button>Like</button></div>';
    const last = [...document.querySelectorAll('.msg')].pop();
    last.after(msg);
  });
  const d = await ax(tabId);
  assert.equal(d.mode, 'diff', d.state);
  assert.ok(d.charCount <= 600, `${d.charCount}: ${d.state}`);
  assert.match(d.state, /\+ button "Copy message" \[ref=a\d+\]/);
  for (const s of ['hunter2-secret', 'tok_live_9f8e7d6c5b4a']) assert.ok(!JSON.stringify(d).includes(s));
  await page.close();
});
