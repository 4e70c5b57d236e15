// Secrets masked in every image (issue #58 item 1): the state and every text result redact a
// typed password, an API key in a secret-named field, a one-time code and a copy of the
// password the page shows as text; a screenshot must not show them either. The test types
// them, screenshots the viewport, the whole page and one element, and reads the pixels of
// each region (covered: black) and of a control region and a plain field (untouched); the
// page's DOM is the same before and after (the boxes are drawn on the image, not the page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, openTab, closeTab, pixelsOf } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch({ offline: true }); });
after(async () => { await b?.close(); await server?.close(); });

const PASSWORD = 'Zq-PASS-991177';
const KEY = 'sk-live-AB12CD34EF56';
const OTP = '482913';

/** The RGB of the image's pixels at each point (CSS px of the captured region). */
const pixels = (data, { width, at }) => pixelsOf(b.context, data, width, at);

const black = ([r, g, bl]) => r < 20 && g < 20 && bl < 20;
const yellow = ([r, g, bl]) => r > 200 && g > 200 && bl < 60;
const green = ([r, g, bl]) => r < 60 && g > 160 && bl < 60;

/** Centres (viewport CSS px, or page px with `page`) of the elements with these ids. */
const centres = (page, ids, pageCoords = false) => page.evaluate(([ids, pageCoords]) => ids.map((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [r.x + r.width / 2 + (pageCoords ? scrollX : 0), r.y + r.height / 2 + (pageCoords ? scrollY : 0)];
}), [ids, pageCoords]);

