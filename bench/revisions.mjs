// ./build.sh bench (part 3): AX repeat reads on every real page of the corpus
// (../shared/corpus/readability/, or PCC_CORPUS): a second read of the unchanged page, then
// a read after one added button, against what Playwright's AI snapshot costs for the same
// re-reads (it has no revisions: every read is the whole page). Writes
// bench/revisions.json and prints the summary. `node bench/revisions.mjs [DIR]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { corpusServer, pagesOf, fullDir } from '../www-tests/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2] || fullDir;
if (!fs.existsSync(dir)) {
  console.log(`no corpus at ${dir}: revisions skipped (set PCC_CORPUS)`);
  process.exit(0);
}
const server = await corpusServer(dir);
const b = await launch({ offline: true });
const rows = [];
try {
  for (const name of pagesOf(dir)) {
    const [page, opened] = await Promise.all([b.context.waitForEvent('page'), b.call('browser_tab_open', { url: server.url(name) })]);
    const tabId = opened.tab.id;
    await page.waitForLoadState('load').catch(() => {});
    await page.waitForTimeout(150);
    const sessionId = `bench-${tabId}`;
    const timed = async (f) => { const t0 = performance.now(); const r = await f(); return [r, performance.now() - t0]; };
    const ax = () => b.call('browser_accessibility_snapshot', { tabId, sessionId, timing: true });
    const [first, firstMs] = await timed(ax);
    const [second, secondMs] = await timed(ax);
    const [pwText, pwMs] = await timed(() => page.ariaSnapshot({ mode: 'ai' }));
    const pw = pwText.length;
    await page.evaluate(() => { const x = document.createElement('button'); x.textContent = 'Added by the bench'; document.body.appendChild(x); });
    const [third, changeMs] = await timed(ax);
    const pwAfter = (await page.ariaSnapshot({ mode: 'ai' })).length;
    await b.call('browser_dispose_session', { sessionId });
    await b.call('browser_tab_close', { tabId });
    rows.push({ page: name, firstChars: first.charCount, second: second.mode, secondReason: second.fullReason, secondChars: second.charCount,
      change: third.mode, changeReason: third.fullReason, changeChars: third.charCount, playwrightChars: pw, playwrightAfterChars: pwAfter,
      firstMs, secondMs, secondCaptured: second.timing?.captureMs > 0, changeMs, playwrightMs: pwMs });
  }
} finally {
  await b.close();
  await server.close();
}
const n = rows.length;
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const summary = {
  pages: n,
  unchangedSecondReads: rows.filter((r) => r.second === 'unchanged').length,
  diffsAfterOneButton: rows.filter((r) => r.change === 'diff').length,
  diffsWithin200Chars: rows.filter((r) => r.change === 'diff' && r.changeChars <= 200).length,
  fullWithoutReason: rows.filter((r) => (r.second === 'full' && !r.secondReason) || (r.change === 'full' && !r.changeReason)).length,
  medianDiffChars: median(rows.filter((r) => r.change === 'diff').map((r) => r.changeChars)),
  // Time ÷ one Playwright AI snapshot of the same page, same run (median over the pages).
  firstReadOverPw: median(rows.map((r) => r.firstMs / r.playwrightMs)),
  unchangedRepeatOverPw: median(rows.map((r) => r.secondMs / r.playwrightMs)),
  oneChangeRepeatOverPw: median(rows.map((r) => r.changeMs / r.playwrightMs)),
  unchangedWithoutCapture: rows.filter((r) => r.second === 'unchanged' && !r.secondCaptured).length,
  // Three reads of a page (first, unchanged, one change): our state chars ÷ Playwright's.
  threeReadsRatio: rows.reduce((s, r) => s + r.firstChars + r.secondChars + r.changeChars, 0) / rows.reduce((s, r) => s + 2 * r.playwrightChars + r.playwrightAfterChars, 0),
};
for (const r of rows) if (r.second !== 'unchanged' || r.change !== 'diff') console.log(`${r.page}: ${JSON.stringify(r)}`);
console.log(JSON.stringify(summary));
fs.writeFileSync(path.join(here, 'revisions.json'), `${JSON.stringify({ date: new Date().toISOString(), summary, rows }, null, 1)}\n`);
