// The extension end to end: real pages, real CDP capture, wasm in the service worker,
// actions by ref with real input events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, nextPage, openTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const open = (path) => openTab(b, server, path);

const refOf = (state, needle) => {
  const line = state.split('\n').find((l) => l.includes(needle));
  assert.ok(line, `no line with ${needle} in\n${state}`);
  const m = line.match(/\[ref=(\w+)\]/);
  assert.ok(m, `no ref on: ${line}`);
  return m[1];
};

async function snap(tabId, extra = {}) {
  const r = await b.call('browser_snapshot', { tabId, ...extra });
  assert.ok(!r.error, JSON.stringify(r.error));
  return r;
}

const FIXTURE_SECRETS = ['hunter2-secret', 'tok_live_9f8e7d6c5b4a', 'csrf-hidden-value', 'sk-live-should-never-appear', 'value="0000"', 'Hidden action', 'Aria hidden action', 'Template action'];

test('long-session page: bounded state, refs on the composer, no secrets (the DOM walk by default, and Chromium AX)', async () => {
  const { page, tabId } = await open('long-session.html');
  for (const source of [undefined, 'chromium_ax']) {
    const s = (await snap(tabId, source ? { source } : {})).snapshot;
    assert.equal(s.source, source ?? 'dom');
    assert.ok(s.charCount <= 20000 && s.charCount === s.state.length && s.nodeCount <= 200 && s.truncated, source);
    refOf(s.state, 'textbox "Message"');
    refOf(s.state, 'button "Send"');
    for (const secret of FIXTURE_SECRETS) assert.ok(!JSON.stringify(s).includes(secret), `${secret} leaked (${source})`);
  }
  const r = await snap(tabId);
  assert.equal(r.snapshot.mode, 'full');
  const h = r.tab.handle;
  assert.equal(h.tabId, tabId);
  assert.match(h.browserId, /^chrome:/);
  assert.ok(h.tabFence && h.incarnation && Number.isInteger(h.windowId));
  // The browser id is stable across calls.
  assert.equal((await snap(tabId)).tab.handle.browserId, h.browserId);
  await page.close();
});

