// Corpus-wide checks of the state on real captured pages (Mozilla Readability's test pages,
// Apache-2.0): each page is served offline, opened in an agent tab of headless Chromium
// with the extension, read through `browser_snapshot` (AX and DOM sources), and checked
// against the page itself. The fast subset in www-tests/corpus/ runs in `./build.sh test`
// (corpus.test.mjs); `./build.sh corpus` runs every page of ../shared/corpus/readability/.
//
//   node www-tests/corpus.mjs [DIR]      report + exit 1 on any violation
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nextPage } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const subsetDir = path.join(here, 'corpus');
export const fullDir = process.env.PCC_CORPUS || path.join(here, '..', '..', 'shared', 'corpus', 'readability');

/** The pages of a corpus directory (those with a source.html). */
export function pagesOf(dir) {
  return fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'source.html'))).sort();
}

/** Serves `<dir>/<page>/source.html` at `/<page>/`; every other path is a 404. */
export async function corpusServer(dir) {
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname).split('/').filter(Boolean)[0] || '';
    const file = path.join(dir, name, 'source.html');
    if (!/^[\w.-]+$/.test(name) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: (p) => `http://127.0.0.1:${port}/${p}/`, close: () => new Promise((r) => server.close(r)) };
}

// The roles a state may show: WAI-ARIA 1.2 (and `mark`), plus our `text`, `iframe`,
// `clickable` and `note` lines. Anything else is a leaked internal name.
const ARIA = new Set(`alert alertdialog application article banner blockquote button caption cell checkbox code
  columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed
  figure form generic grid gridcell group heading img insertion link list listbox listitem log main mark marquee
  math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph
  presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator
  slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer
  toolbar tooltip tree treegrid treeitem text iframe clickable`.split(/\s+/).filter(Boolean));

const fold = (s) => s.replace(/\s+/g, ' ').trim();

/** The role token and the quoted name / inline text of one state line. */
function parseLine(line) {
  const m = line.match(/^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/);
  if (!m) return null;
  const [, role, name, rest] = m;
  const inline = rest.match(/^(?: \[[^\]]*\])*: (.*)$/)?.[1] ?? null;
  const text = role === 'text' ? line.replace(/^\s*- text: /, '') : inline;
  return { role, name: name?.replace(/\\"/g, '"'), text, ref: /\[ref=/.test(line) };
}

/** Page facts the checks compare against (read in the page, after load). */
async function pageFacts(page) {
  return page.evaluate(() => {
    const fold = (s) => (s || '').replace(/\s+/g, ' ').trim();
    const headings = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')];
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && cs.visibility === 'visible' && Number(cs.opacity) > 0;
    };
    // Clickable elements a user can reach in the viewport: an onclick handler or a pointer
    // cursor that starts there, visible, on top at their centre, with a text to find them by.
    const clickables = [];
    for (const el of document.body ? document.body.querySelectorAll('*') : []) {
      const cs = getComputedStyle(el);
      const starts = el.hasAttribute('onclick') || (cs.cursor === 'pointer' && (!el.parentElement || getComputedStyle(el.parentElement).cursor !== 'pointer'));
      if (!starts || !visible(el) || el.closest('[aria-hidden=true],[inert]')) continue;
      const r = el.getBoundingClientRect();
      const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
      if (cx < 0 || cy < 0 || cx >= innerWidth || cy >= innerHeight) continue;
      const top = document.elementFromPoint(cx, cy);
      if (!top || !(el === top || el.contains(top))) continue;
      if (el.matches('label') || el.closest('label')) continue; // its control has the ref
      // Any of the texts a name may come from (the check accepts a ref line with one).
      const texts = [el.innerText, el.getAttribute('aria-label'), el.querySelector('img[alt]')?.alt, el.querySelector('img[title]')?.title, el.getAttribute('title')].map(fold).filter(Boolean).map((t) => t.slice(0, 25));
      if (texts.length) clickables.push(texts);
    }
    const ids = [...document.querySelectorAll('body [id]')].map((e) => e.id).filter((id) => /^[A-Za-z][\w-]*$/.test(id));
    return {
      text: fold(document.body?.innerText),
      emptyHeadings: headings.filter((h) => !fold(h.innerText || h.textContent) && !h.querySelector('img[alt]:not([alt=""])')).length,
      clickables,
      // A spread of ids for the selector check (first, middle, last few).
      ids: [...new Set([...ids.slice(0, 3), ...ids.slice(Math.floor(ids.length / 2), Math.floor(ids.length / 2) + 3), ...ids.slice(-3)])],
    };
  });
}

