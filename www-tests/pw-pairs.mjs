// Playwright's own aria-snapshot expectations as a fidelity check: every `setContent(HTML)`
// followed (with no action between) by an expected snapshot in Playwright's spec files is one
// case (not a test of a failing match, nor an expectation under `.not`); each expected line with a role gives a (role, name) pair and each state on it
// (`[checked]`, `[level=2]`, …) a state pair. The page is read through the extension with both
// sources, and a pair holds when a line of our state has that role and name (whitespace folded,
// NBSP as a space; each of our lines answers one pair), a state pair when that line carries the
// state. A pair is a named line: an unnamed one (a wrapper, a list's lines) counts only for
// its states, since our state may fold it.
// Prints the misses, then the table.
//
// The spec files are not in this repository. With the tool library's `fetch`
// (github:microsoft/playwright):
//   mkdir -p /tmp/pw && for f in page-aria-snapshot.spec.ts page-aria-snapshot-ai.spec.ts to-match-aria-snapshot.spec.ts; do
//     git -C /work/.mirror/microsoft+playwright/repo show HEAD:tests/page/$f > /tmp/pw/$f; done
//   ./build.sh pw-pairs /tmp/pw
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

// What between a page's content and its expectation changes the page: such an expectation is
// not the page's first read, and is left out.
const ACTION = /\.(click|evaluate|fill|goto|focus|press|hover|check|uncheck|type|selectOption|setViewportSize|emulateMedia|dispatchEvent|tap|setInputFiles|waitForTimeout)\(|keyboard\.|mouse\./;
const TEMPLATE = /`((?:[^`\\]|\\.)*)`/gs;

/** The spec's cases: [{ test, html, expected }]. */
export function casesOf(source, file) {
  const out = [];
  const blocks = source.split(/\n(?=(?:it|test)(?:\.\w+)?\()/);
  for (const block of blocks) {
    const test = block.match(/^(?:it|test)(?:\.\w+)?\(\s*['"`](.*?)['"`]/)?.[1];
    // A test of a failing match (its expectation is the wrong one on purpose) is no case.
    if (!test || /\.catch\(|toThrow|error\.message|e\.message/.test(block)) continue;
    const events = [];
    for (const m of block.matchAll(/setContent\(\s*`((?:[^`\\]|\\.)*)`/gs)) events.push({ at: m.index, html: m[1] });
    for (const m of block.matchAll(TEMPLATE)) {
      if (!/^\s*- /m.test(m[1]) || /setContent\(\s*$/.test(block.slice(0, m.index))) continue;
      const before = block.slice(Math.max(0, m.index - 40), m.index);
      if (/\.not\.\w*\(?\s*$/.test(before) || /not\.toContain\w*\(\s*$/.test(before)) continue;
      events.push({ at: m.index, expected: m[1] });
    }
    events.sort((a, b) => a.at - b.at);
    let last = null;
    for (const e of events) {
      if (e.html !== undefined) { last = e; continue; }
      if (!last || last.html.includes('${') || e.expected.includes('${')) continue;
      if (ACTION.test(block.slice(last.at, e.at))) continue;
      out.push({ file, test, html: unescape(last.html), expected: unescape(e.expected) });
    }
  }
  return out;
}
// A template literal's text as JavaScript reads it (`\n` is a line break in the page).
const ESCAPES = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
const unescape = (s) => s.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, e) =>
  /^[ux]/.test(e) && e.length > 1 ? String.fromCodePoint(parseInt(e.replace(/[ux{}]/g, ''), 16)) : ESCAPES[e] ?? e);

// Soft hyphens and zero-width spaces are left out (Chromium's names have none; Playwright's
// expectations keep them): "he\u00adllo" and "hello" are one word to a reader.
const fold = (s) => (s ?? '').replace(/[\u00ad\u200b]/g, '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
const IGNORED_ATTRS = /^(ref|active|cursor|box)(=|$)/;
/** One line of a snapshot (Playwright's or ours): { role, name (string or RegExp), attrs }. */
export function lineOf(text) {
  const m = text.match(/^- ([a-z]+)(?: ("(?:[^"\\]|\\.)*"|\/(?:[^/\\]|\\.)+\/))?(?: value="(?:[^"\\]|\\.)*")?((?: \[[^\]]*\])*)(?::|$)/);
  if (!m) return null;
  let name = '';
  if (m[2]?.startsWith('"')) name = JSON.parse(m[2]);
  else if (m[2]) name = new RegExp(m[2].slice(1, -1));
  const attrs = [...(m[3] ?? '').matchAll(/\[([^\]]*)\]/g)].map((a) => a[1]).filter((a) => !IGNORED_ATTRS.test(a));
  return { role: m[1], name, attrs };
}
const linesOf = (yaml) => yaml.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('- ')).map(lineOf).filter(Boolean);
// A pair is a named line; an unnamed one counts only for its states (its line may be folded).
const pairsOf = (yaml) => linesOf(yaml).filter((l) => l.role !== 'text' && (l.name || l.attrs.length));
const nameMatches = (want, got) => (want instanceof RegExp ? want.test(got) : fold(want) === fold(got));
// Our `[checked=mixed]`/`[expanded]` read as Playwright writes them; a `[disabled]` is one.
const stateOf = (a) => a.replace(/\s+/g, '').replace(/^(\w+)=true$/, '$1');

/** How many of `want`'s pairs and states `state` holds, and what it misses. */
export function score(want, state) {
  const ours = linesOf(state ?? '');
  const used = new Set();
  const r = { pairs: 0, pairsOk: 0, states: 0, statesOk: 0, missed: [] };
  // Named expectations take their lines first: an unnamed one may then take any line left.
  const expected = pairsOf(want);
  for (const w of [...expected.filter((l) => l.name !== ''), ...expected.filter((l) => l.name === '')]) {
    const named = w.name !== '';
    r.pairs += named;
    r.states += w.attrs.length;
    const free = (o, k) => !used.has(k) && o.role === w.role;
    let i = ours.findIndex((o, k) => free(o, k) && nameMatches(w.name, o.name));
    // An unnamed expectation (Playwright's AI mode leaves out a name its children repeat) is
    // that role's line, named or not.
    if (i < 0 && !named) i = ours.findIndex(free);
    if (i < 0) {
      r.missed.push(`${named ? 'pair' : 'state'} ${w.role} ${JSON.stringify(String(w.name))}${w.attrs.map((a) => ` [${a}]`).join('')}`);
      continue;
    }
    used.add(i);
    r.pairsOk += named;
    const have = new Set(ours[i].attrs.map(stateOf));
    for (const a of w.attrs) {
      if (have.has(stateOf(a))) r.statesOk++;
      else r.missed.push(`state ${w.role} ${JSON.stringify(String(w.name))} [${a}]`);
    }
  }
  return r;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir)) {
    console.error('usage: node www-tests/pw-pairs.mjs DIR (Playwright aria-snapshot spec files, *.spec.ts)');
    process.exit(2);
  }
  const cases = fs.readdirSync(dir).filter((f) => f.endsWith('.spec.ts')).sort()
    .flatMap((f) => casesOf(fs.readFileSync(path.join(dir, f), 'utf8'), f));
  const pages = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-pairs-'));
  cases.forEach((c, i) => fs.writeFileSync(path.join(pages, `case-${i}.html`), `<!doctype html><meta charset=utf-8><body>${c.html}</body>`));
  const server = await startServer(pages);
  const b = await launch({ offline: true, policy: { readUserTabs: 'all' } });
  const sources = ['dom', 'chromium_ax'];
  const total = Object.fromEntries(sources.map((s) => [s, { pairs: 0, pairsOk: 0, states: 0, statesOk: 0 }]));
  try {
    for (const [i, c] of cases.entries()) {
      const page = await b.context.newPage();
      await page.goto(server.url(`gen/case-${i}.html`), { waitUntil: 'load' });
      await page.waitForTimeout(50); // (slot cases build their trees in scripts)
      const tabId = await b.tabIdOf(page);
      for (const source of sources) {
        const r = await b.call('browser_snapshot', { tabId, source });
        const s = score(c.expected, r.error ? '' : r.snapshot.state);
        for (const k of Object.keys(total[source])) total[source][k] += s[k];
        if (s.missed.length) {
          console.log(`${c.file} "${c.test}" [${source}]: ${s.missed.join('; ')}\n  ours: ${(r.error?.code ?? r.snapshot.state).replace(/\n/g, '\n        ')}`);
        }
      }
      await page.close();
    }
  } finally {
    await b.close();
    await server.close();
    fs.rmSync(pages, { recursive: true, force: true });
  }
  console.log(`\n${cases.length} cases\n| | default (walk) | chromium_ax |\n|---|---|---|`);
  console.log(`| Playwright (role, name) pairs | ${sources.map((s) => `${total[s].pairsOk}/${total[s].pairs}`).join(' | ')} |`);
  console.log(`| Playwright state pairs | ${sources.map((s) => `${total[s].statesOk}/${total[s].states}`).join(' | ')} |`);
}