test('a screenshot covers every value the text state hides — typed secrets, secret-named and one-time-code fields, a copy the page prints — and nothing else; the page is untouched', async () => {
  const { page, tabId } = await openTab(b, server, 'secrets-on-screen.html');
  await page.type('#pw', PASSWORD);
  await page.type('#key', KEY);
  await page.type('#otp', OTP);
  await page.type('#nick', 'grace');
  await page.evaluate((key) => { document.getElementById('token').textContent = key; }, KEY);
  const dom = await page.content();
  const ids = ['pw', 'key', 'otp', 'copy', 'control', 'nick'];

  // The viewport.
  const shot = await b.call('browser_screenshot', { tabId });
  assert.ok(!shot.error, JSON.stringify(shot.error));
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  const [pw, key, otp, copy, control, nick] = await pixels(shot.attachment.data, { width, at: await centres(page, ids) });
  for (const [name, px] of Object.entries({ pw, key, otp, copy })) assert.ok(black(px), `${name} is covered: ${px}`);
  assert.ok(green(control), `the control region is untouched: ${control}`);
  assert.ok(yellow(nick) || !black(nick), `a plain field is not covered: ${nick}`);

  // What OCR (Debian's tesseract-ocr, installed by ./build.sh) reads of the image: the page's
  // words, none of its secrets.
  const png = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-ocr-')), 'shot.png');
  fs.writeFileSync(png, Buffer.from(shot.attachment.data, 'base64'));
  // (Sparse text: on this page it reads the heading and the copy line of an image without
  // boxes — "You typed Zq-PASS-991177" — and none of the form's rows either way.)
  const read = execFileSync('tesseract', [png, 'stdout', '--psm', '11'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  assert.match(read, /Account/, `OCR reads the page: ${read}`);
  assert.ok(!/PASS|991177|AB12CD34|482913/i.test(read), `OCR reads a secret in ${read}`);

  // The whole page: the token printed below the fold too.
  const full = await b.call('browser_screenshot', { tabId, fullPage: true });
  assert.ok(!full.error, JSON.stringify(full.error));
  const fullWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  const [fpw, ftoken, fcontrol] = await pixels(full.attachment.data, { width: fullWidth, at: await centres(page, ['pw', 'token', 'control'], true) });
  assert.ok(black(fpw) && black(ftoken), `covered on the whole page: ${fpw} ${ftoken}`);
  assert.ok(green(fcontrol), `the control region is untouched: ${fcontrol}`);

  // One element: the password field alone.
  const snap = await b.call('browser_snapshot', { tabId });
  const ref = snap.snapshot.state.match(/textbox "Password"[^\n]*\[ref=(e\d+)\]/)?.[1];
  const one = await b.call('browser_screenshot', { tabId, ref, snapshotId: snap.snapshot.snapshotId });
  assert.ok(!one.error, JSON.stringify(one.error));
  const box = await page.evaluate(() => { const r = document.getElementById('pw').getBoundingClientRect(); return { w: r.width, h: r.height }; });
  const [mid] = await pixels(one.attachment.data, { width: box.w, at: [[box.w / 2, box.h / 2]] });
  assert.ok(black(mid), `the element's own image is covered: ${mid}`);

  assert.equal(await page.content(), dom, 'the page is the same before and after: the boxes are on the image');
  await closeTab(b, page, tabId);
});

test('marks: each visible ref boxed and labelled on the image, on its element\'s border box; the result names the state whose refs they are, its refs act; the page is untouched', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const dom = await page.content();
  const shot = await b.call('browser_screenshot', { tabId, marks: true });
  assert.ok(!shot.error, JSON.stringify(shot.error));
  assert.match(shot.text, new RegExp(`^Screenshot captured for tab ${tabId}, its refs marked \\(snapshotId ${shot.snapshotId}\\)\\.$`));
  assert.ok(shot.marks.length > 0, JSON.stringify(shot).slice(0, 300));
  // Every button and link in the viewport has a mark on its border box (its left edge, within 2 px).
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  const boxes = await page.evaluate(() => [...document.querySelectorAll('button, a[href], input')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 4 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth).map((r) => [r.left, r.top + r.height / 2]));
  assert.ok(boxes.length > 0);
  const magenta = ([r, g, bl]) => r > 180 && g < 60 && bl > 80;
  for (const [x, y] of boxes) {
    const px = await pixels(shot.attachment.data, { width, at: [[x - 1, y], [x, y], [x + 1, y]] });
    assert.ok(px.some(magenta), `a mark on the box at (${x}, ${y}): ${JSON.stringify(px)}`);
  }
  assert.equal(await page.content(), dom, 'the page is the same before and after: the marks are on the image');
  // Its refs are a state of their own: they act.
  const snap = await b.call('browser_snapshot', { tabId });
  const label = snap.snapshot.state.match(/button "Click me" \[ref=(e\d+)\]/)?.[1];
  const click = await b.call('browser_click', { tabId, ref: label, snapshotId: shot.snapshotId });
  assert.ok(!click.error, `a marked ref acts: ${JSON.stringify(click.error)}`);
  await closeTab(b, page, tabId);
});

test('marks of a state the model holds (snapshotId): its own refs, each on its element where it is now (after a scroll), for the DOM walk\'s and the accessibility tree\'s refs; one the tab does not hold fails', async () => {
  const { page, tabId } = await openTab(b, server, 'long-session.html');
  for (const read of [['browser_snapshot', {}], ['browser_accessibility_snapshot', { disableDiffing: true }]]) {
    await page.evaluate(() => scrollTo(0, 0));
    const r = await b.call(read[0], { tabId, ...read[1] });
    const held = r.snapshot?.snapshotId ?? r.snapshotId;
    const state = r.snapshot?.state ?? r.state;
    const refs = new Set([...state.matchAll(/\[(?:ref|more)=([a-z]\d+)\]/g)].map((m) => m[1]));
    await page.evaluate(() => scrollBy(0, 60));
    const shot = await b.call('browser_screenshot', { tabId, marks: true, snapshotId: held });
    assert.ok(!shot.error, JSON.stringify(shot.error));
    assert.equal(shot.snapshotId, held, 'the marks are the held state\'s refs');
    assert.match(shot.text, new RegExp(`its refs marked \\(snapshotId ${held}\\)`));
    assert.ok(shot.marks.length > 3, `${read[0]}: ${JSON.stringify(shot).slice(0, 300)}`);
    const boxes = await page.evaluate(() => [...document.querySelectorAll('*')].map((e) => e.getBoundingClientRect()).map((r) => {
      const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top), x1 = Math.min(innerWidth, r.right), y1 = Math.min(innerHeight, r.bottom);
      return [x0, y0, x1 - x0, y1 - y0];
    }).filter(([, , w, h]) => w > 0 && h > 0));
    // The attachment preview's button is inside a frame: not placed, and said so.
    if (read[0] === 'browser_accessibility_snapshot') {
      assert.ok(shot.unmarked >= 1, JSON.stringify(shot.unmarked));
      assert.match(shot.text, new RegExp(`but ${shot.unmarked} not found \\(gone, or inside a frame\\)\\.$`));
    }
    for (const m of shot.marks) {
      assert.ok(refs.has(m.ref), `${read[0]}: ${m.ref} is a ref of the held state`);
      assert.ok(boxes.some(([x, y, w, h]) => Math.abs(x - m.x) <= 2 && Math.abs(y - m.y) <= 2 && Math.abs(w - m.width) <= 2 && Math.abs(h - m.height) <= 2), `${read[0]}: mark ${m.ref} ${JSON.stringify(m)} is where its element is now`);
    }
  }
  const stale = await b.call('browser_screenshot', { tabId, marks: true, snapshotId: 'snapshot-nothere-1' });
  assert.equal(stale.error?.code, 'BROWSER_STALE_REF', JSON.stringify(stale));
  await closeTab(b, page, tabId);
});

