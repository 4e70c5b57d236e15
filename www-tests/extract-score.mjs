// browser_extract against Mozilla Readability's expected article (issue #17): token
// precision / recall / F1 of the text extract, read page by page at the default cap as a
// model would, and in the same run of `document.body.innerText` and of Readability itself on
// the live page, per corpus page. `./build.sh extract-score [DIR]`.
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

const readabilitySource = fs.readFileSync(new URL('./node_modules/@mozilla/readability/Readability.js', import.meta.url), 'utf8');

/**
 * The whole extract read as a model would at the default cap: page after page through
 * `nextOffset`. Checks each page's bounds on the way.
 */
export async function readPaged(b, tabId, format = 'text') {
  const parts = [];
  let first;
  for (let offset = 0; parts.length < 50;) {
    const r = await b.call('browser_extract', { tabId, format, ...(offset ? { offset } : {}) });
    if (r.error) return { error: r.error.code, parts, first: r };
    first ??= r;
    if (r.charCount > 12000) throw new Error(`a page of ${r.charCount} chars over the default 12,000`);
    parts.push(r.content);
    if (r.nextOffset === undefined) break;
    offset = r.nextOffset;
  }
  return { text: parts.join('\n\n'), calls: parts.length, first };
}

export async function scorePage(b, dir, name, url) {
  const { page, tabId } = await openCorpusPage(b, url);
  const want = tokens(expectedText(dir, name));
  const r = await readPaged(b, tabId);
  const inner = await page.evaluate(() => document.body?.innerText || '');
  // Readability itself, on the same live page (the main world, over CDP: no CSP applies).
  const direct = await page.evaluate(`${readabilitySource}\n;(() => { try { return new Readability(document.cloneNode(true)).parse()?.textContent || ''; } catch { return ''; } })()`);
  await b.call('browser_tab_close', { tabId });
  await page.close().catch(() => {});
  return {
    ours: f1(tokens(r.text), want), inner: f1(tokens(inner), want), readability: f1(tokens(direct), want),
    scope: r.first?.scope, calls: r.calls, empty: !r.text, innerEmpty: !inner.trim(), error: r.error,
  };
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
    .map((n) => `${n}: F1 ${rows[n].ours.f1.toFixed(2)} (p ${rows[n].ours.p.toFixed(2)}, r ${rows[n].ours.r.toFixed(2)}, scope ${rows[n].scope}, ${rows[n].calls} calls${rows[n].empty ? ', EMPTY' : ''}; innerText ${rows[n].inner.f1.toFixed(2)}; Readability ${rows[n].readability.f1.toFixed(2)})`);
  console.log(JSON.stringify({
    pages: names.length,
    ours: stats(names.map((n) => rows[n].ours.f1)),
    innerText: stats(names.map((n) => rows[n].inner.f1)),
    readability: stats(names.map((n) => rows[n].readability.f1)),
    emptyWhereInnerTextIsNot: names.filter((n) => rows[n].empty && !rows[n].innerEmpty),
    pagedCalls: { max: Math.max(...names.map((n) => rows[n].calls || 0)), multi: names.filter((n) => rows[n].calls > 1).length },
    worst,
  }, null, 1));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
