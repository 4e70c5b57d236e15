// ./build.sh bench: what pages no agent reads pay for the extension (issue #37 item 5). Three
// content scripts run at document_start in every frame of every page the person opens
// (page/memory.js, changes.js, domwalk.js). Two browsers side by side, one with the extension
// and one without, load the same pages in turns (interleaved, offline: third-party requests
// fail at once); per load, the time to the `load` event and the main thread's task time
// (CDP Performance.getMetrics TaskDuration, the page's renderer) until then. Medians of
// BROWSE_REPS (default 7) per page, then the median over pages of with ÷ without.
// Writes bench/browsing.json and prints a table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { browserOptions, extensionDir } from '../www-tests/harness.mjs';
import { corpusServer, pagesOf, fullDir } from '../www-tests/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPS = Number(process.env.BROWSE_REPS || 7);
const PAGES = Number(process.env.BROWSE_PAGES || 12);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

if (!fs.existsSync(fullDir)) {
  console.log(`no corpus at ${fullDir}: browsing cost not measured`);
  process.exit(0);
}
const corpus = pagesOf(fullDir);
const spread = corpus.filter((_, i) => i % Math.max(1, Math.floor(corpus.length / PAGES)) === 0).slice(0, PAGES);
// A page with many frames (news sites' ad slots): every frame runs the content scripts.
for (const name of ['cnn']) if (corpus.includes(name) && !spread.includes(name)) spread.push(name);
const srv = await corpusServer(fullDir);

async function browser(withExtension) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-browse-'));
  // Without: the browser as the person has it otherwise (its component extensions too).
  const context = await chromium.launchPersistentContext(dir, browserOptions({ extension: withExtension ? extensionDir : null }));
  await context.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])[a-z]+:\/\//, (r) => r.abort());
  if (withExtension) {
    let [w] = context.serviceWorkers();
    if (!w) w = await context.waitForEvent('serviceworker', { timeout: 15000 });
    await w.evaluate(() => new Promise((r) => { const t = () => (globalThis.pcc ? r() : setTimeout(t, 20)); t(); }));
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp, dir };
}

/** One load of `url`: ms to the load event, ms of main-thread tasks meanwhile. */
async function load(b, url) {
  await b.page.goto('about:blank');
  const task = async () => (await b.cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const before = await task();
  await b.page.goto(url, { waitUntil: 'load' }).catch(() => {});
  const loadMs = await b.page.evaluate(() => performance.getEntriesByType('navigation')[0]?.loadEventStart ?? NaN);
  return { loadMs, taskMs: ((await task()) - before) * 1000 };
}

// BROWSE_AA=1: both browsers without the extension, the noise floor of the method.
const withExt = await browser(process.env.BROWSE_AA !== '1');
const without = await browser(false);
const rows = [];
try {
  for (const name of spread) {
    const url = srv.url(name);
    const a = [], b = [];
    await load(withExt, url); // warm both (the server's first read, the HTTP cache off: no-store)
    await load(without, url);
    for (let i = 0; i < REPS; i++) {
      // Interleaved, the order alternating: drift hits both.
      if (i % 2) { b.push(await load(without, url)); a.push(await load(withExt, url)); } else { a.push(await load(withExt, url)); b.push(await load(without, url)); }
    }
    const m = (xs, k) => median(xs.map((x) => x[k]));
    rows.push({ page: name, loadWith: m(a, 'loadMs'), loadWithout: m(b, 'loadMs'), taskWith: m(a, 'taskMs'), taskWithout: m(b, 'taskMs') });
  }
} finally {
  for (const x of [withExt, without]) { await x.context.close(); fs.rmSync(x.dir, { recursive: true, force: true }); }
  await srv.close();
}
const f = (x, d = 1) => x.toFixed(d);
console.log('page | load with / without (ms) | ratio | main-thread tasks with / without (ms) | ratio');
for (const r of rows) console.log(`${r.page} | ${f(r.loadWith)} / ${f(r.loadWithout)} | ${f(r.loadWith / r.loadWithout, 3)} | ${f(r.taskWith)} / ${f(r.taskWithout)} | ${f(r.taskWith / r.taskWithout, 3)}`);
const loadRatio = median(rows.map((r) => r.loadWith / r.loadWithout));
const taskRatio = median(rows.map((r) => r.taskWith / r.taskWithout));
console.log(`median over ${rows.length} pages (${REPS} interleaved loads each): load ${f(loadRatio, 3)}×, main-thread tasks ${f(taskRatio, 3)}× with the extension`);
fs.writeFileSync(path.join(here, 'browsing.json'), JSON.stringify({ date: new Date().toISOString(), reps: REPS, rows, loadRatio, taskRatio }, null, 2));
