// Names and roles against WPT's own expectations, three ways: every element of the given
// directories' test files (recursively; `*tentative*` files left out) that names an expected
// accessible name (`data-expectedlabel`, html-aam's `data-expectedname`) or an expected role
// (`data-testname` with `data-expectedrole`, class `ex`; class `ex-generic`: generic) is read
// through the extension with a selector scope on it, with the DOM walk (the default source)
// and with `chromium_ax`, and Chromium's own tree is asked for its name and role
// (Accessibility.getPartialAXTree). Prints each case where the default source misses (with
// `--all`, where any source does), then the table the README carries.
//
// A name is the one on the element's line, or, for an element the state shows as text, the one
// it says in parentheses after that text. A role case "has a line" when the state shows the element on a line of its own (not its
// content's text); a generic or `none` role is one the state does not show, so such a case
// holds when there is no line. The tally:
//   names exact, NBSP as a space   the name on the element's line (a state folds NBSP on purpose)
//   roles exact where a line exists the share of role cases with a line whose role is right
//   … of the cases Chromium's tree gets right  the same, where Chromium's own role is WPT's
//   role cases with no line of their own  an expected role (not generic) the state does not show
// With `--pw DIR`, Playwright's aria-snapshot expectations follow (www-tests/pw-pairs.mjs).
//
// The suites are not in this repository. Playwright's repository carries WPT's accname name
// files; with the tool library's `fetch` (github:microsoft/playwright):
//   mkdir -p /tmp/wpt && git -C /work/.mirror/microsoft+playwright/repo archive HEAD tests/assets/wpt | tar -x -C /tmp/wpt
// The html-aam, svg-aam and wai-aria files (web-platform-tests/wpt: `html-aam/roles.html`,
// `roles-contextual.html`, `names.html`, `svg-aam/role/roles.html`, `svg-aam/name/*.html`;
// `wai-aria/role/roles.html` builds its `<div role=X>x</div>` cases in a script: write them out
// as static elements with the same `data-testname`/`data-expectedrole`; the other
// `wai-aria/role/*.html` — contextual, fallback, invalid, none conflict resolution, and the
// region, synonym and list files, whose scripts name elements by id: the same) come one by one
// through the tool library's `read_file`. Then:
//   ./build.sh conformance /tmp/wpt/tests/assets/wpt/accname/name /tmp/aam --pw /tmp/pw
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

const argv = process.argv.slice(2);
const all = argv.includes('--all');
const pwAt = argv.indexOf('--pw');
const pwDir = pwAt >= 0 ? argv[pwAt + 1] : null;
const dirs = argv.filter((a, i) => !a.startsWith('--') && !(pwAt >= 0 && i === pwAt + 1));
if (!dirs.length || dirs.some((d) => !fs.existsSync(d))) {
  console.error('usage: node www-tests/conformance.mjs DIR... [--all] [--pw PLAYWRIGHT_SPEC_DIR] (directories of WPT test files)');
  process.exit(2);
}

/** [{ root, rel }] of every non-tentative HTML file under the directories. */
const files = [];
const collect = (root, rel = '') => {
  for (const f of fs.readdirSync(path.join(root, rel)).sort()) {
    const r = path.join(rel, f);
    if (fs.statSync(path.join(root, r)).isDirectory()) collect(root, r);
    else if (f.endsWith('.html') && !f.includes('tentative')) files.push({ root, rel: r });
  }
};
for (const d of dirs) collect(d);

const fold = (s) => (s ?? '').replace(/[ \t\n\r\f]+/g, ' ').trim();
const nbsp = (s) => fold((s ?? '').replace(/\u00a0/g, ' '));
// ARIA 1.3's `image` is `img` in the state (as in Playwright's snapshots).
const SAME = { img: 'image' };
const NONE = new Set(['', 'none', 'generic', 'presentation']);
/** The element's own line: its role ('' when the state shows only its content) and name. */
function lineOf(state) {
  const line = (state || '').split('\n').find((l) => /^\s*- /.test(l));
  const m = line?.match(/^\s*- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?(:)?/);
  const name = m?.[2] !== undefined ? JSON.parse(`"${m[2]}"`) : '';
  // An element with no line of its own whose name differs from its text: the state says the
  // name in parentheses after the text (`- text: WPT (Web Platform Tests)`).
  const said = line?.match(/^\s*- text: .* \(([^()]+)\)$/);
  if (!m || m[1] === 'text') return { role: '', name: said ? said[1] : name, line: line ?? '(empty)' };
  return { role: SAME[m[1]] ?? m[1], name, line };
}

