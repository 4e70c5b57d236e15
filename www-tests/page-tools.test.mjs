// browser_evaluate, browser_console, browser_network, browser_status, browser_doctor and the
// page-changing rule, end to end: every result within its caps, stable codes with hints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab, openUserTab, closeTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });
const open = (path) => openTab(b, server, path);

test('evaluate: a cyclic, 20-deep object with a 10 MB string is bounded; odd values are described', async () => {
  const { page, tabId } = await open('basic.html');
  const expression = `(() => {
    const o = { big: 'x'.repeat(10 * 1024 * 1024), n: 1n, f: function named() {}, s: Symbol('q'), u: undefined, el: document.querySelector('h1'), arr: Array.from({ length: 5000 }, (_, i) => i) };
    let cur = o; for (let i = 0; i < 20; i++) { cur.next = { depth: i }; cur = cur.next; }
    o.self = o;
    for (let i = 0; i < 300; i++) o['k' + i] = i;
    return o;
  })()`;
  const t0 = Date.now();
  const r = await b.call('browser_evaluate', { tabId, expression });
  assert.ok(!r.error, JSON.stringify(r).slice(0, 500));
  assert.ok(Date.now() - t0 < 10000);
  assert.equal(r.type, 'object');
  assert.equal(r.truncated, true);
  const wire = JSON.stringify(r);
  assert.ok(wire.length < 300000, `${wire.length}`);
  assert.ok(r.charCount <= 260000);
  const v = r.value;
  assert.match(v.big, /more chars\]$/);
  assert.ok(v.big.length <= 200100);
  assert.equal(v.n, '[BigInt 1]');
  assert.equal(v.f, '[Function named]');
  assert.equal(v.s, '[Symbol(q)]');
  assert.equal(v.u, '[undefined]');
  assert.match(v.el, /^\[HTMLHeadingElement h1/);
  assert.equal(v.self, '[Circular]');
  assert.equal(v.arr.length, 2001);
  assert.match(v.arr[2000], /3000 more items/);
  assert.ok(Object.keys(v).length <= 201);
  let d = v, depth = 0;
  while (d && typeof d.next === 'object') { d = d.next; depth++; }
  assert.ok(depth <= 8, `${depth}`);
  // Primitives, promises and errors.
  assert.equal((await b.call('browser_evaluate', { tabId, expression: '6 * 7' })).value, 42);
  assert.equal((await b.call('browser_evaluate', { tabId, expression: 'Promise.resolve("later")' })).value, 'later');
  const big = await b.call('browser_evaluate', { tabId, expression: '"y".repeat(300000)' });
  assert.ok(big.truncated && big.value.length < 200100);
  const thrown = await b.call('browser_evaluate', { tabId, expression: 'throw new Error("boom")' });
  assert.equal(thrown.error?.code, 'BROWSER_SCRIPT_FAILED');
  assert.match(thrown.error.message, /boom/);
  assert.ok(thrown.error.hint);
  assert.equal((await b.call('browser_evaluate', { tabId })).error?.code, 'INVALID_REQUEST');
  const loop = await b.call('browser_evaluate', { tabId, expression: 'while (true) {}', timeout: 500 });
  assert.ok(loop.error, JSON.stringify(loop));
  assert.equal((await b.call('browser_evaluate', { tabId, expression: '1 + 1' })).value, 2, 'the page survives a timed-out loop');
  await page.close();
});

test('evaluate: hostile JSON.stringify and prototypes do not break it; user tabs are refused; strict CSP works', async () => {
  const { page, tabId } = await open('strict-csp.html');
  const r = await b.call('browser_evaluate', { tabId, expression: 'JSON.stringify = () => "pwned"; Object.keys = () => []; ({ a: [1, { b: "c" }] })' });
  assert.ok(!r.error, JSON.stringify(r));
  assert.deepEqual(r.value, { a: [1, { b: 'c' }] });
  await page.close();
  const user = await openUserTab(b, server, 'basic.html');
  const refused = await b.call('browser_evaluate', { tabId: user.tabId, expression: 'document.title = "x"' });
  assert.equal(refused.error?.code, 'BROWSER_TAB_NOT_OWNED');
  assert.notEqual(await user.page.title(), 'x');
  await user.page.close();
});

test('console: a flood of 100,000 messages stays within the caps', async () => {
  const { page, tabId } = await open('flood.html');
  const first = await b.call('browser_console', { tabId });
  assert.ok(!first.error, JSON.stringify(first));
  assert.ok(first.entries.some((e) => e.text === 'loaded log line'), JSON.stringify(first));
  await page.evaluate(() => window.consoleFlood(100000));
  await page.waitForTimeout(500);
  let r;
  for (let i = 0; i < 40; i++) {
    r = await b.call('browser_console', { tabId });
    if (r.entries?.at(-1)?.text === 'last error') break;
    await page.waitForTimeout(250);
  }
  assert.equal(r.entries.at(-1).text, 'last error');
  assert.equal(r.entries.at(-1).level, 'error');
  assert.ok(r.count <= 100 && r.entries.length === r.count, `${r.count}`);
  assert.ok(r.total >= 100000, `${r.total}`);
  assert.ok(r.dropped > 0 && r.truncated);
  const wire = JSON.stringify(r);
  assert.ok(wire.length < 20000, `${wire.length}`);
  assert.ok(r.entries.every((e) => e.text.length <= 500));
  const errors = await b.call('browser_console', { tabId, filter: 'error' });
  assert.ok(errors.entries.length >= 1 && errors.entries.every((e) => e.level === 'error'));
  const few = await b.call('browser_console', { tabId, maxEntries: 3 });
  assert.equal(few.count, 3);
  await page.close();
});

