// browser_dom_cua and browser_extract end to end: visible elements with coordinates,
// readability-style main content, budgets, redaction, and read-only use of a user tab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openTab, openUserTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });
const open = (path) => openTab(b, server, path);
const SECRET = /SECRET/;

test('dom_cua: visible elements with coordinates, hidden ones and secrets never', async () => {
  const { page, tabId } = await open('hidden.html');
  const r = await b.call('browser_dom_cua', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.ok(r.state.length > 0 && r.charCount === [...r.state].length, JSON.stringify(r));
  assert.ok(r.nodeCount <= 200 && r.charCount <= 20000);
  for (const line of r.state.split('\n')) assert.match(line, /@-?\d+,-?\d+ \d+x\d+$/, line);
  const visibleButton = await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.getClientRects().length && getComputedStyle(b).visibility === 'visible')?.textContent.trim());
  assert.ok(r.state.includes(`"${visibleButton}"`), r.state);
  const hiddenTexts = await page.evaluate(() => [...document.querySelectorAll('button, a')].filter((e) => !e.getClientRects().length).map((e) => e.textContent.trim()).filter(Boolean));
  for (const t of hiddenTexts) assert.ok(!r.state.includes(`"${t}"`), `hidden ${t} listed:\n${r.state}`);
  await page.close();

  const s = await open('sensitive.html');
  const sr = await b.call('browser_dom_cua', { tabId: s.tabId });
  assert.ok(!SECRET.test(sr.state), sr.state);
  assert.match(sr.state, /value="visible-nick"/);
  assert.match(sr.state, /value=\[redacted\]/);
  await s.page.fill('input[name=nick]', 'typed-SECRET-nick');
  await s.page.fill('input[name=password]', 'typed-SECRET-pw');
  assert.ok(!/typed-SECRET-pw/.test(JSON.stringify(await b.call('browser_dom_cua', { tabId: s.tabId }))));
  await s.page.close();
});