const SOURCES = ['dom', 'chromium_ax', 'chromium'];
const zero = () => Object.fromEntries(SOURCES.map((s) => [s, 0]));
const tally = { names: 0, exact: zero(), spaced: zero(), roles: 0, lined: zero(), linedOk: zero(), unlined: zero(), roleOk: zero(), asChromium: zero(), linedWhereChromium: zero(), linedOkWhereChromium: zero() };
const misses = [];
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } }); // it reads the pages it opens itself
try {
  for (const { root, rel } of files) {
    const server = await startServer(root);
    const page = await b.context.newPage();
    try {
      await page.goto(server.url(`gen/${rel}`), { waitUntil: 'load' });
      await page.waitForTimeout(100); // (shadow-DOM cases build their trees in scripts)
      const tabId = await b.tabIdOf(page);
      const cdp = await b.context.newCDPSession(page);
      // Each case is marked for a selector (a data attribute names nothing).
      const cases = await page.evaluate(() => {
        const out = [];
        const all = document.querySelectorAll('[data-expectedlabel], [data-expectedname], [data-testname].ex[data-expectedrole], [data-testname].ex-generic');
        all.forEach((el, i) => {
          el.setAttribute('data-pcc-case', String(i));
          const about = el.dataset.testname || el.outerHTML.slice(0, 80);
          const name = el.dataset.expectedlabel ?? el.dataset.expectedname;
          if (name !== undefined) out.push({ i, kind: 'name', want: name, about });
          if (el.matches('.ex[data-expectedrole], .ex-generic')) {
            out.push({ i, kind: 'role', want: el.classList.contains('ex-generic') ? 'generic' : el.dataset.expectedrole, about });
          }
        });
        return out;
      });
      process.stderr.write(`${rel}: ${cases.length} cases\n`);
      const { root: doc } = await cdp.send('DOM.getDocument', { depth: 0 });
      const seen = new Map();
      for (const c of cases) {
        if (!seen.has(c.i)) {
          const selector = `[data-pcc-case="${c.i}"]`;
          const got = {};
          for (const source of ['dom', 'chromium_ax']) {
            const r = await b.call('browser_snapshot', { tabId, selector, source });
            // An element the state leaves out (hidden, or nothing to show) has no line.
            const empty = r.error && /shows nothing/.test(r.error.message);
            got[source] = r.error ? { role: empty ? '' : r.error.code, name: '', line: r.error.message } : lineOf(r.snapshot.state);
          }
          const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: doc.nodeId, selector });
          const { nodes } = nodeId ? await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false }) : { nodes: [] };
          // (Chromium's internal names — `StaticText`, `Abbr`, `sectionfooter` — are no role a
          // line shows: none.)
          const raw = nodes[0]?.ignored ? '' : nodes[0]?.role?.value ?? '';
          const role = /^[a-z]/.test(raw) && !/^section(header|footer)$/.test(raw) ? raw : '';
          got.chromium = { role: SAME[role] ?? role, name: nodes[0]?.name?.value ?? '', line: `(Chromium's tree) ${raw}` };
          seen.set(c.i, got);
        }
        const got = seen.get(c.i);
        let missed;
        if (c.kind === 'name') {
          tally.names++;
          for (const s of SOURCES) {
            tally.exact[s] += fold(got[s].name) === fold(c.want);
            tally.spaced[s] += nbsp(got[s].name) === nbsp(c.want);
          }
          missed = (s) => nbsp(got[s].name) !== nbsp(c.want);
        } else {
          tally.roles++;
          const ok = (g) => (NONE.has(c.want) ? NONE.has(g.role) : g.role === c.want);
          for (const s of SOURCES) {
            const lined = !NONE.has(got[s].role);
            tally.lined[s] += lined;
            tally.linedOk[s] += lined && ok(got[s]);
            tally.unlined[s] += !lined && !NONE.has(c.want);
            tally.roleOk[s] += ok(got[s]);
            // (The cases Chromium's own tree gets right: WPT expects what no engine computes in
            // some, an orphaned `tab` as a button.)
            if (ok(got.chromium)) {
              tally.linedWhereChromium[s] += lined;
              tally.linedOkWhereChromium[s] += lined && ok(got[s]);
            }
            const theirs = got.chromium.role;
            tally.asChromium[s] += NONE.has(theirs) ? NONE.has(got[s].role) : got[s].role === theirs;
          }
          missed = (s) => !ok(got[s]);
        }
        if (missed('dom') || (all && SOURCES.some(missed))) {
          misses.push(`${rel} ${c.about} (${c.kind}): expected ${JSON.stringify(c.want)}\n${SOURCES.map((s) => `  ${s.padEnd(11)} ${got[s].line}`).join('\n')}`);
        }
      }
    } finally {
      await page.close();
      await server.close();
    }
  }
} finally {
  await b.close();
}
for (const m of misses) console.log(m);
const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');
const row = (label, f) => console.log(`| ${label} | ${SOURCES.map(f).join(' | ')} |`);
console.log(`\n${tally.names} name and ${tally.roles} role cases in ${files.length} files\n| | default (walk) | chromium_ax | Chromium's AX tree |\n|---|---|---|---|`);
row('names exact, NBSP counted as a space', (s) => pct(tally.spaced[s], tally.names));
row('names exact', (s) => pct(tally.exact[s], tally.names));
row('roles as expected', (s) => pct(tally.roleOk[s], tally.roles));
row('role exact where a line exists', (s) => pct(tally.linedOk[s], tally.lined[s]));
row("… of the cases Chromium's tree gets right", (s) => pct(tally.linedOkWhereChromium[s], tally.linedWhereChromium[s]));
row('role cases with no line of their own', (s) => String(tally.unlined[s]));
row("roles as Chromium's tree has them", (s) => pct(tally.asChromium[s], tally.roles));
if (pwDir) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const r = spawnSync(process.execPath, [path.join(here, 'pw-pairs.mjs'), pwDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const out = r.stdout.split('\n');
  if (all) console.log(out.filter((l) => !l.startsWith('|')).join('\n'));
  for (const l of out.filter((l) => /^\| Playwright/.test(l))) console.log(l.replace(/ \|$/, ' | — |'));
  if (r.status) process.exit(r.status);
}