test('refs from the latest snapshot drive fill, click, type, press, select and hover', async () => {
  const { page, tabId } = await open('basic.html');
  let { snapshot: s } = await snap(tabId);
  const id = s.snapshotId;
  let r = await b.call('browser_fill', { tabId, snapshotId: id, ref: refOf(s.state, 'textbox "Search"'), text: 'orders' });
  assert.ok(r.ok, JSON.stringify(r));
  r = await b.call('browser_click', { tabId, snapshotId: id, ref: refOf(s.state, 'button "Query"') });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(await page.textContent('#out'), 'Searched: orders');
  // Fill replaces, it does not append.
  await b.call('browser_fill', { tabId, snapshotId: id, ref: refOf(s.state, 'textbox "Search"'), text: 'again' });
  assert.equal(await page.inputValue('#q'), 'again');

  r = await b.call('browser_click', { tabId, snapshotId: id, ref: refOf(s.state, 'button "Click me"') });
  assert.ok(r.ok);
  assert.equal(await page.textContent('#counter'), 'Clicked 1 times');
  assert.equal(await page.evaluate(() => window.clicks), 1, 'exactly one click');

  r = await b.call('browser_type', { tabId, snapshotId: id, ref: refOf(s.state, 'textbox "Keys"'), text: 'hi' });
  assert.ok(r.ok);
  assert.equal(await page.inputValue('#keys'), 'hi');
  r = await b.call('browser_press', { tabId, snapshotId: id, ref: refOf(s.state, 'textbox "Keys"'), key: 'Enter' });
  assert.ok(r.ok);
  assert.equal(await page.textContent('#out'), 'Enter pressed');

  r = await b.call('browser_select_option', { tabId, snapshotId: id, ref: refOf(s.state, 'combobox "Size"'), value: 'Large' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.selected, ['Large']);
  assert.equal(await page.textContent('#out'), 'Size l');

  r = await b.call('browser_hover', { tabId, snapshotId: id, ref: refOf(s.state, 'button "Hover me"') });
  assert.ok(r.ok);
  assert.equal(await page.textContent('#hover'), 'Hovered');

  r = await b.call('browser_type', { tabId, snapshotId: id, ref: refOf(s.state, 'textbox "Notes"'), text: 'note text' });
  assert.ok(r.ok);
  assert.equal(await page.textContent('#notes'), 'note text');

  // The new state shows what the actions did.
  s = (await snap(tabId)).snapshot;
  assert.match(s.state, /combobox "Size" value="Large"/);
  assert.match(s.state, /button "Clicked 1 times"/);
  await page.close();
});

test('stale refs fail closed after a DOM change; a unique same-id twin is rebound once', async () => {
  const { page, tabId } = await open('basic.html');
  const { snapshot: s } = await snap(tabId);
  // Removed: nothing to act on.
  await page.evaluate(() => document.getElementById('counter').remove());
  let r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Click me"') });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF', JSON.stringify(r));
  assert.ok(r.error.hint);
  // Replaced by an identical element without a stable id: fail closed.
  await page.evaluate(() => { const a = document.querySelector('a'); a.replaceWith(a.cloneNode(true)); });
  r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'link "Next page"') });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  // Replaced by a twin with the same id: the one permitted rebind, to the new element.
  await page.evaluate(() => { const q = document.getElementById('hover'); q.replaceWith(q.cloneNode(true)); });
  r = await b.call('browser_hover', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Hover me"') });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.rebound, true);
  // Two twins: ambiguous, fail closed.
  await page.evaluate(() => { const q = document.getElementById('hover'); q.after(q.cloneNode(true)); q.replaceWith(q.cloneNode(true)); });
  r = await b.call('browser_hover', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Hover me"') });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  // Unknown ref and unknown snapshot.
  r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: 'e999' });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  r = await b.call('browser_click', { tabId, snapshotId: 'snapshot-zzz-1', ref: 'e1' });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  await page.close();
});

test('navigation and reload invalidate refs', async () => {
  const { page, tabId } = await open('basic.html');
  let { snapshot: s, tab } = await snap(tabId);
  await page.reload({ waitUntil: 'load' });
  let r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Query"') });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  assert.match(r.error.message, /navigated or reloaded/);
  const again = await snap(tabId);
  assert.notEqual(again.tab.handle.incarnation, tab.handle.incarnation, 'reload is a new incarnation');
  s = again.snapshot;
  await page.goto(server.url('nested.html'), { waitUntil: 'load' });
  r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Query"') });
  assert.equal(r.error?.code, 'BROWSER_STALE_REF');
  // A click that navigates says so.
  await page.goto(server.url('basic.html'), { waitUntil: 'load' });
  s = (await snap(tabId)).snapshot;
  r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'link "Next page"') });
  // The document is replaced during the click: either the click finished and says the page
  // navigated, or its outcome is unknown — never a silent success.
  assert.ok((r.ok && r.navigated) || r.error?.code === 'BROWSER_OPERATION_UNCERTAIN', JSON.stringify(r));
  await page.waitForLoadState('load');
  await page.close();
});

/** frames.html with its cross-origin (out-of-process) child loaded; returns the child frame too. */
async function openFramesPage() {
  const xo = `${server.crossOrigin}/child.html`;
  const { page, tabId } = await open(`frames.html?xo=${encodeURIComponent(xo)}`);
  let childFrame;
  for (let i = 0; i < 100 && !childFrame; i++) {
    childFrame = page.frames().find((f) => f.url().startsWith(server.crossOrigin));
    if (!childFrame) await page.waitForTimeout(50);
  }
  assert.ok(childFrame, 'the cross-origin frame loaded');
  await childFrame.waitForSelector('#many li:nth-child(120)');
  return { page, tabId, childFrame };
}