/** Checks one state against the page; returns counts and violations. */
export function checkState(state, facts) {
  const out = { lines: 0, namelessHeadings: 0, internalRoles: [], splitRuns: [], extraTexts: 0, cheapNotes: 0, notes: 0 };
  const nospace = facts.text.replace(/ /g, '');
  for (const line of state.split('\n')) {
    const p = parseLine(line);
    if (!p) continue;
    out.lines++;
    if (p.role === 'heading' && !p.name) out.namelessHeadings++;
    if (!ARIA.has(p.role) && p.role !== 'note') out.internalRoles.push(line.trim().slice(0, 80));
    if (p.role === 'note') {
      out.notes++;
      // A note on one elided item costs about what the item would.
      if (/note: 1 more [a-z ]+( in |$)/.test(line) && !/\(\d+ nodes\)/.test(line)) out.cheapNotes++;
    }
    if (p.text && (p.role === 'text' || p.role === 'paragraph')) {
      const t = fold(p.text.replace(/…$/, ''));
      if (t.length < 4 || facts.text.includes(t)) continue;
      // The same characters with other spacing: a run split (or joined) wrongly.
      if (nospace.includes(t.replace(/ /g, ''))) out.splitRuns.push(t.slice(0, 100));
      else out.extraTexts++;
    }
  }
  return out;
}

/** Opens a corpus page in an agent tab and lets it settle: `{page, tabId}`. */
export async function openCorpusPage(b, url) {
  const [page, opened] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url })]);
  if (opened.error) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  await page.waitForLoadState('load').catch(() => {});
  await page.waitForTimeout(150);
  return { page, tabId: opened.tab.id };
}

/** A state's lines as compared across sources: refs, handles, notes and page lines aside. */
const comparable = (state) => state.split('\n').map((l) => l.replace(/ \[(ref|more)=\w+\]/g, '').trim())
  .filter((l) => l && !l.startsWith('- note:') && !/^page \d/.test(l)).slice(0, AGREEMENT_LINES);
const AGREEMENT_LINES = 150;

/** Lines two lists share in order (the longest common subsequence), ×2 ÷ both lengths. */
export function agreementOf(a, b) {
  const n = b.length;
  let row = new Uint16Array(n + 1);
  for (let i = a.length - 1; i >= 0; i--) {
    const next = new Uint16Array(n + 1);
    for (let j = n - 1; j >= 0; j--) next[j] = a[i] === b[j] ? row[j + 1] + 1 : Math.max(row[j], next[j + 1]);
    row = next;
  }
  return a.length + n ? (2 * row[0]) / (a.length + n) : 1;
}

/**
 * How far the DOM source says what Chromium's AX source says on this page: the first
 * AGREEMENT_LINES lines of each in document order (page 1), role, name and states per line.
 * The DOM walk is the fast source (issue #20); this holds it to Chromium on real pages.
 */
export async function sourceAgreement(b, tabId) {
  const ax = await b.call('browser_snapshot', { tabId, page: 1, source: 'chromium_ax' });
  const dom = await b.call('browser_snapshot', { tabId, page: 1, source: 'dom' });
  if (ax.error || dom.error) throw new Error(`page 1: ${JSON.stringify(ax.error || dom.error)}`);
  return agreementOf(comparable(ax.snapshot.state), comparable(dom.snapshot.state));
}

