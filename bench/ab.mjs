// A/B of the read paths between two builds of the extension, interleaved in one run:
// `node bench/ab.mjs DIR_A DIR_B` (each an extension folder with its wasm built). Two
// browsers, one per build, read the same pages in turn — a first read, an unchanged
// `browser_snapshot` repeat, a repeat after a change the walk shows (`<body>`'s title) and
// after one it does not (a `data-*` attribute), an unchanged AX repeat and one after a
// change — so both see the same machine load. Prints each path's median and interquartile
// B ÷ A per page and its median over the pages; writes bench/ab.json. The noise of a path is
// how far A's own reads differ between two halves of them (odd and even rounds), beside it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { scaled, benchPages, median } from './pages.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: node bench/ab.mjs DIR_A DIR_B');
const ROUNDS = Number(process.env.AB_ROUNDS || 21);
const PAGES = Number(process.env.AB_PAGES || 6);

const { pages, close: closePages } = await benchPages({ 'scaled-5k.html': scaled(5000) }, PAGES);
const builds = [];
for (const dir of [dirA, dirB]) {
  const b = await launch({ extension: path.resolve(dir), offline: true });
  builds.push({ dir, b });
}

const change = () => document.body.toggleAttribute('title');
const unseen = () => document.body.toggleAttribute('data-ab');
const PATHS = ['first read', 'snapshot repeat', 'snapshot after a change', 'snapshot after an unseen change', 'AX repeat', 'AX after a change'];
const times = builds.map(() => Object.fromEntries(PATHS.map((p) => [p, []])));

async function timed(b, method, params) {
  const t0 = performance.now();
  const r = await b.call(method, params);
  if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
  return performance.now() - t0;
}

const pageSpans = []; // [from, to) of each page's reads in every path's list
for (const { label, url } of pages) {
  const from = times[0]['first read'].length;
  const tabs = [];
  for (const { b } of builds) {
    const r = await b.call('browser_tab_open', { url });
    const page = b.context.pages().find((p) => p.url() === url) ?? (await b.context.waitForEvent('page'));
    await page.waitForLoadState('load').catch(() => {});
    tabs.push({ tabId: r.tab.id, page });
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Each round in turn starts with the other build (no build always goes first).
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const i of order) {
      const { b } = builds[i];
      const { tabId, page } = tabs[i];
      const t = times[i];
      await page.evaluate(change);
      t['first read'].push(await timed(b, 'browser_snapshot', { tabId, maxChars: 10000 + round })); // a key never read before
      await timed(b, 'browser_snapshot', { tabId });
      t['snapshot repeat'].push(await timed(b, 'browser_snapshot', { tabId }));
      await page.evaluate(change);
      t['snapshot after a change'].push(await timed(b, 'browser_snapshot', { tabId }));
      await page.evaluate(unseen);
      t['snapshot after an unseen change'].push(await timed(b, 'browser_snapshot', { tabId }));
      await timed(b, 'browser_accessibility_snapshot', { tabId });
      t['AX repeat'].push(await timed(b, 'browser_accessibility_snapshot', { tabId }));
      await page.evaluate(change);
      t['AX after a change'].push(await timed(b, 'browser_accessibility_snapshot', { tabId }));
    }
  }
  for (const [i, { b }] of builds.entries()) await b.call('browser_tab_close', { tabId: tabs[i].tabId });
  pageSpans.push([from, times[0]['first read'].length]);
  console.log(`${label}: done`);
}

const quart = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
};
// Per page: each build's median of its reads, and B ÷ A; per path: the median of those
// ratios over the pages, and its noise: the spread (interquartile range) of the same ratio
// between two halves of A's own reads (A against itself), as the median over pages.
const rows = PATHS.map((p) => {
  const perPage = pageSpans.map(([from, to], k) => {
    const a = times[0][p].slice(from, to);
    const b = times[1][p].slice(from, to);
    const self = median(a.filter((_, i) => i % 2)) / median(a.filter((_, i) => i % 2 === 0));
    return { page: pages[k].label, a: median(a), b: median(b), ratio: median(b) / median(a), self };
  });
  const ratios = perPage.map((r) => r.ratio);
  const selfSpread = median(perPage.map((r) => Math.abs(Math.log(r.self))));
  return { path: p, ratio: median(ratios), q1: quart(ratios, 0.25), q3: quart(ratios, 0.75), noise: Math.exp(selfSpread) - 1, perPage };
});
console.log(`\n| read | B ÷ A (median over pages) | quartiles over pages | noise (A against itself) |\n| --- | ---: | ---: | ---: |`);
for (const r of rows) console.log(`| ${r.path} | ${r.ratio.toFixed(2)} | ${r.q1.toFixed(2)}–${r.q3.toFixed(2)} | ±${(100 * r.noise).toFixed(0)}% |`);
console.log('\nper page, ms (A → B):');
for (const [k, { label }] of pages.entries()) console.log(`  ${label}: ${rows.map((r) => `${r.path} ${r.perPage[k].a.toFixed(1)} → ${r.perPage[k].b.toFixed(1)}`).join('; ')}`);
fs.writeFileSync(path.join(here, 'ab.json'), JSON.stringify({ a: dirA, b: dirB, rounds: ROUNDS, pages: pages.map((p) => p.label), rows }, null, 1));
for (const { b } of builds) await b.close();
await closePages();
