// browser_extract against Mozilla Readability's expected article (issue #17): token
// precision / recall / F1 of the text extract (all of it, maxChars 100,000) and, in the same
// run, of `document.body.innerText`, per corpus page. `./build.sh extract-score [DIR]`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { overCorpus, openCorpusPage } from './corpus.mjs';

/** Lower-cased word tokens (letters and digits of any script). */
export const tokens = (s) => String(s || '').toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];

/** Token-multiset F1 of `got` against `want`. */
export function f1(got, want) {
  if (!got.length || !want.length) return { p: 0, r: 0, f1: got.length === want.length ? 1 : 0 };
  const bag = new Map();
  for (const t of want) bag.set(t, (bag.get(t) || 0) + 1);
  let hit = 0;
  for (const t of got) {
    const n = bag.get(t);
    if (n) { hit++; bag.set(t, n - 1); }
  }
  const p = hit / got.length, r = hit / want.length;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

const expectedText = (dir, name) => fs.readFileSync(path.join(dir, name, 'expected.html'), 'utf8')
  .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ')
  .replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(+n));

export async function scorePage(b, dir, name, url) {
  const { page, tabId } = await openCorpusPage(b, url);
  const want = tokens(expectedText(dir, name));
  const r = await b.call('browser_extract', { tabId, format: 'text', maxChars: 100000 });
  const inner = await page.evaluate(() => document.body?.innerText || '');
  await b.call('browser_tab_close', { tabId });
  await page.close().catch(() => {});
  return { ours: f1(tokens(r.content), want), inner: f1(tokens(inner), want), scope: r.scope, empty: !r.content, error: r.error?.code };
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(3), median: +s[Math.floor(s.length / 2)].toFixed(3), under05: s.filter((x) => x < 0.5).length };
}

async function main() {
  const rows = {};
  await overCorpus(async (b, dir, name, url) => {
    try { rows[name] = await scorePage(b, dir, name, url); } catch (e) { console.log(`${name}: ERROR ${e.message}`); }
  });
  const names = Object.keys(rows);
  const worst = names.sort((a, b) => rows[a].ours.f1 - rows[b].ours.f1).slice(0, 8)
    .map((n) => `${n}: F1 ${rows[n].ours.f1.toFixed(2)} (p ${rows[n].ours.p.toFixed(2)}, r ${rows[n].ours.r.toFixed(2)}, scope ${rows[n].scope}${rows[n].empty ? ', EMPTY' : ''}; innerText ${rows[n].inner.f1.toFixed(2)})`);
  console.log(JSON.stringify({
    pages: names.length,
    ours: stats(names.map((n) => rows[n].ours.f1)),
    innerText: stats(names.map((n) => rows[n].inner.f1)),
    empty: names.filter((n) => rows[n].empty).length,
    worst,
  }, null, 1));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