/** Reads one corpus page through the extension and checks it. */
export async function checkPage(b, url, { selectors = true } = {}) {
  const { page, tabId } = await openCorpusPage(b, url);
  // PCC_CORPUS_TYPED=VALUE: a password field holding VALUE is added to each page first (by-value
  // redaction must not change a figure: a short secret like "2016" is only ever redacted where
  // it stands for its field).
  if (process.env.PCC_CORPUS_TYPED) {
    await page.evaluate((v) => { const f = document.createElement('input'); f.type = 'password'; f.value = v; document.body.appendChild(f); }, process.env.PCC_CORPUS_TYPED);
  }
  const facts = await pageFacts(page);
  const result = { url, sources: {}, missingRefs: [], widenedSelectors: [] };
  for (const source of ['chromium_ax', 'dom']) {
    const r = await b.call('browser_snapshot', { tabId, source });
    if (r.error) throw new Error(`${source} ${url}: ${r.error.code} ${r.error.message}`);
    const c = checkState(r.snapshot.state, facts);
    c.emptyHeadingsInPage = facts.emptyHeadings;
    c.chars = r.snapshot.charCount;
    result.sources[source] = c;
    // Every clickable a user can reach in the viewport carries a ref (found by its text, on
    // the ref's line or its parent's: a heading names the link it holds), on both sources.
    const lines = r.snapshot.state.split('\n');
    const refLines = lines.map((l, i) => (/\[ref=/.test(l) ? fold(`${lines[i - 1] || ''} ${l}`) : '')).join('\n');
    for (const texts of facts.clickables) if (!texts.some((t) => refLines.includes(t))) result.missingRefs.push(`${source}: ${texts[0]}`);
  }
  result.agreement = await sourceAgreement(b, tabId);
  // Revisions on a real page: a second AX read of the unchanged page (answered by the change
  // tracker without a capture), then one added button (seen: captured, a diff).
  const session = `corpus-${tabId}`;
  await b.call('browser_accessibility_snapshot', { tabId, sessionId: session });
  const again = await b.call('browser_accessibility_snapshot', { tabId, sessionId: session, timing: true });
  await page.evaluate(() => { const x = document.createElement('button'); x.textContent = 'Added by the corpus check'; document.body.appendChild(x); });
  const changed = await b.call('browser_accessibility_snapshot', { tabId, sessionId: session, timing: true });
  result.revisions = { second: again.mode, secondReason: again.fullReason, secondCaptured: again.timing?.captureMs > 0,
    change: changed.mode, changeChars: changed.charCount, changeReason: changed.fullReason, changeCaptured: changed.timing?.captureMs > 0 };
  await b.call('browser_dispose_session', { sessionId: session });
  result.patches = await patchChecks(b, page, tabId);
  if (selectors) {
    const full = (await b.call('browser_snapshot', { tabId })).snapshot.state;
    for (const id of facts.ids) {
      const r = await b.call('browser_snapshot', { tabId, selector: `#${id}` });
      if (r.error) {
        if (r.error.code !== 'BROWSER_SELECTOR_NOT_FOUND') result.widenedSelectors.push(`#${id}: ${r.error.code}`);
        continue;
      }
      // Inside as rendered (innerText, without the math annotations a page hides) or as markup.
      const inside = await page.evaluate((id) => { const e = document.getElementById(id); return `${e?.innerText || ''}${e?.textContent || ''}`.replace(/\s+/g, ''); }, id);
      // A scoped answer holds only what is inside the element: its page text lines must be
      // (by their first characters, titles in parentheses aside: a line may carry a title
      // beside its text, or leave out math the page hides from readers).
      const outside = r.snapshot.state.split('\n').map(parseLine).filter((p) => p && p.role === 'text' && p.text)
        .map((p) => [p.text, p.text.replace(/\([^)]*\)/g, '')].map((t) => t.replace(/\s+/g, '').replace(/^[^\p{L}\p{N}]+/u, '').slice(0, 8)))
        .filter((ts) => ts[0].length >= 6 && !ts.some((t) => inside.includes(t))).map((ts) => ts[0]);
      if (outside.length) result.widenedSelectors.push(`#${id}: ${r.snapshot.state === full ? '(the whole page) ' : ''}${outside[0].slice(0, 40)}`);
    }
  }
  await b.call('browser_tab_close', { tabId });
  return result;
}