test('size: the longest side bounded (1568 px by default, maxEdge when asked), JPEG or WebP on request; the result says the pixels, bytes and tokens', async () => {
  const { page, tabId } = await openTab(b, server, 'long-session.html');
  const plain = await b.call('browser_screenshot', { tabId });
  assert.ok(!plain.error, JSON.stringify(plain.error));
  assert.equal(plain.attachment.mimeType, 'image/png');
  assert.ok(Math.max(plain.image.width, plain.image.height) <= 1568, JSON.stringify(plain.image));
  assert.equal(plain.image.bytes, Buffer.from(plain.attachment.data, 'base64').length);
  assert.ok(plain.image.tokens.anthropic > 0 && plain.image.tokens.openai > 0, JSON.stringify(plain.image));
  const small = await b.call('browser_screenshot', { tabId, maxEdge: 400, format: 'jpeg' });
  assert.ok(!small.error, JSON.stringify(small.error));
  assert.equal(small.attachment.mimeType, 'image/jpeg');
  assert.equal(Math.max(small.image.width, small.image.height), 400);
  assert.ok(small.image.bytes < plain.image.bytes, `${small.image.bytes} < ${plain.image.bytes}`);
  assert.ok(small.image.tokens.anthropic < plain.image.tokens.anthropic);
  const full = await b.call('browser_screenshot', { tabId, fullPage: true });
  assert.ok(Math.max(full.image.width, full.image.height) <= 1568, JSON.stringify(full.image));
  const webp = await b.call('browser_screenshot', { tabId, format: 'webp' });
  assert.equal(webp.attachment.mimeType, 'image/webp');
  console.log(`screenshot of long-session: png ${plain.image.width}×${plain.image.height} ${plain.image.bytes} B ~${plain.image.tokens.anthropic} tokens; jpeg at 400 px ${small.image.bytes} B ~${small.image.tokens.anthropic}; webp ${webp.image.bytes} B`);
  await closeTab(b, page, tabId);
});

test('marks on real pages: every mark lies on an element\'s border box within 2 px (20 corpus pages, or the vendored subset); timings and sizes at the default', async () => {
  const { corpusServer, pagesOf, subsetDir } = await import('./corpus.mjs');
  const full = new URL('../../shared/corpus/readability/', import.meta.url).pathname;
  const dir = (await import('node:fs')).existsSync(full) ? full : subsetDir;
  const corpus = await corpusServer(dir);
  const names = pagesOf(dir).slice(0, 20);
  const times = { plain: [], marked: [] };
  let checked = 0;
  let bytes = [];
  let tokens = [];
  try {
    for (const name of names) {
      const url = corpus.url(name);
      const { tab } = await b.call('browser_tab_open', { url });
      const page = b.context.pages().find((p) => p.url() === url);
      await page?.waitForLoadState('load').catch(() => {});
      let t0 = performance.now();
      const plain = await b.call('browser_screenshot', { tabId: tab.id });
      times.plain.push(performance.now() - t0);
      t0 = performance.now();
      const shot = await b.call('browser_screenshot', { tabId: tab.id, marks: true });
      times.marked.push(performance.now() - t0);
      assert.ok(!shot.error && !plain.error, `${name}: ${JSON.stringify(shot.error ?? plain.error)}`);
      bytes.push(plain.image.bytes);
      tokens.push(plain.image.tokens.anthropic);
      // The page's own border boxes, clipped to the viewport.
      const boxes = await page.evaluate(() => [...document.querySelectorAll('*')].map((e) => e.getBoundingClientRect()).map((r) => {
        const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top), x1 = Math.min(innerWidth, r.right), y1 = Math.min(innerHeight, r.bottom);
        return [x0, y0, x1 - x0, y1 - y0];
      }).filter(([, , w, h]) => w > 0 && h > 0));
      for (const m of shot.marks) {
        const near = boxes.some(([x, y, w, h]) => Math.abs(x - m.x) <= 2 && Math.abs(y - m.y) <= 2 && Math.abs(w - m.width) <= 2 && Math.abs(h - m.height) <= 2);
        assert.ok(near, `${name}: mark ${m.ref} at ${JSON.stringify(m)} is on no element's border box`);
      }
      checked += shot.marks.length;
      await b.call('browser_tab_close', { tabId: tab.id });
    }
  } finally {
    await corpus.close();
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`screenshots on ${names.length} corpus pages: ${checked} marks on border boxes; median ${med(times.plain).toFixed(0)} ms masked, ${med(times.marked).toFixed(0)} ms masked + marked; default image median ${med(bytes)} B, ~${med(tokens)} tokens (Anthropic)`);
  assert.ok(checked > 0);
});
