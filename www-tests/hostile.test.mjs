// Hostile pages (issue #9): a page that mutates without pause, 50 nested iframes, broken
// built-ins (Element.prototype, JSON), a 100 MB text node, a browser page and a crashed
// tab. Every call returns within its deadline with a bounded result or a stable code and a
// hint, and the extension keeps serving the next call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, nextPage, openTab, openUserTab, closeTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const CODES = new Set(['INVALID_REQUEST', 'BROWSER_PAGE_CHANGING', 'BROWSER_OPERATION_UNCERTAIN', 'BROWSER_TARGET_MISMATCH', 'BROWSER_STALE_REF',
  'BROWSER_PAGE_UNAVAILABLE', 'BROWSER_SELECTOR_NOT_FOUND', 'BROWSER_SCRIPT_FAILED', 'BROWSER_WAIT_TIMEOUT', 'BROWSER_TAB_NOT_OWNED', 'BROWSER_ELEMENT_OBSCURED']);
/** The worker's own deadline is 45 s; a call must never take longer than that. */
const CALL_LIMIT_MS = 50000;

const READS = [
  ['browser_snapshot', {}],
  ['browser_snapshot', { source: 'dom' }],
  ['browser_accessibility_snapshot', { disableDiffing: true }],
  ['browser_dom_cua', {}],
  ['browser_extract', {}],
  ['browser_console', {}],
  ['browser_network', {}],
  ['browser_status', {}],
  ['browser_doctor', {}],
];

/** Runs every read on the tab; returns {method → result}, checking time, bounds and codes. */
async function sweep(tabId, label, extra = []) {
  const out = {};
  for (const [method, params] of [...READS, ...extra]) {
    const t0 = Date.now();
    const r = await b.call(method, { tabId, ...params });
    const ms = Date.now() - t0;
    const what = `${label} ${method} ${JSON.stringify(params)}`;
    assert.ok(ms < CALL_LIMIT_MS, `${what} took ${ms} ms`);
    const wire = JSON.stringify(r);
    if (r.error) {
      assert.ok(CODES.has(r.error.code), `${what}: ${wire.slice(0, 300)}`);
      assert.ok(r.error.hint, `${what}: no hint`);
    } else {
      assert.ok(wire.length < 300000, `${what}: ${wire.length} chars`);
      const state = r.snapshot?.state ?? r.state;
      if (state) assert.ok(state.length <= 20000, `${what}: state ${state.length}`);
      if (r.content) assert.ok(r.content.length <= 12000, `${what}: content ${r.content.length}`);
    }
    if (ms > 3000) console.log(`slow: ${what} ${ms} ms ${r.error ? r.error.code : "ok"}`);
    out[`${method}${params.source ? `:${params.source}` : ''}`] = { r, ms };
  }
  return out;
}

async function stillServing() {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const r = await b.call('browser_snapshot', { tabId });
  assert.ok(!r.error && /button "Query"/.test(r.snapshot.state), JSON.stringify(r).slice(0, 300));
  await closeTab(b, page, tabId);
}

test('a page that mutates every millisecond: bounded reads, actions on stable elements work', async () => {
  const { page, tabId } = await openTab(b, server, 'mutating.html');
  const res = await sweep(tabId, 'mutating', [['browser_evaluate', { expression: 'document.querySelectorAll("li").length' }]]);
  const snap = res.browser_snapshot.r;
  assert.ok(!snap.error, JSON.stringify(snap).slice(0, 300));
  const ref = snap.snapshot.state.split('\n').find((l) => l.includes('button "Stable button"'))?.match(/\[ref=(\w+)\]/)?.[1];
  assert.ok(ref, snap.snapshot.state.slice(0, 500));
  const click = await b.call('browser_click', { tabId, ref, snapshotId: snap.snapshot.snapshotId });
  assert.ok(!click.error, JSON.stringify(click));
  await closeTab(b, page, tabId);
  await stillServing();
});

test('50 nested iframes: the iframe budget holds and the call returns', async () => {
  const { page, tabId } = await openTab(b, server, 'nested-frames.html?d=50');
  await new Promise((r) => setTimeout(r, 1500)); // let the chain load
  const res = await sweep(tabId, 'nested');
  const snap = res.browser_snapshot.r;
  assert.ok(!snap.error, JSON.stringify(snap).slice(0, 300));
  assert.match(snap.snapshot.state, /Level 50 button/);
  assert.ok(snap.snapshot.nodeCount <= 200);
  const cua = res.browser_dom_cua.r;
  assert.ok(!cua.error && cua.nodeCount <= 200, JSON.stringify(cua).slice(0, 300));
  await closeTab(b, page, tabId);
  await stillServing();
});