test('same-origin and cross-origin iframes are expanded within the iframe budget', async () => {
  const { page, tabId, childFrame } = await openFramesPage();
  const r = await snap(tabId);
  const s = r.snapshot;
  assert.match(s.state, /iframe "Same origin"\n {2}- heading "Inner heading"/);
  assert.match(s.state, /iframe "Cross origin"\n {2}- heading "Cross child"/, s.state);
  assert.ok(!s.state.includes('Hidden frame button'));
  for (const secret of ['frame-SECRET-1', 'frame-SECRET-2', '•']) assert.ok(!s.state.includes(secret), secret);
  // Everything nested under an iframe line is iframe content: ≤ 5,000 chars / 50 nodes.
  const lines = s.state.split('\n');
  let inFrame = false, chars = 0, nodes = 0;
  for (const l of lines) {
    if (/^- iframe /.test(l)) { inFrame = true; continue; }
    if (!l.startsWith('  ')) inFrame = false;
    if (inFrame && !l.trim().startsWith('- note:')) { chars += l.length + 1; nodes += 1; }
  }
  assert.ok(nodes > 5 && nodes <= 50, `iframe nodes ${nodes}`);
  assert.ok(chars <= 5000, `iframe chars ${chars}`);
  assert.match(s.state, /more links/, 'the 120 child links are elided structurally');
  // A ref inside the out-of-process frame clicks the right element.
  const res = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Child button"') });
  assert.ok(res.ok, JSON.stringify(res));
  const child = page.frames().find((f) => f.url().startsWith(server.crossOrigin));
  assert.equal(await child.textContent('button'), 'Child clicked');
  const inner = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Inner button"') });
  assert.ok(inner.ok, JSON.stringify(inner));
  await page.close();
});

test('the DOM source expands verified iframes (same- and cross-origin) and acts in them', async () => {
  const { page, tabId, childFrame } = await openFramesPage();
  const { snapshot: s } = await snap(tabId, { source: 'dom' });
  assert.equal(s.source, 'dom');
  assert.match(s.state, /iframe "Same origin"\n {2}- heading "Inner heading"/, s.state);
  assert.match(s.state, /iframe "Cross origin"\n {2}- heading "Cross child"/, s.state);
  assert.ok(!s.state.includes('Hidden frame button'));
  for (const secret of ['frame-SECRET-1', 'frame-SECRET-2']) assert.ok(!JSON.stringify(s).includes(secret), secret);
  // Refs inside each frame act in that frame, on that element.
  const res = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Child button"') });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(await childFrame.textContent('button'), 'Child clicked');
  const inner = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Inner button"') });
  assert.ok(inner.ok, JSON.stringify(inner));
  const main = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Main button"') });
  assert.ok(main.ok, JSON.stringify(main));
  await page.close();
});

test('what a positioned element covers gets no ref, on both sources; a walk ref rebinds to its twin once', async () => {
  const { page, tabId } = await open('overlay.html');
  for (const source of ['dom', 'chromium_ax']) {
    const { state } = (await snap(tabId, { source })).snapshot;
    assert.doesNotMatch(state, /Under the backdrop" \[ref=/, `${source}: ${state}`);
    assert.doesNotMatch(state, /Behind link" \[ref=/, source);
    refOf(state, 'button "OK"');
  }
  const { snapshot: s } = await snap(tabId, { source: 'dom' });
  await page.evaluate(() => { const q = document.getElementById('ok'); q.replaceWith(q.cloneNode(true)); });
  const r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "OK"') });
  assert.ok(r.ok && r.rebound, JSON.stringify(r));
  await page.close();
});

test("a document no script can run in (Chrome's error page) is read from Chromium's AX tree", async () => {
  const [page, opened] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url: 'http://127.0.0.1:1/' })]);
  const tabId = opened.tab.id;
  let s;
  for (let i = 0; i < 50 && !/reached|refused/i.test(s?.state ?? ''); i++) {
    await new Promise((r) => setTimeout(r, 100));
    s = (await b.call('browser_snapshot', { tabId })).snapshot;
  }
  assert.equal(s?.source, 'chromium_ax', JSON.stringify(s));
  assert.match(s.state, /reached|refused/i);
  const walk = await b.call('browser_snapshot', { tabId, source: 'dom' });
  assert.equal(walk.error?.code, 'BROWSER_SCRIPT_FAILED', 'an asked-for walk says why it cannot run');
  await page.close();
});