/** A state with its ref labels renamed in order of appearance (two sessions' labels differ). */
const relabeled = (t) => {
  const seen = new Map();
  return (t || '').replace(/\ba\d+\b/g, (x) => (seen.has(x) || seen.set(x, `r${seen.size + 1}`), seen.get(x)));
};

/**
 * A patched AX read against a whole one after `change` (run in the page with `arg`; false:
 * nothing to change): sessions A and B read the page, it changes, A reads (patched when the
 * page placed the change), B reads with the whole tree fetched (`pcc.wholeAx`); mode, state
 * and refs must be the same (issue #37: "every patched revision equals a fresh full read
 * followed by a diff"). A comparison counts only when the page was quiet meanwhile (A's next
 * read is `unchanged`): a page's own timers (a video player's state) change it between two
 * reads. `{patched, refusal, quiet, same}` (the two states too when not the same), or null.
 */
export async function patchCheck(b, page, tabId, change, arg) {
  const read = (sessionId) => b.call('browser_accessibility_snapshot', { tabId, sessionId, timing: true });
  await read('A');
  await read('B');
  if ((await page.evaluate(change, arg)) === false) return null;
  const a = await read('A');
  const refusal = a.timing?.patched ? null : await b.worker.evaluate(() => globalThis.pcc.axPatchRefusal());
  await b.worker.evaluate(() => { globalThis.pcc.wholeAx = true; });
  const w = await read('B');
  await b.worker.evaluate(() => { delete globalThis.pcc.wholeAx; });
  const quiet = (await read('A')).mode === 'unchanged';
  const same = a.mode === w.mode && relabeled(a.state) === relabeled(w.state) && a.refCount === w.refCount;
  return { patched: !!a.timing?.patched, refusal, quiet, same, ...(same ? {} : { patchedState: a.state?.slice(0, 300), wholeState: w.state?.slice(0, 300) }) };
}

/** patchCheck after each of the loop's five changes (www-tests/changes.mjs): `[{kind, …}]`. */
export async function patchChecks(b, page, tabId) {
  const { CHANGES, setupChanges } = await import('./changes.mjs');
  await page.evaluate(setupChanges);
  const out = [];
  let n = 0;
  for (const [kind, change] of Object.entries(CHANGES)) {
    const r = await patchCheck(b, page, tabId, change, ++n);
    if (r) out.push({ kind, ...r });
  }
  for (const s of ['A', 'B']) await b.call('browser_dispose_session', { sessionId: s });
  return out;
}

/** Below this, a page's DOM-source state is a violation (75 pages on 2026-12-04: 0.83–1.0). */
const MIN_AGREEMENT = 0.8;

/** The violations of one page result (the corpus contract). */
export function violations(r) {
  const v = [];
  for (const [source, c] of Object.entries(r.sources)) {
    if (c.namelessHeadings > c.emptyHeadingsInPage) v.push(`${source}: ${c.namelessHeadings} nameless headings (${c.emptyHeadingsInPage} empty in the page)`);
    if (c.internalRoles.length) v.push(`${source}: internal roles ${c.internalRoles.slice(0, 3).join(' | ')}`);
    if (c.splitRuns.length) v.push(`${source}: runs with other spacing than the page: ${c.splitRuns.slice(0, 3).join(' | ')}`);
  }
  if (r.agreement < MIN_AGREEMENT) v.push(`the DOM source agrees with the AX source on ${(r.agreement * 100).toFixed(1)}% of lines (at least ${MIN_AGREEMENT * 100}%)`);
  if (r.missingRefs.length) v.push(`clickables without a ref: ${r.missingRefs.slice(0, 5).join(' | ')}`);
  if (r.widenedSelectors.length) v.push(`selectors answered outside their element: ${r.widenedSelectors.slice(0, 3).join(' | ')}`);
  for (const p of r.patches ?? []) {
    if (p.quiet && !p.same) v.push(`AX read after "${p.kind}" (${p.patched ? 'patched' : 'whole'}) differs from a whole read: ${JSON.stringify(p.patchedState)} vs ${JSON.stringify(p.wholeState)}`);
  }
  const rev = r.revisions;
  if (rev) {
    if (rev.second !== 'unchanged' || rev.secondCaptured) v.push(`second read of the unchanged page: ${rev.second}${rev.secondCaptured ? ', captured' : ''}`);
    if (rev.change !== 'diff' || !rev.changeCaptured) v.push(`read after one added button: ${rev.change}${rev.changeCaptured ? '' : ' without a capture'}`);
  }
  return v;
}

