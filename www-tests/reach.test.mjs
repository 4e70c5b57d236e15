// Reach (issue #16): what a bounded state leaves out is found (browser_find), scrolled to
// (browser_scroll: the page, an inner scroll container, a ref into view) and acted on (by
// the find's refs, or at a point).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const refOf = (state, needle) => {
  const line = state.split('\n').find((l) => l.includes(needle));
  assert.ok(line, `no line with ${needle} in:\n${state.slice(0, 600)}`);
  return line.match(/\[ref=(\w+)\]/)[1];
};

test('find reaches a row the state elided, and its ref clicks it (inside an inner scroll container)', async () => {
  const { page, tabId } = await openTab(b, server, 'reach.html');
  const s = await b.call('browser_snapshot', { tabId });
  assert.ok(!s.snapshot.state.includes('"Row 250"'), 'the fixture must elide it');
  const f = await b.call('browser_find', { tabId, text: 'Row 250' });
  assert.ok(!f.error, JSON.stringify(f.error));
  assert.equal(f.matches, 1, f.state);
  assert.match(f.state, /button "Row 250" \[ref=e1\] — in navigation "Rows"/);
  const r = await b.call('browser_click', { tabId, snapshotId: f.snapshotId, ref: 'e1' });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.textContent('#out'), 'clicked 250');
  // A phrase split by inline markup is found in its paragraph.
  const split = await b.call('browser_find', { tabId, text: 'the terms of service before you sign' });
  assert.equal(split.matches, 1, split.state);
  assert.match(split.state, /^- paragraph: Read the terms of service before you sign\./);
  // Text deep in the article: an excerpt shows the match.
  const gem = await b.call('browser_find', { tabId, text: 'hidden gem' });
  assert.equal(gem.matches, 1);
  assert.match(gem.state, /Paragraph 47.*hidden gem|hidden gem/);
  await page.close();
});

test('find by role and exact name, by RegExp, bounded and counted; bad input is INVALID_REQUEST', async () => {
  const { page, tabId } = await openTab(b, server, 'reach.html');
  const exact = await b.call('browser_find', { tabId, role: 'button', name: 'Row 1', exact: true });
  assert.equal(exact.matches, 1, exact.state);
  const re = await b.call('browser_find', { tabId, regex: '^Row 29\\d$' });
  assert.equal(re.matches, 10, re.state);
  const many = await b.call('browser_find', { tabId, role: 'button', maxResults: 5 });
  assert.equal(many.shown, 5);
  assert.equal(many.matches, 300);
  assert.equal(many.truncated, true);
  assert.equal(many.state.split('\n').length, 5);
  for (const params of [{}, { regex: '(' }, { text: '' }, { text: 5 }]) {
    assert.equal((await b.call('browser_find', { tabId, ...params })).error?.code, 'INVALID_REQUEST', JSON.stringify(params));
  }
  await page.close();
});