test('a page with a strict CSP: AX snapshot and the DOM walk both work', async () => {
  const { page, tabId } = await open('strict-csp.html');
  const ax = await snap(tabId, { source: 'chromium_ax' });
  assert.equal(ax.snapshot.source, 'chromium_ax');
  assert.match(ax.snapshot.state, /button "Strict button"/);
  const dom = await snap(tabId);
  assert.equal(dom.snapshot.source, 'dom');
  assert.match(dom.snapshot.state, /heading "Strict page" \[level=1\]/);
  assert.match(dom.snapshot.state, /button "Strict button" \[ref=e\d+\]/);
  for (const r of [ax, dom]) assert.ok(!JSON.stringify(r).includes('csp-SECRET-1'));
  const res = await b.call('browser_click', { tabId, snapshotId: dom.snapshot.snapshotId, ref: refOf(dom.snapshot.state, 'button "Strict button"') });
  assert.ok(res.ok, JSON.stringify(res));
  await page.close();
});

test('the DOM fallback filters, redacts and acts like the AX path', async () => {
  const { page, tabId } = await open('basic.html');
  const { snapshot: s } = await snap(tabId, { source: 'dom' });
  assert.equal(s.source, 'dom');
  assert.match(s.state, /textbox "Search" \[ref=e\d+\]/);
  assert.match(s.state, /checkbox "Remember me" \[checked\]/);
  const r = await b.call('browser_click', { tabId, snapshotId: s.snapshotId, ref: refOf(s.state, 'button "Click me"') });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(await page.textContent('#counter'), 'Clicked 1 times');
  const { page: p2, tabId: t2 } = await open('long-session.html');
  const ls = await snap(t2, { source: 'dom' });
  assert.ok(ls.snapshot.charCount <= 20000 && ls.snapshot.nodeCount <= 200);
  for (const secret of FIXTURE_SECRETS) assert.ok(!JSON.stringify(ls).includes(secret), `${secret} leaked (dom)`);
  await page.close();
  await p2.close();
});

test('values typed by the user after load are still redacted', async () => {
  const { page, tabId } = await open('sensitive.html');
  await page.fill('input[name=password]', 'typed-SECRET-A');
  await page.fill('#sec', 'typed-SECRET-B');
  await page.fill('input[name=nick]', 'typed-visible');
  for (const source of ['chromium_ax', 'dom']) {
    const r = await snap(tabId, { source });
    const text = JSON.stringify(r);
    for (const secret of ['typed-SECRET-A', 'typed-SECRET-B', 'pw-SECRET']) assert.ok(!text.includes(secret), `${secret} via ${source}`);
    assert.ok(text.includes('typed-visible'), source);
  }
  await page.close();
});