test('dom_cua: iframes share the budget, verified frames only, selector and limits', async () => {
  const { page, tabId } = await open(`frames.html?xo=${encodeURIComponent(`${server.crossOrigin}/child.html`)}`);
  await page.waitForTimeout(300);
  const r = await b.call('browser_dom_cua', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.match(r.state, /button "Main button"/);
  assert.match(r.state, /^iframe "Same origin" @/m);
  assert.match(r.state, /^ {2}button "Inner button" @/m, r.state);
  assert.ok(!/Hidden frame button/.test(r.state), r.state);
  assert.ok(!/frame-SECRET/.test(r.state), r.state);
  assert.ok(r.frameCount >= 1);
  // Inner coordinates are in the top viewport: inside the iframe's box.
  const box = await page.locator('iframe[title="Same origin"]').boundingBox();
  const [, x, y] = r.state.match(/button "Inner button" @(\d+),(\d+)/).map(Number);
  assert.ok(x >= box.x && y >= box.y && x < box.x + box.width && y < box.y + box.height, `${x},${y} vs ${JSON.stringify(box)}`);
  const small = await b.call('browser_dom_cua', { tabId, maxNodes: 5 });
  assert.ok(small.nodeCount <= 5, small.state);
  assert.equal(small.truncated, true);
  assert.ok(small.totalNodes > 5, small.state);
  const scoped = await b.call('browser_dom_cua', { tabId, selector: 'h1' });
  assert.ok(!scoped.error && /Frames page/.test(scoped.state) && !/Main button/.test(scoped.state), JSON.stringify(scoped));
  assert.equal((await b.call('browser_dom_cua', { tabId, selector: '#nope' })).error?.code, 'BROWSER_SELECTOR_NOT_FOUND');
  assert.equal((await b.call('browser_dom_cua', { tabId, selector: '##' })).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('dom_cua on the long-session page stays within 20,000 chars and 200 nodes', async () => {
  const { page, tabId } = await open('long-session.html');
  const r = await b.call('browser_dom_cua', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.ok(r.charCount <= 20000 && r.nodeCount <= 200, `${r.charCount} / ${r.nodeCount}`);
  assert.ok(!SECRET.test(r.state));
  await page.close();
});

test('extract: main content as Markdown, not navigation, sidebars, hidden text or field values', async () => {
  const { page, tabId } = await open('article.html');
  const r = await b.call('browser_extract', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.equal(r.format, 'markdown');
  assert.equal(r.scope, 'article');
  // The page's own metadata; the headline is the title (Readability lifts it out of the text).
  assert.deepEqual([r.title, r.byline, r.site, r.published, r.lang], ['How tides work', 'Ada Ocean', 'Example News', '2024-05-06T07:08:09Z', 'en']);
  const c = r.content;
  assert.match(c, /^## Spring and neap tides/m);
  assert.match(c, /\*\*spring tides\*\*/);
  assert.match(c, /\[tide tables\]\(https:\/\/example\.test\/tides\?session_token=\[redacted\]&page=2\)/);
  assert.match(c, /^- High water/m);
  assert.match(c, /```\nheight\(t\) = A \* cos\(w \* t \+ phase\)\n {2}# two spaces kept\n```/);
  assert.match(c, /\| Bay of Fundy \| 16 m \|/);
  assert.match(c, /Tidal energy can be harnessed/);
  for (const no of [/Trending/, /Section A/, /Copyright/, /cookies/, /Hidden paragraph/, /Template paragraph/, SECRET]) assert.ok(!no.test(c), `${no} in:\n${c}`);
  assert.equal(r.charCount, [...c].length);
  assert.equal(r.nextOffset, undefined);
  const text = await b.call('browser_extract', { tabId, format: 'text' });
  assert.ok(!/[#*`]|\]\(/.test(text.content.replace(/height\(t\)[^\n]*\n[^\n]*/, '')), text.content);
  assert.match(text.content, /Tides are the rise and fall/);
  // Paged: 300 characters at a time; each page is the whole content at its offset, and the
  // next one starts where it ended (only the separator between them is skipped).
  const all = [...c];
  let pages = 0;
  for (let offset = 0; pages < 20; pages++) {
    const part = await b.call('browser_extract', { tabId, maxChars: 300, offset });
    assert.ok(part.charCount <= 300 && part.totalChars === r.totalChars, JSON.stringify(part));
    assert.equal(all.slice(offset, offset + part.charCount).join(''), part.content);
    if (part.nextOffset === undefined) {
      assert.equal(offset + part.charCount, all.length);
      break;
    }
    assert.match(all.slice(offset + part.charCount, part.nextOffset).join(''), /^\s*$/);
    offset = part.nextOffset;
  }
  assert.ok(pages > 2, pages);
  const scoped = await b.call('browser_extract', { tabId, selector: 'footer' });
  assert.equal(scoped.scope, 'selector');
  assert.match(scoped.content, /Copyright Example News/);
  assert.equal((await b.call('browser_extract', { tabId, format: 'html' })).error?.code, 'INVALID_REQUEST');
  await page.close();
});

test('extract works read-only on an unclaimed user tab; a click there is refused', async () => {
  const { page, tabId } = await openUserTab(b, server, 'article.html');
  const r = await b.call('browser_extract', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.equal(r.title, 'How tides work');
  assert.match(r.content, /Tides are the rise and fall/);
  assert.equal(r.tab.handle, undefined);
  const snap = await b.call('browser_snapshot', { tabId });
  const ref = snap.snapshot.state.match(/link "tide tables"[^\n]*\[ref=(e\d+)\]/)?.[1];
  assert.ok(ref, snap.snapshot.state);
  const click = await b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref });
  assert.equal(click.error?.code, "BROWSER_TAB_NOT_OWNED", JSON.stringify(click));
  assert.ok(click.error.hint);
  assert.equal(page.url(), server.url('article.html'));
  await page.close();
});

test('extract on a strict-CSP page and on a browser page', async () => {
  const { page, tabId } = await open('strict-csp.html');
  const r = await b.call('browser_extract', { tabId });
  assert.ok(!r.error, JSON.stringify(r));
  assert.ok(r.content.length > 0);
  await page.goto('chrome://version');
  const e = await b.call('browser_extract', { tabId });
  assert.equal(e.error?.code, 'BROWSER_PAGE_UNAVAILABLE');
  await page.close();
});