test('broken built-ins (Element.prototype, Node getters, JSON, Array.map): every read still works', async () => {
  const { page, tabId } = await openTab(b, server, 'prototypes.html');
  const res = await sweep(tabId, 'prototypes', [['browser_evaluate', { expression: '({ a: [1, 2], b: "c" })' }]]);
  for (const k of ['browser_snapshot', 'browser_snapshot:dom', 'browser_dom_cua', 'browser_extract', 'browser_evaluate']) {
    assert.ok(!res[k].r.error, `${k}: ${JSON.stringify(res[k].r).slice(0, 300)}`);
  }
  assert.match(res.browser_snapshot.r.snapshot.state, /button "Press"/);
  assert.match(res['browser_snapshot:dom'].r.snapshot.state, /button "Press"/);
  assert.match(res.browser_dom_cua.r.state, /Press/);
  assert.match(res.browser_extract.r.content, /Readable article text/);
  assert.deepEqual(res.browser_evaluate.r.value, { a: [1, 2], b: 'c' });
  await closeTab(b, page, tabId);
  await stillServing();
});

test('a 100 MB text node: every read is bounded and returns', async () => {
  const { page, tabId } = await openTab(b, server, 'huge-text.html');
  const res = await sweep(tabId, 'huge', [['browser_evaluate', { expression: 'document.getElementById("p").textContent' }]]);
  for (const [k, { r, ms }] of Object.entries(res)) console.log(`huge-text ${k}: ${r.error ? r.error.code : 'ok'} in ${ms} ms`);
  const cua = res.browser_dom_cua.r;
  assert.ok(!cua.error, JSON.stringify(cua).slice(0, 300));
  assert.match(cua.state, /Still here/);
  const ex = res.browser_extract.r;
  assert.ok(!ex.error && ex.content.length <= 12000 && !/x{100}/.test(ex.content), JSON.stringify(ex).slice(0, 300));
  const ev = res.browser_evaluate.r;
  assert.ok(!ev.error && ev.truncated && ev.value.length <= 200100, JSON.stringify(ev).slice(0, 300));
  await closeTab(b, page, tabId);
  await stillServing();
});

test('a browser page and a crashed tab: stable codes, and the extension keeps serving', async () => {
  const user = await openUserTab(b, server, 'basic.html');
  await user.page.goto('chrome://version').catch(() => {});
  const res = await sweep(user.tabId, 'chrome://');
  for (const k of ['browser_snapshot', 'browser_accessibility_snapshot', 'browser_dom_cua', 'browser_extract']) {
    assert.equal(res[k].r.error?.code, 'BROWSER_PAGE_UNAVAILABLE', `${k}: ${JSON.stringify(res[k].r).slice(0, 200)}`);
  }
  await user.page.close();

  const { page, tabId } = await openTab(b, server, 'basic.html');
  assert.ok(!(await b.call('browser_snapshot', { tabId })).error);
  const cdp = await page.context().newCDPSession(page);
  cdp.send('Page.crash').catch(() => {}); // the renderer dies; the command never answers
  await new Promise((r) => setTimeout(r, 500));
  const crashed = await sweep(tabId, 'crashed', [['browser_click', { ref: 'e1', snapshotId: 'snapshot-x-1' }], ['browser_screenshot', {}]]);
  for (const [k, { r }] of Object.entries(crashed)) console.log(`crashed ${k}: ${r.error ? r.error.code : 'ok'}`);
  for (const k of ['browser_snapshot', 'browser_snapshot:dom', 'browser_accessibility_snapshot', 'browser_dom_cua', 'browser_extract', 'browser_click', 'browser_screenshot']) {
    assert.equal(crashed[k].r.error?.code, 'BROWSER_PAGE_UNAVAILABLE', `${k}: ${JSON.stringify(crashed[k].r).slice(0, 200)}`);
    assert.ok(crashed[k].ms < 5000, `${k} took ${crashed[k].ms} ms`);
  }
  const doc = crashed.browser_doctor.r;
  assert.ok(doc.problems.some((p) => /crashed/.test(p.message)), JSON.stringify(doc));
  // A new document in the tab: it is read again (the crash is forgotten when its main frame commits).
  const nav = await b.call('browser_navigate', { tabId, url: server.url('basic.html') });
  assert.ok(!nav.error, JSON.stringify(nav.error));
  const after = await b.call('browser_snapshot', { tabId });
  assert.ok(!after.error, `after the crashed tab navigated: ${JSON.stringify(after.error)}`);
  await closeTab(b, page, tabId);
  await stillServing();
});

