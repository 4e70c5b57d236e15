// Reachability on real pages (issue #16): four targets per corpus page, picked by program —
// the headline, the 3rd paragraph of Readability's expected article, the last link of the
// page, the first form field — and reached the way an agent would: a snapshot first, then
// browser_find with words of the target. A target counts as reached when a result shows its
// words; calls and model-visible characters are counted per target.
//
// `node www-tests/reach.mjs [dir]` (or `./build.sh reach`) runs the whole corpus and prints
// the rates; reach.test.mjs runs the vendored subset under `./build.sh test`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { overCorpus, openCorpusPage } from './corpus.mjs';

const fold = (s) => String(s || '').replace(/\s+/g, ' ').trim();
/** Compared without spacing or case: a state may join inline runs differently than `innerText`. */
const squash = (s) => fold(s).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Text of Readability's expected article's paragraphs (tags stripped, entities decoded). */
function expectedParagraphs(dir, name) {
  const file = path.join(dir, name, 'expected.html');
  if (!fs.existsSync(file)) return [];
  const html = fs.readFileSync(file, 'utf8');
  const decode = (t) => t.replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&#x27;|&rsquo;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(+n)).replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16)));
  return [...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)].map((m) => fold(decode(m[1].replace(/<[^>]+>/g, '')))).filter((t) => t.length >= 40);
}

/** The page's own targets (read in the page, after load). */
async function pageTargets(page) {
  return page.evaluate(() => {
    const fold = (s) => String(s || '').replace(/\s+/g, ' ').trim();
    const shown = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
    const h1 = [...document.querySelectorAll('h1')].find((h) => shown(h) && fold(h.innerText).length >= 3);
    const links = [...document.querySelectorAll('a[href]')].filter((a) => shown(a) && fold(a.innerText).length >= 3);
    const field = [...document.querySelectorAll('input, textarea, select')].find((f) => shown(f) && !['hidden', 'submit', 'button', 'image', 'reset'].includes(f.type));
    const fieldName = field && fold(field.labels?.[0]?.innerText || field.getAttribute('aria-label') || field.placeholder || field.title || '');
    return { headline: h1 && fold(h1.innerText), lastLink: links.length ? fold(links[links.length - 1].innerText) : null, field: fieldName || null };
  });
}

/** Words of a target that identify it: its first 6 words (at most 60 chars). */
const wordsOf = (t) => fold(t).split(' ').slice(0, 6).join(' ').slice(0, 60);

/** Reaches one target: snapshot (already taken), then find by its words. */
async function reach(b, tabId, first, target) {
  const want = squash(wordsOf(target));
  if (!want) return null;
  let calls = 1;
  let chars = first.length;
  if (squash(first).includes(want)) return { calls, chars, first: true };
  // Find by a shorter phrase (inline markup may split it), then check the words are shown.
  const probe = fold(target).split(' ').slice(0, 3).join(' ');
  const f = await b.call('browser_find', { tabId, text: probe, maxResults: 5 });
  calls++;
  const text = JSON.stringify(f);
  chars += text.length;
  if (!f.error && f.matches && squash(f.state).includes(squash(probe))) return { calls, chars, first: false };
  return { calls, chars, first: false, missed: true };
}

/** All four targets of one page. */
export async function reachPage(b, dir, name, url) {
  const { page, tabId } = await openCorpusPage(b, url);
  const t = await pageTargets(page);
  const third = expectedParagraphs(dir, name)[2] || null;
  const snap = await b.call('browser_snapshot', { tabId });
  const first = JSON.stringify(snap);
  // How much of the article the first read shows: expected paragraphs whose opening words
  // are in it (a reader's priorities: the article's opening before repeated page chrome).
  const paragraphs = expectedParagraphs(dir, name);
  const squashed = squash(first);
  const shown = paragraphs.filter((p) => squashed.includes(squash(wordsOf(p)))).length;
  const out = { article: { paragraphs: paragraphs.length, inFirstRead: shown, firstFive: paragraphs.slice(0, 5).filter((p) => squashed.includes(squash(wordsOf(p)))).length, ofFirstFive: Math.min(5, paragraphs.length) } };
  for (const [k, target] of [['headline', t.headline], ['paragraph3', third], ['lastLink', t.lastLink], ['field', t.field]]) {
    if (target) out[k] = { target: wordsOf(target), ...(await reach(b, tabId, first, target)) };
  }
  await b.call('browser_tab_close', { tabId });
  await page.close().catch(() => {});
  return out;
}

/** Rates over many pages: targets, reached first read, reached in ≤ 3 calls and ≤ 30,000 chars. */
export function summarize(results) {
  const s = { targets: 0, firstRead: 0, reached: 0, calls: 0, maxChars: 0, misses: [], paragraphs: 0, paragraphsInFirstRead: 0, openings: 0, openingsInFirstRead: 0 };
  for (const [name, r] of Object.entries(results)) {
    if (r.article) {
      s.paragraphs += r.article.paragraphs;
      s.paragraphsInFirstRead += r.article.inFirstRead;
      s.openings += r.article.ofFirstFive;
      s.openingsInFirstRead += r.article.firstFive;
    }
    for (const [k, v] of Object.entries(r)) {
      if (!v || v.calls === undefined) continue;
      s.targets++;
      s.calls += v.calls;
      s.maxChars = Math.max(s.maxChars, v.chars);
      if (v.first) s.firstRead++;
      if (!v.missed && v.calls <= 3 && v.chars <= 30000) s.reached++;
      else s.misses.push(`${name} ${k}: ${v.target} (${v.calls} calls, ${v.chars} chars)`);
    }
  }
  s.meanCalls = +(s.calls / Math.max(1, s.targets)).toFixed(2);
  return s;
}

async function main() {
  const results = {};
  await overCorpus(async (b, dir, name, url) => {
    try { results[name] = await reachPage(b, dir, name, url); } catch (e) { console.log(`${name}: ERROR ${e.message}`); }
  });
  console.log(JSON.stringify(summarize(results), null, 1));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
