// ./build.sh bench (the loop, issue #37 item 6): an agent's session is one first read and then,
// after every action, a read of what changed. On an even spread of corpus pages (with the
// corpus's median page and the pages with 20+ frames) and the bench's own realistic pages,
// after each of five scripted changes — add a button, remove an item, rename a link, toggle a
// checkbox, type into a field — it times the AX read (`browser_accessibility_snapshot`, a
// revision: a diff after the change; `axPatched`: how many of them the page placed and the
// core patched) and `browser_snapshot`, each ÷ Playwright's AI snapshot
// of the same page in the same round. Each of the three reads follows a fresh change of the
// same kind, so each tool reads a page that has just changed (style and layout to redo).
// Writes bench/loop.json and prints the table. `node bench/loop.mjs`; LOOP_REPS (3),
// CORPUS_PAGES (12) as for bench.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { benchPages, dataGrid, docsArticle, median, settingsForm, scaled } from './pages.mjs';
import { CHANGES, setupChanges } from '../www-tests/changes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPS = Number(process.env.LOOP_REPS || 3);
const CORPUS_PAGES = Number(process.env.CORPUS_PAGES ?? 12);
const generated = { 'scaled-1k.html': scaled(1000), 'data-grid.html': dataGrid(), 'docs-article.html': docsArticle(), 'settings-form.html': settingsForm() };

const { pages: PAGES, medianPage, close: closePages } = await benchPages(generated, CORPUS_PAGES);
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } });
const rows = [];
let n = 0;
try {
  for (const { label, url, corpus: real } of PAGES) {
    const page = await b.context.newPage();
    await page.goto(url, { waitUntil: 'load' }).catch(() => {});
    await page.waitForTimeout(200);
    await page.evaluate(setupChanges);
    const tabId = await b.tabIdOf(page);
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    const sessionId = `loop-${tabId}`;
    const call = async (method, params) => {
      const t0 = performance.now();
      const r = await b.call(method, { tabId, ...params });
      if (r.error) throw new Error(`${label}: ${method} ${r.error.code} ${r.error.message}`);
      return [r, performance.now() - t0];
    };
    // The first reads: the revision the diffs go from, and the snapshot's last state (and
    // Playwright's, whose script is injected into the page on its first use).
    await page.ariaSnapshot({ mode: 'ai' });
    await call('browser_accessibility_snapshot', { sessionId });
    await call('browser_snapshot', {});
    const changes = {};
    for (const [kind, change] of Object.entries(CHANGES)) {
      const ax = [], snap = [], pw = [], pats = [], modes = new Set();
      let diffChars = 0;
      // (A page without what a change needs — no link — has no figure for it.)
      if ((await page.evaluate(change, ++n)) === false) continue;
      await call('browser_accessibility_snapshot', { sessionId });
      await call('browser_snapshot', {});
      for (let i = 0; i < REPS; i++) {
        // (A page with nothing left to remove ends the kind's rounds.)
        if ((await page.evaluate(change, ++n)) === false) break;
        const [r, axMs] = await call('browser_accessibility_snapshot', { sessionId, timing: true });
        ax.push(axMs);
        pats.push(r.timing?.patched ? 1 : 0);
        modes.add(r.mode);
        diffChars = r.charCount;
        if ((await page.evaluate(change, ++n)) === false) break;
        snap.push((await call('browser_snapshot', {}))[1]);
        if ((await page.evaluate(change, ++n)) === false) break;
        const t0 = performance.now();
        await page.ariaSnapshot({ mode: 'ai' });
        pw.push(performance.now() - t0);
      }
      if (!pw.length) continue;
      const p = median(pw);
      ax.length = snap.length = pats.length = pw.length; // complete rounds only
      const patched = pats.reduce((x, y) => x + y, 0);
      changes[kind] = { axMs: median(ax), snapshotMs: median(snap), playwrightMs: p, ax: median(ax) / p, snapshot: median(snap) / p, axModes: [...modes], axChars: diffChars, axPatched: `${patched}/${ax.length}` };
    }
    rows.push({ page: label, corpus: real, elements, changes });
    await page.close();
    console.error(`loop measured ${label}`);
  }
} finally {
  await b.close();
  await closePages();
}

const kinds = Object.keys(CHANGES);
// "There" (the issue's bounds): the corpus's median page, and the median over the corpus pages
// of at least 300 elements.
const large = rows.filter((r) => r.corpus && r.elements >= 300);
/** A page's ratios of one read (`what`) over the changes it had. */
const ratios = (r, what) => kinds.filter((k) => r.changes[k]).map((k) => r.changes[k][what]);
const summary = {};
for (const what of ['ax', 'snapshot']) {
  summary[what] = {
    medianPage: medianPage && rows.find((r) => r.page === medianPage) ? median(ratios(rows.find((r) => r.page === medianPage), what)) : null,
    corpusPagesOf300: large.length ? median(large.map((r) => median(ratios(r, what)))) : null,
    byChange: Object.fromEntries(kinds.map((k) => [k, median(large.filter((r) => r.changes[k]).map((r) => r.changes[k][what]))])),
  };
}
const fmt = (x) => (x == null ? '—' : x.toFixed(2));
console.log(`| page | elements | ${kinds.map((k) => `${k}: AX ÷ PW / snapshot ÷ PW`).join(' | ')} |`);
console.log(`| --- | ---: | ${kinds.map(() => '---:').join(' | ')} |`);
for (const r of rows) console.log(`| ${r.page}${r.corpus ? ' *' : ''} | ${r.elements} | ${kinds.map((k) => `${fmt(r.changes[k]?.ax)} / ${fmt(r.changes[k]?.snapshot)}`).join(' | ')} |`);
const patchedReads = rows.flatMap((r) => Object.values(r.changes)).reduce((a, c) => { const [p, n] = c.axPatched.split('/').map(Number); return [a[0] + p, a[1] + n]; }, [0, 0]);
console.log(JSON.stringify({ medianPage, corpusPagesOf300: large.length, axPatched: `${patchedReads[0]}/${patchedReads[1]}`, summary }));
fs.writeFileSync(path.join(here, 'loop.json'), `${JSON.stringify({ date: new Date().toISOString(), reps: REPS, medianPage, summary, rows }, null, 1)}\n`);