test('scroll: the page, an inner container by ref, a ref into view; what became visible comes back', async () => {
  const { page, tabId } = await openTab(b, server, 'reach.html');
  // The sidebar, through a ref inside it: the sidebar moves, the page does not.
  const f = await b.call('browser_find', { tabId, text: 'Row 3', exact: false, maxResults: 1 });
  const y0 = await page.evaluate(() => scrollY);
  const inner = await b.call('browser_scroll', { tabId, direction: 'down', pages: 2, ref: 'e1', snapshotId: f.snapshotId });
  assert.equal(inner.ok, true, JSON.stringify(inner));
  const top = await page.evaluate(() => document.getElementById('side').scrollTop);
  assert.ok(top > 400, `sidebar scrollTop ${top}`);
  assert.equal(inner.scrolled.y, Math.round(top));
  assert.equal(await page.evaluate(() => scrollY), y0, 'the page itself did not move');
  await page.evaluate(() => document.getElementById('side').scrollTo({ top: 0, behavior: 'instant' }));
  // The page (smooth scrolling: the result waits until it settled).
  const down = await b.call('browser_scroll', { tabId, direction: 'down' });
  assert.equal(down.ok, true, JSON.stringify(down));
  assert.ok(down.scrolled.y > 300, JSON.stringify(down.scrolled));
  assert.equal(await page.evaluate(() => Math.round(scrollY)), down.scrolled.y);
  // What is in view now comes back: the paragraphs around the new scroll position.
  const inView = await page.evaluate(() => [...document.querySelectorAll('#article p')].find((p) => p.getBoundingClientRect().top > 0).textContent.slice(0, 14));
  assert.ok(down.state.includes(inView), `${inView} not in:\n${down.state.slice(0, 800)}`);
  assert.ok(down.state.length <= 4000);
  // Back to the sidebar (brought into view again) and to its end.
  const end = await b.call('browser_scroll', { tabId, deltaY: 20000, ref: 'e1', snapshotId: f.snapshotId });
  assert.equal(end.atEnd, true, JSON.stringify(end));
  // A ref into view.
  const far = await b.call('browser_find', { tabId, text: 'Contact the editors' });
  const shown = await b.call('browser_scroll', { tabId, toRef: 'e1', snapshotId: far.snapshotId });
  assert.equal(shown.inView, true, JSON.stringify(shown));
  assert.ok(await page.evaluate(() => { const r = document.querySelector('footer a').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }));
  assert.equal((await b.call('browser_scroll', { tabId })).error?.code, 'INVALID_REQUEST');
  assert.equal((await b.call('browser_scroll', { tabId, direction: 'sideways' })).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('click at a point: the element there receives it and is named; a point outside the viewport is refused', async () => {
  const { page, tabId } = await openTab(b, server, 'reach.html');
  const [x, y] = await page.evaluate(() => { const r = [...document.querySelectorAll('#side button')][4].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; });
  const r = await b.call('browser_click', { tabId, x, y });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.match(r.hit, /^button "Row 5"/);
  assert.equal(await page.textContent('#out'), 'clicked 5');
  assert.equal((await b.call('browser_click', { tabId, x: 5000, y: 10 })).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('semantic targets: actions and wait_for resolve {role, name, text, placeholder, label, testId, index} against the page now', async () => {
  const { page, tabId } = await openTab(b, server, 'reach.html');
  await page.evaluate(() => {
    document.querySelector('main').insertAdjacentHTML('afterbegin', `<label>Search the site <input id="q" placeholder="Type a word"></label>
      <button data-testid="go">Go</button><button style="display:none">Row 7</button>`);
  });
  // Row 7 exists twice, once hidden: visible elements only, so it is unique.
  let r = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Row 7', exact: true } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.textContent('#out'), 'clicked 7');
  // Several match without index: ambiguous, with the candidates; index picks in document order.
  r = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Row 1' } });
  assert.equal(r.error?.code, 'BROWSER_TARGET_AMBIGUOUS', JSON.stringify(r));
  assert.match(r.error.message, /Row 1".*Row 10"/);
  r = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Row 1', index: 1 } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.textContent('#out'), 'clicked 10');
  r = await b.call('browser_click', { tabId, target: { text: 'terms of service' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  // A field by its label or placeholder; a button by its test id.
  r = await b.call('browser_fill', { tabId, target: { label: 'Search the site' }, text: 'hello' });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.inputValue('#q'), 'hello');
  r = await b.call('browser_fill', { tabId, target: { placeholder: 'type a word' }, text: 'again' });
  assert.equal(await page.inputValue('#q'), 'again', JSON.stringify(r));
  r = await b.call('browser_hover', { tabId, target: { testId: 'go' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal((await b.call('browser_click', { tabId, target: { role: 'button', name: 'No such button' } })).error?.code, 'BROWSER_TARGET_NOT_FOUND');
  assert.equal((await b.call('browser_click', { tabId, target: { colour: 'red' } })).error?.code, 'INVALID_REQUEST');
  assert.equal((await b.call('browser_click', { tabId, target: { role: 'button' }, ref: 'e1', snapshotId: 'x' })).error?.code, 'INVALID_REQUEST');
  // wait_for a target that appears later.
  setTimeout(() => page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<button>Late arrival</button>')).catch(() => {}), 400);
  const w = await b.call('browser_wait_for', { tabId, target: { role: 'button', name: 'Late arrival' }, timeout: 5000 });
  assert.equal(w.ok, true, JSON.stringify(w));
  assert.ok(w.waitedMs >= 300, JSON.stringify(w));
  assert.equal((await b.call('browser_wait_for', { tabId, target: { role: 'button', name: 'Never' }, timeout: 500 })).error?.code, 'BROWSER_WAIT_TIMEOUT');
  await page.close();
});

test('browser_locator reads one fact of a target or ref; a sensitive value is [redacted]; a ref-scoped snapshot is one subtree', async () => {
  const { page, tabId } = await openTab(b, server, 'reach.html');
  await page.evaluate(() => {
    document.querySelector('main').insertAdjacentHTML('afterbegin', `<label>Nickname <input id="nick" value="ada"></label>
      <label>Password <input id="pw" type="password" value="LocatorSecret-91"></label><button disabled data-kind="x">Later</button>`);
  });
  const read = async (params) => b.call('browser_locator', { tabId, ...params });
  assert.equal((await read({ target: { role: 'button', name: 'Row 1' }, read: 'count' })).value, 111);
  assert.equal((await read({ target: { label: 'Nickname' }, read: 'value' })).value, 'ada');
  const pw = await read({ target: { label: 'Password' }, read: 'value' });
  assert.ok(!JSON.stringify(pw).includes('LocatorSecret-91'), JSON.stringify(pw));
  assert.equal(pw.value, '[redacted]');
  assert.ok(!JSON.stringify(await read({ target: { label: 'Password' }, read: 'attribute', attribute: 'value' })).includes('LocatorSecret-91'));
  assert.equal((await read({ target: { role: 'button', name: 'Later' }, read: 'enabled' })).value, false);
  assert.equal((await read({ target: { role: 'button', name: 'Later' }, read: 'attribute', attribute: 'data-kind' })).value, 'x');
  assert.equal((await read({ target: { text: 'terms of service' }, read: 'text' })).value, 'terms of service');
  const f = await b.call('browser_find', { tabId, text: 'Row 12', maxResults: 1 });
  assert.equal((await read({ ref: 'e1', snapshotId: f.snapshotId, read: 'visible' })).value, true);
  assert.equal((await read({ target: { role: 'button' }, read: 'nope' })).error?.code, 'INVALID_REQUEST');
  // A ref-scoped read: the sidebar's subtree only.
  const nav = await b.call('browser_find', { tabId, role: 'navigation', name: 'Rows' });
  const sub = await b.call('browser_snapshot', { tabId, ref: 'e1', snapshotId: nav.snapshotId });
  assert.ok(!sub.error, JSON.stringify(sub.error));
  assert.match(sub.snapshot.state, /Row 1/);
  assert.ok(!sub.snapshot.state.includes('A long article'), sub.snapshot.state.slice(0, 300));
  assert.equal((await b.call('browser_snapshot', { tabId, ref: 'e99', snapshotId: nav.snapshotId })).error?.code, 'BROWSER_STALE_REF');
  await page.close();
});

test('a [more=…] note opens its region with a ref-scoped read, and a long state reads page by page', async () => {
  const { tabId } = await openTab(b, server, 'reach.html');
  const s = await b.call('browser_snapshot', { tabId });
  const note = s.snapshot.state.split('\n').find((l) => /note: \d+ more buttons in "Rows" \[more=\w+\]/.test(l));
  assert.ok(note, s.snapshot.state.slice(0, 2000));
  const handle = note.match(/\[more=(\w+)\]/)[1];
  const opened = await b.call('browser_snapshot', { tabId, snapshotId: s.snapshot.snapshotId, ref: handle });
  assert.ok(!opened.error, JSON.stringify(opened.error));
  const st = opened.snapshot.state;
  assert.match(st, /^- navigation "Rows"/);
  assert.ok(st.split('\n').filter((l) => /button "Row \d+"/.test(l)).length > s.snapshot.state.split('\n').filter((l) => /button "Row \d+"/.test(l)).length, st.slice(0, 800));
  assert.ok(opened.snapshot.charCount <= 20000);
  // Page by page in document order: every row once the pages are read, each page in budget.
  // Each page names its root with a ref, so the next page asks under the latest snapshotId
  // (older ones are forgotten after a few reads).
  const rows = new Set();
  let pages = 0;
  let at = { snapshotId: s.snapshot.snapshotId, ref: handle };
  for (let page = 1; page <= 30; page++) {
    const p = await b.call('browser_snapshot', { tabId, ...at, page, maxChars: 4000 });
    assert.ok(!p.error && p.snapshot.charCount <= 4000, JSON.stringify(p.error ?? p.snapshot.charCount));
    for (const m of p.snapshot.state.matchAll(/button "Row (\d+)"/g)) rows.add(m[1]);
    pages = page;
    at = { snapshotId: p.snapshot.snapshotId, ref: refOf(p.snapshot.state, 'navigation "Rows"') };
    if (/note: page \d+, the last$/.test(p.snapshot.state)) break;
    assert.match(p.snapshot.state, new RegExp(`note: page ${page}; more: page ${page + 1}$`));
  }
  assert.ok(pages > 2, `${pages} pages`);
  const total = await b.call('browser_find', { tabId, role: 'button', name: 'Row ', maxResults: 1 });
  assert.equal(rows.size, total.matches, `rows on pages ${rows.size}, on the page ${total.matches}`);
  const past = await b.call('browser_snapshot', { tabId, ...at, page: pages + 1, maxChars: 4000 });
  assert.equal(past.error?.code, 'INVALID_REQUEST');
  assert.match(past.error.message, new RegExp(`has ${pages}`));
});