test('selector, maxChars and maxNodes are executed extension-side', async () => {
  const { page, tabId } = await open('long-session.html');
  const scoped = await snap(tabId, { selector: 'form.composer' });
  assert.match(scoped.snapshot.state, /^- form "Composer"/);
  assert.ok(!scoped.snapshot.state.includes('Conversations'));
  const small = await snap(tabId, { maxChars: 2000, maxNodes: 20 });
  assert.ok(small.snapshot.charCount <= 2000 && small.snapshot.nodeCount <= 20);
  let r = await b.call('browser_snapshot', { tabId, selector: '#does-not-exist' });
  assert.equal(r.error?.code, 'BROWSER_SELECTOR_NOT_FOUND');
  r = await b.call('browser_snapshot', { tabId, selector: '[[[' });
  assert.equal(r.error?.code, 'INVALID_REQUEST');
  r = await b.call('browser_snapshot', { tabId, maxChars: -1 });
  assert.equal(r.error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('errors are stable codes with hints', async () => {
  let r = await b.call('browser_nope', {});
  assert.equal(r.error.code, 'INVALID_REQUEST');
  assert.ok(r.error.hint);
  r = await b.call('browser_tab_open', { url: 'not a URL' });
  assert.equal(r.error.code, 'INVALID_REQUEST');
  const page = await b.context.newPage();
  await page.goto('chrome://version');
  const tabId = await b.worker.evaluate(async () => (await chrome.tabs.query({})).find((t) => t.url.startsWith('chrome://version')).id);
  r = await b.call('browser_snapshot', { tabId });
  assert.equal(r.error.code, 'BROWSER_PAGE_UNAVAILABLE');
  r = await b.call('browser_snapshot', { tabId: 999999 });
  assert.equal(r.error.code, 'BROWSER_TARGET_MISMATCH');
  await page.close();
});

test('a document that started before the extension (its frames keep no walk) is walked all the same, acted on by ref, and keeps the walk from then on', async () => {
  const { page, tabId } = await open('basic.html');
  const kept = () => b.worker.evaluate(async (tabId) => (await chrome.scripting.executeScript({ target: { tabId }, func: () => typeof globalThis.__pccWalker }))[0].result, tabId);
  assert.equal(await kept(), 'object', 'a content script keeps the walk');
  await b.worker.evaluate(async (tabId) => { await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: () => { delete globalThis.__pccWalker; } }); }, tabId);
  const s = await snap(tabId);
  assert.equal(s.snapshot.source, 'dom');
  const res = await b.call('browser_click', { tabId, snapshotId: s.snapshot.snapshotId, ref: refOf(s.snapshot.state, 'button "Click me"') });
  assert.ok(res.ok, JSON.stringify(res));
  assert.match((await snap(tabId)).snapshot.state, /Clicked 1 times/);
  assert.equal(await kept(), 'object', 'the read made the walk resident there (the next reads are warm)');
  await page.close();
});

test('a field the page replaces on focus: typing follows it into the replacement (right after the focus, or after the first keys, the value carried over); a field whose focus jumps to an unrelated one still fails', async () => {
  const { page, tabId } = await openTab(b, server, 'swap-on-focus.html');
  const snap = await b.call('browser_snapshot', { tabId });
  const ref = (name) => new RegExp(`"${name}"[^\\n]*\\[ref=(e\\d+)\\]`).exec(snap.snapshot.state)[1];
  const now = await b.call('browser_type', { tabId, snapshotId: snap.snapshot.snapshotId, ref: ref('Search now'), text: 'tides' });
  assert.deepEqual([now.ok, now.retargeted, now.error], [true, true, undefined], JSON.stringify(now));
  assert.equal(await page.inputValue('#a2'), 'tides');
  const later = await b.call('browser_type', { tabId, snapshotId: snap.snapshot.snapshotId, ref: ref('Search later'), text: 'moon phases' });
  assert.deepEqual([later.ok, later.retargeted, later.error], [true, true, undefined], JSON.stringify(later));
  assert.equal(await page.inputValue('#b2'), 'moon phases');
  const filled = await b.call('browser_fill', { tabId, target: { label: 'Search now' }, text: 'neap tide' });
  assert.ok(filled.ok, JSON.stringify(filled));
  assert.equal(await page.inputValue('#a2'), 'neap tide');
  const jumpy = await b.call('browser_type', { tabId, snapshotId: snap.snapshot.snapshotId, ref: ref('Jumpy'), text: 'x' });
  assert.equal(jumpy.error?.code, 'BROWSER_ELEMENT_OBSCURED', JSON.stringify(jumpy));
  assert.equal(await page.inputValue('#d'), '', 'no key reached the other field');
  await page.close();
});