/**
 * Runs `visit(b, dir, name, url)` over every page of the corpus directory given on the
 * command line (else `$PCC_CORPUS`, else the shared corpus), in one offline browser.
 */
export async function overCorpus(visit) {
  const { launch } = await import('./harness.mjs');
  const dir = process.argv[2] || fullDir;
  if (!fs.existsSync(dir)) { console.error(`no corpus at ${dir} (set PCC_CORPUS)`); process.exit(2); }
  const server = await corpusServer(dir);
  const b = await launch({ offline: true });
  try {
    for (const name of pagesOf(dir)) await visit(b, dir, name, server.url(name));
  } finally {
    await b.close();
    await server.close();
  }
}

async function main() {
  const totals = { pages: 0, bad: 0 };
  const sum = { chromium_ax: {}, dom: {} };
  await overCorpus(async (b, dir, name, url) => {
    let r;
    try { r = await checkPage(b, url); } catch (e) { console.log(`${name}: ERROR ${e.message}`); totals.bad++; return; }
    totals.pages++;
    for (const [s, c] of Object.entries(r.sources)) {
      for (const k of ['lines', 'namelessHeadings', 'notes', 'cheapNotes', 'extraTexts', 'chars']) sum[s][k] = (sum[s][k] || 0) + c[k];
      for (const k of ['internalRoles', 'splitRuns']) sum[s][k] = (sum[s][k] || 0) + c[k].length;
    }
    sum.missingRefs = (sum.missingRefs || 0) + r.missingRefs.length;
    (sum.agreements ??= []).push(r.agreement);
    const rv = r.revisions;
    sum.unchangedSecondReads = (sum.unchangedSecondReads || 0) + (rv.second === 'unchanged' ? 1 : 0);
    sum.unchangedWithoutCapture = (sum.unchangedWithoutCapture || 0) + (rv.second === 'unchanged' && !rv.secondCaptured ? 1 : 0);
    sum.smallDiffs = (sum.smallDiffs || 0) + (rv.change === 'diff' && rv.changeChars <= 200 ? 1 : 0);
    if (rv.second !== 'unchanged' || rv.change !== 'diff') console.log(`${name}: revisions ${JSON.stringify(rv)}`);
    sum.widened = (sum.widened || 0) + r.widenedSelectors.length;
    const ps = (sum.patches ??= { changes: 0, patched: 0, quiet: 0, same: 0, refusals: {} });
    for (const p of r.patches) {
      ps.changes++;
      ps.patched += p.patched ? 1 : 0;
      ps.quiet += p.quiet ? 1 : 0;
      ps.same += p.quiet && p.same ? 1 : 0;
      if (p.refusal) ps.refusals[p.refusal] = (ps.refusals[p.refusal] || 0) + 1;
    }
    const v = violations(r);
    if (v.length) { totals.bad++; console.log(`${name}:\n  ${v.join('\n  ')}`); }
  });
  const ag = (sum.agreements ?? []).sort((x, y) => x - y);
  sum.agreements = { mean: ag.reduce((x, y) => x + y, 0) / (ag.length || 1), median: ag[ag.length >> 1], min: ag[0] };
  console.log(JSON.stringify({ ...totals, ...sum }, null, 1));
  if (totals.bad) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
