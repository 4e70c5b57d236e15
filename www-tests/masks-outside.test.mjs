// Every secret the text hides is hidden in the image (issue #65): fields the state leaves out
// but the screen paints (behind an open modal dialog, under aria-hidden, in a closed shadow
// root) are covered where the page paints them, and copies are found by the last scrub's own
// matcher (case, pieces of a long key, PEM bodies, secret-named parameters; CSS-generated
// text; text overflowing its box, covered on its glyphs), on the viewport
// and the whole page, with and without marks, for both read sources' sessions. Checked by
// pixels and by OCR.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, openTab, pixelsOf } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch({ offline: true }); });
after(async () => { await b?.close(); await server?.close(); });

const PASSWORD = 'Quokka-PASS-551177';
const KEY = 'sk-live-9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c';
const TOKEN = 'bk-TOKEN-77aa88bb99';
const INNER = 'inner-SECRET-4455667788';
const black = ([r, g, bl]) => r < 20 && g < 20 && bl < 20;

test('fields behind a modal, under aria-hidden and in a closed shadow root, and copies in other forms, are covered on every capture', async () => {
  const { page, tabId } = await openTab(b, server, 'masks-outside-tree.html');
  await page.fill('#pw', PASSWORD);
  await page.fill('#key', KEY);
  await page.fill('#tok', TOKEN);
  await page.evaluate((v) => { window.innerField.value = v; }, INNER);
  await page.evaluate(([pw, key]) => {
    document.getElementById('upper').textContent = pw; // painted upper-cased
    document.getElementById('piece').textContent = `key starts ${key.slice(0, 20)}`;
    document.getElementById('gen').dataset.k = key; // painted by ::after { content: attr(data-k) }
    document.getElementById('narrow').textContent = `copy: ${pw}`; // overflows its 60 px box
  }, [PASSWORD, KEY]);
  await page.evaluate(() => document.getElementById('modal').showModal());
  // The page's side first: a read sees the modal alone (the form behind it is inert).
  const snap = await b.call('browser_snapshot', { tabId });
  assert.ok(!snap.error, JSON.stringify(snap));
  assert.match(snap.snapshot.state, /Confirm the transfer/);

  const centres = await page.evaluate(() => {
    const c = (r) => [r.x + Math.min(r.width, 200) / 2, r.y + r.height / 2];
    return {
      pw: c(document.getElementById('pw').getBoundingClientRect()),
      key: c(document.getElementById('key').getBoundingClientRect()),
      tok: c(document.getElementById('tok').getBoundingClientRect()),
      inner: c(window.innerField.getBoundingClientRect()),
      upper: c(document.getElementById('upper').getBoundingClientRect()),
      piece: c(document.getElementById('piece').getBoundingClientRect()),
      pem: c(document.getElementById('pem').getBoundingClientRect()),
      reset: c(document.getElementById('reset').getBoundingClientRect()),
      gen: [document.getElementById('gen').getBoundingClientRect().x + 120, document.getElementById('gen').getBoundingClientRect().y + 10],
      narrow: (() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('narrow')); const b = r.getBoundingClientRect(); return [b.x + b.width - 30, b.y + b.height / 2]; })(),
    };
  });
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  for (const params of [{}, { marks: true }, { fullPage: true }]) {
    const shot = await b.call('browser_screenshot', { tabId, ...params });
    assert.ok(!shot.error, JSON.stringify(shot.error));
    const names = Object.keys(centres);
    const px = await pixelsOf(b.context, shot.attachment.data, width, names.map((n) => centres[n]));
    const open = names.filter((n, i) => !black(px[i]));
    assert.deepEqual(open, [], `${JSON.stringify(params)}: shown in clear: ${open.join(', ')}`);
    if (!params.marks) {
      const png = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-ocr-')), 'shot.png');
      fs.writeFileSync(png, Buffer.from(shot.attachment.data, 'base64'));
      const read = execFileSync('tesseract', [png, 'stdout', '--psm', '11'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      assert.match(read, /Confirm/, `OCR reads the page: ${read}`);
      assert.ok(!/QUOKKA|551177|9f8a7b6c|77aa88|4455667788|MIIEvQ|Zm9vYmFy/i.test(read), `OCR reads a secret in ${read}`);
    }
  }
  await page.close();
});

test('a copy that moves fast between the plan and the pixels is never shown', async () => {
  const { page, tabId } = await openTab(b, server, 'masks-moving.html');
  await page.fill('#pw', PASSWORD);
  let readable = 0;
  for (let i = 0; i < 6; i++) {
    const shot = await b.call('browser_screenshot', { tabId });
    assert.ok(!shot.error, JSON.stringify(shot.error));
    const png = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-ocr-')), 'shot.png');
    fs.writeFileSync(png, Buffer.from(shot.attachment.data, 'base64'));
    const read = execFileSync('tesseract', [png, 'stdout', '--psm', '11'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    assert.match(read, /Moving/, `OCR reads the page: ${read}`);
    if (/QUOKKA|551177/i.test(read)) readable++;
  }
  assert.equal(readable, 0, `the moving password was read in ${readable} of 6 shots`);
  await page.close();
});

test('a typed key in an iframe with a thick border and padding, or scaled 2×, is covered where it is painted', async () => {
  const { page, tabId } = await openTab(b, server, 'masks-frames.html');
  const frames = page.frames().filter((f) => f.url().endsWith('masks-frame-child.html'));
  assert.equal(frames.length, 2);
  for (const f of frames) await f.fill('#key', KEY);
  // The field's centre on screen: inside each iframe's border and padding, at its scale.
  const centres = await page.evaluate(() => ['thick', 'scaled'].map((id) => {
    const el = document.getElementById(id);
    const r = el.getBoundingClientRect();
    const s = r.width / el.offsetWidth;
    const cs = getComputedStyle(el);
    const f = el.contentDocument.getElementById('key').getBoundingClientRect();
    const x0 = r.x + (el.clientLeft + parseFloat(cs.paddingLeft)) * s, y0 = r.y + (el.clientTop + parseFloat(cs.paddingTop)) * s;
    return [[x0 + (f.x + 20) * s, y0 + (f.y + f.height / 2) * s], [x0 + (f.x + f.width - 20) * s, y0 + (f.y + f.height / 2) * s]];
  }).flat());
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  for (const params of [{}, { fullPage: true }]) {
    const shot = await b.call('browser_screenshot', { tabId, ...params });
    assert.ok(!shot.error, JSON.stringify(shot.error));
    const px = await pixelsOf(b.context, shot.attachment.data, width, centres);
    assert.ok(px.every(black), `${JSON.stringify(params)}: the field in clear at ${JSON.stringify(px)}`);
  }
  await page.close();
});
