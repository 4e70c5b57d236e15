// Wrong-target safety on a page that animates its own scroll (Bootstrap's `:root {
// scroll-behavior: smooth }`): 100 rows clicked while the page scrolls. Not one click may
// land on another row. One test file per source (each takes about a minute):
// smooth-scroll-ax.test.mjs (AX backend nodes), smooth-scroll-dom.test.mjs (DOM-walk
// elements, acting through the debugger the same way).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';

export function smoothScrollTest(source) {
  let b, server;
  before(async () => { server = await startServer(); b = await launch(); });
  after(async () => { await b?.close(); await server?.close(); });

  test(`${source}: smooth scrolling (Bootstrap's :root rule) — 100 rows below and above the fold, every click on its own row`, async () => {
    const { page, tabId } = await openTab(b, server, 'smooth-rows.html');
    const refs = new Map(); // order number → [snapshotId, ref]
    for (let s = 0; s < 4; s++) {
      const snap = (await b.call('browser_snapshot', { tabId, selector: `#part${s}`, source })).snapshot;
      const lines = snap.state.split('\n');
      for (const [i, line] of lines.entries()) {
        const n = line.match(/Order (\d+)/)?.[1];
        const ref = n && lines.slice(i + 1).find((l) => /button "Delete"/.test(l))?.match(/\[ref=(\w+)\]/)?.[1];
        if (ref) refs.set(Number(n), [snap.snapshotId, ref]);
      }
    }
    assert.equal(refs.size, 100, 'a ref for every row');
    // Every row once, each while the page is still animating a scroll of its own to the top
    // or the bottom (as after a script's scrollTo, an anchor or a focus change).
    const order = [...refs.keys()].sort((a, b) => ((a * 37) % 101) - ((b * 37) % 101));
    let wrong = 0;
    let missed = 0;
    for (const [k, n] of order.entries()) {
      await page.evaluate((top) => window.scrollTo({ top: top ? 0 : document.body.scrollHeight }), k % 2 === 0);
      const before = await page.evaluate(() => window.hits.length);
      const [snapshotId, ref] = refs.get(n);
      const r = await b.call('browser_click', { tabId, ref, snapshotId });
      const hits = (await page.evaluate(() => window.hits)).slice(before);
      if (hits.some((h) => h !== n)) wrong++;
      if (!r.error && !hits.includes(n)) missed++;
      assert.ok(!r.error, `order ${n}: ${JSON.stringify(r)}`);
    }
    assert.deepEqual({ wrong, missed }, { wrong: 0, missed: 0 });
    assert.equal((await page.evaluate(() => window.hits)).length, 100, 'every click landed');
    await page.close();
  });
}
