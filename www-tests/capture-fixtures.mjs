// Captures real CDP observations of the test pages with the extension's own capture code
// (a Playwright CDP session stands in for chrome.debugger) and writes them to
// tests/captures/<page>.json for the native `cargo test` suite.
//
//   node www-tests/capture-fixtures.mjs            # all pages
//   node www-tests/capture-fixtures.mjs basic.html # some
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { captureObservation } from '../extension/read/capture.js';
import { startServer } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, '..', 'tests', 'captures');
// Must match `COMPUTED_STYLES` in src/tree/layout.rs (the extension asks wasm for it).
const STYLES = ['display', 'visibility', 'opacity', 'position', 'pointer-events', 'cursor'];
const PAGES = ['basic.html', 'nested.html', 'hidden.html', 'sensitive.html', 'overlay.html', 'frames.html', 'longlist.html', 'long-session.html'];

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : PAGES;
fs.mkdirSync(outDir, { recursive: true });
const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  for (const name of wanted) {
    await page.goto(server.url(name), { waitUntil: 'load' });
    await page.waitForTimeout(100);
    const cdp = await page.context().newCDPSession(page);
    const obs = await captureObservation([{ session: '', send: (m, p) => cdp.send(m, p) }], STYLES);
    await cdp.detach();
    // Rewrite the ephemeral origin so captures are stable across runs.
    const text = JSON.stringify(obs).replaceAll(server.origin, 'http://127.0.0.1:8000');
    const base = path.join(outDir, name.replace(/\.html$/, '.json'));
    // Large captures are stored gzipped (the tests read both forms).
    if (text.length > 200_000) fs.writeFileSync(base + '.gz', zlib.gzipSync(text, { level: 9 }));
    else fs.writeFileSync(base, text);
    console.log(`${name}: ${text.length} bytes, ${obs.frames.length} frames`);
  }
} finally {
  await browser.close();
  await server.close();
}
