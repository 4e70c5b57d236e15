// The image-path measurement (issue #58): a screenshot's masks drawn and the image encoded
// again, by the worker's OffscreenCanvas path and by the same step in wasm (src/lib.rs, the
// `png` crate), on the same captured PNGs in the same Chromium. Not part of ./build.sh test.
//
//   node bench/image-path/run.mjs [--pages N]
// Builds the wasm (release, wasm-bindgen), captures each corpus page's viewport as PNG, then
// times both paths per image (median of 7 each, interleaved) with five mask boxes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { corpusServer, pagesOf, fullDir } from '../../www-tests/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const n = Number(process.argv[process.argv.indexOf('--pages') + 1]) || 12;

execFileSync('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown'], { cwd: here, stdio: 'inherit' });
execFileSync('wasm-bindgen', ['--target', 'web', '--out-dir', path.join(here, 'pkg'), path.join(here, 'target/wasm32-unknown-unknown/release/image_path.wasm')], { stdio: 'inherit' });

const files = { '/': '<!doctype html><title>image path</title>', '/pkg/image_path.js': fs.readFileSync(path.join(here, 'pkg/image_path.js')), '/pkg/image_path_bg.wasm': fs.readFileSync(path.join(here, 'pkg/image_path_bg.wasm')) };
const server = http.createServer((req, res) => {
  const body = files[req.url];
  res.writeHead(body ? 200 : 404, { 'content-type': req.url.endsWith('.wasm') ? 'application/wasm' : req.url.endsWith('.js') ? 'text/javascript' : 'text/html' });
  res.end(body ?? '');
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const shots = [];
const corpus = await corpusServer(fullDir);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  for (const name of pagesOf(fullDir).slice(0, n)) {
    await page.goto(corpus.url(name), { waitUntil: 'load' }).catch(() => {});
    shots.push({ name, png: (await page.screenshot({ type: 'png' })).toString('base64') });
  }
} finally {
  await corpus.close();
}
const bench = await browser.newPage();
await bench.goto(base);
const rows = await bench.evaluate(async (shots) => {
  const { default: init, cover } = await import('/pkg/image_path.js');
  await init();
  const boxes = [20, 30, 200, 24, 400, 120, 180, 22, 60, 300, 320, 40, 700, 500, 150, 30, 900, 60, 240, 20];
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const out = [];
  for (const { name, png } of shots) {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const canvasRun = async () => {
      const t0 = performance.now();
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = c.getContext('2d');
      g.drawImage(bitmap, 0, 0);
      g.fillStyle = '#000';
      for (let i = 0; i < boxes.length; i += 4) g.fillRect(boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3]);
      const blob = await c.convertToBlob({ type: 'image/png' });
      const size = (await blob.arrayBuffer()).byteLength;
      return [performance.now() - t0, size];
    };
    const wasmRun = (best) => {
      const t0 = performance.now();
      const size = cover(bytes, new Float64Array(boxes), best).length;
      return [performance.now() - t0, size];
    };
    const t = { canvas: [], wasm: [], best: [] };
    let sizes;
    for (let k = 0; k < 7; k++) {
      const a = await canvasRun();
      const b = wasmRun(false);
      const c = wasmRun(true);
      t.canvas.push(a[0]);
      t.wasm.push(b[0]);
      t.best.push(c[0]);
      sizes = [a[1], b[1], c[1]];
    }
    out.push({ name, inBytes: bytes.length, canvasMs: med(t.canvas), wasmMs: med(t.wasm), wasmBestMs: med(t.best), canvasBytes: sizes[0], wasmBytes: sizes[1], wasmBestBytes: sizes[2] });
  }
  return out;
}, shots);
await browser.close();
server.close();
for (const r of rows) console.log(`${r.name.padEnd(28)} ${String(r.inBytes).padStart(8)} B   canvas ${r.canvasMs.toFixed(1).padStart(6)} ms ${String(r.canvasBytes).padStart(8)} B   wasm ${r.wasmMs.toFixed(1).padStart(6)} ms ${String(r.wasmBytes).padStart(8)} B   wasm best ${r.wasmBestMs.toFixed(1).padStart(6)} ms ${String(r.wasmBestBytes).padStart(8)} B`);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = { pages: rows.length, canvasMs: med(rows.map((r) => r.canvasMs)), wasmMs: med(rows.map((r) => r.wasmMs)), wasmBestMs: med(rows.map((r) => r.wasmBestMs)), wasmOverCanvas: med(rows.map((r) => r.wasmMs / r.canvasMs)), wasmBestOverCanvas: med(rows.map((r) => r.wasmBestMs / r.canvasMs)),
  canvasBytes: med(rows.map((r) => r.canvasBytes)), wasmBytes: med(rows.map((r) => r.wasmBytes)), wasmBestBytes: med(rows.map((r) => r.wasmBestBytes)) };
console.log(JSON.stringify(summary));
fs.writeFileSync(path.join(here, '..', 'image-path.json'), `${JSON.stringify({ date: new Date().toISOString(), summary, rows }, null, 1)}\n`);