test('network: 5,000 requests stay within the caps, no bodies, secret parameters redacted', async () => {
  const { page, tabId } = await open('flood.html');
  const first = await b.call('browser_network', { tabId });
  assert.ok(first.entries.some((e) => e.url.endsWith('/flood.html') && e.status === 200), JSON.stringify(first));
  await page.evaluate(() => window.networkFlood(5000));
  await page.waitForTimeout(500);
  const r = await b.call('browser_network', { tabId, filter: '/echo' });
  assert.ok(!r.error, JSON.stringify(r).slice(0, 300));
  assert.ok(r.count <= 100 && r.count > 0, `${r.count}`);
  assert.ok(r.total >= 5000, `${r.total}`);
  assert.ok(r.truncated);
  const wire = JSON.stringify(r);
  assert.ok(wire.length < 20000, `${wire.length}`);
  assert.ok(!/SECRET/.test(wire), wire.slice(0, 400));
  assert.ok(r.entries.every((e) => /api_key=\[redacted\]/.test(e.url)));
  assert.ok(r.entries.some((e) => e.status === 200 && e.mimeType === 'application/json' && e.method === 'GET'));
  await page.close();
});

test('status and doctor: summaries by default, events and details on request', async () => {
  const { page, tabId } = await open('basic.html');
  await b.call('browser_snapshot', { tabId });
  const s = await b.call('browser_status', { tabId });
  assert.ok(s.ok && s.browserId && s.runtimeId, JSON.stringify(s));
  assert.equal(s.target.tab.id, tabId);
  assert.equal(s.target.owner, 'agent');
  assert.equal(s.recentEvents, undefined);
  const se = await b.call('browser_status', { tabId, includeEvents: true });
  assert.ok(se.recentEvents.length > 0 && se.recentEvents.length <= 20);
  assert.ok(se.recentEvents.some((e) => e.method === 'browser_snapshot' && e.ok));
  const d = await b.call('browser_doctor', { tabId });
  assert.equal(d.ok, true, JSON.stringify(d));
  assert.deepEqual(d.problems, []);
  assert.equal(d.details, undefined);
  const dd = await b.call('browser_doctor', { tabId, details: true });
  assert.equal(dd.details.injection, 'ok');
  await page.goto('chrome://version');
  const bad = await b.call('browser_doctor', { tabId });
  assert.equal(bad.ok, false);
  assert.ok(bad.problems.some((p) => p.code === 'BROWSER_PAGE_UNAVAILABLE' && p.hint));
  await page.close();
  const user = await openUserTab(b, server, 'basic.html');
  const ud = await b.call('browser_doctor', { tabId: user.tabId });
  assert.ok(ud.notes.some((p) => p.code === 'BROWSER_TAB_NOT_OWNED') && ud.ok, JSON.stringify(ud));
  await user.page.close();
});

test('a page that navigates during reads: at most one retry, then BROWSER_PAGE_CHANGING', async () => {
  const { page, tabId } = await open('reloader.html');
  for (const method of ['browser_snapshot', 'browser_accessibility_snapshot', 'browser_dom_cua']) {
    // A read fast enough to fall between two navigations saw one document and stands; the
    // others fail at once with BROWSER_PAGE_CHANGING (one retry). Reads go on until two
    // did (at most 10: the faster a read, the more of them stand).
    let changing = 0;
    for (let i = 0; i < 10 && changing < 2; i++) {
      const t0 = Date.now();
      const r = await b.call(method, { tabId });
      const ms = Date.now() - t0;
      assert.ok(ms < 8000, `${method} took ${ms} ms`);
      if (!r.error && /Moving target/.test(JSON.stringify(r))) continue;
      assert.equal(r.error?.code, 'BROWSER_PAGE_CHANGING', `${method}: ${JSON.stringify(r).slice(0, 300)}`);
      assert.ok(r.error.hint);
      changing++;
    }
    assert.ok(changing >= 2, `${method}: ${changing} of 10 reads said BROWSER_PAGE_CHANGING`);
  }
  // Playwright's page.close() can wait a minute on a page that never stops navigating; the
  // agent's own close is immediate.
  await closeTab(b, page, tabId);
  assert.ok(page.isClosed());
  // The extension keeps serving: a stable page reads fine right after.
  const next = await open('basic.html');
  assert.ok(!(await b.call('browser_snapshot', { tabId: next.tabId })).error);
  await next.page.close();
});

test('empty optional fields are never sent or echoed', async () => {
  const { page, tabId } = await open('basic.html');
  for (const [m, p] of [['browser_snapshot', {}], ['browser_dom_cua', {}], ['browser_extract', {}], ['browser_console', {}], ['browser_status', {}], ['browser_selected_tab', {}], ['browser_tabs', {}]]) {
    const r = await b.call(m, { tabId, ...p });
    const wire = JSON.stringify(r);
    assert.ok(!/:null|:""|"selector"|"path"|favIcon/.test(wire), `${m}: ${wire.slice(0, 400)}`);
  }
  await page.close();
});