test('frames that never answer a script (javascript: URL, blank, unreachable ad frames) hold no read', async () => {
  const { page, tabId } = await openTab(b, server, 'js-iframe.html');
  for (const [method, params] of [['browser_dom_cua', {}], ['browser_snapshot', { source: 'dom' }], ['browser_extract', {}]]) {
    const r = await b.call(method, { tabId, ...params });
    assert.ok(!r.error, `${method}: ${JSON.stringify(r.error)}`);
    const text = r.state ?? r.snapshot?.state ?? r.content;
    assert.match(text, /Frames that never answer/, `${method}: ${text}`);
  }
  await closeTab(b, page, tabId);
});

test('frames whose document never finishes loading are never waited for, and an unchanged page is still answered from the trackers', async () => {
  // javascript: URL frames, a document opened and never closed, a frame whose server never
  // answers, a lazy frame off screen, a data: URL and a sandboxed frame (cnn's and
  // breitbart's ad slots): each read used to wait the frame-answer limit on them.
  // (Its load event never comes: one frame's server never answers.)
  const [page, opened] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url: server.url('silent-frames.html') })]);
  const tabId = opened.tab.id;
  await page.waitForFunction(() => document.querySelectorAll('iframe').length === 8 && document.querySelector('button'));
  const lateBefore = await b.worker.evaluate(() => globalThis.pcc.lateFrames());
  const reads = [['browser_snapshot', {}], ['browser_snapshot', { source: 'dom' }], ['browser_accessibility_snapshot', { sessionId: 'silent' }], ['browser_dom_cua', {}], ['browser_extract', {}], ['browser_find', { text: 'After the frames' }], ['browser_evaluate', { expression: 'document.title' }]];
  const answers = {};
  for (let round = 0; round < 2; round++) {
    for (const [method, params] of reads) {
      const r = await b.call(method, { tabId, ...params });
      assert.ok(!r.error, `${method}: ${JSON.stringify(r.error)}`);
      answers[`${method}${params.source ? ':' + params.source : ''}#${round}`] = r;
    }
  }
  assert.equal(await b.worker.evaluate(() => globalThis.pcc.lateFrames()), lateBefore, 'a read waited out the frame-answer limit');
  assert.match(answers['browser_snapshot#0'].snapshot.state, /Frames no script answers in[\s\S]*data frame[\s\S]*sandboxed[\s\S]*Child button/);
  // Every frame with a document has a tracker (data: and sandboxed frames too): the repeats are proved unchanged.
  assert.equal(answers['browser_accessibility_snapshot#1'].mode, 'unchanged', JSON.stringify(answers['browser_accessibility_snapshot#1']).slice(0, 300));
  assert.equal(answers['browser_snapshot#1'].snapshot.snapshotId, answers['browser_snapshot#0'].snapshot.snapshotId);
  await closeTab(b, page, tabId);
});

test('a call past its deadline is abandoned: it sends no further command and commits no revision', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  await page.evaluate(() => {
    const root = document.createElement('div');
    for (let i = 0; i < 1500; i++) {
      const li = document.createElement('section');
      li.innerHTML = `<h3>Row ${i}</h3><p>Text <a href="#r${i}">link ${i}</a></p><button>Act ${i}</button>`;
      root.append(li);
    }
    document.body.append(root);
  });
  const first = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'abandon' });
  assert.ok(!first.error, JSON.stringify(first.error));
  await page.evaluate(() => document.querySelector('h3').textContent = 'Changed row');
  // Count every CDP command the worker sends from here on; shorten the deadline to 50 ms.
  await b.worker.evaluate(() => {
    const real = chrome.debugger.sendCommand.bind(chrome.debugger);
    globalThis.__sent = [];
    globalThis.__realSend = real;
    chrome.debugger.sendCommand = (t, m, p, cb) => { globalThis.__sent.push([performance.now(), m]); return real(t, m, p, cb); };
    globalThis.pcc.callDeadlineMs = 50;
  });
  const r = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'abandon' });
  const atAnswer = await b.worker.evaluate(() => globalThis.__sent.length);
  assert.equal(r.error?.code, 'BROWSER_PAGE_UNAVAILABLE', JSON.stringify(r).slice(0, 200));
  await new Promise((res) => setTimeout(res, 3000)); // the captures in flight come back meanwhile
  const late = await b.worker.evaluate(() => {
    chrome.debugger.sendCommand = globalThis.__realSend;
    delete globalThis.pcc.callDeadlineMs;
    return globalThis.__sent.slice(0);
  });
  assert.equal(late.length, atAnswer, `the abandoned read went on sending: ${JSON.stringify(late.slice(atAnswer))}`);
  // The abandoned read rendered nothing: the next read still diffs against the first one.
  const next = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'abandon' });
  assert.equal(next.baseSnapshotId, first.snapshotId, JSON.stringify(next).slice(0, 200));
  assert.match(next.state, /Changed row/);
  console.log(`abandoned read: ${atAnswer} commands before its deadline answer, ${late.length - atAnswer} after`);
  await closeTab(b, page, tabId);
});
