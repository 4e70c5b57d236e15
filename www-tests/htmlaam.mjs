// Roles against WPT's html-aam role tests, both sources: every element of a directory of
// those HTML files that names an expected role (`data-testname` with `data-expectedrole`,
// class `ex`; class `ex-generic`: generic) is read through the extension with a selector
// scope on it, with the DOM walk and with Chromium's AX tree; the role on the element's own
// line is compared with the expected one and between the sources. A generic (or no) role
// is one the state does not show: the element's line is its content's. Prints each case
// where a source misses, then the shares.
//
// The suite is not in this repository (web-platform-tests/wpt, `html-aam/roles.html`,
// `roles-contextual.html`, `table-roles.html`): `./build.sh htmlaam DIR`.
import fs from 'node:fs';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

const dir = process.argv[2];
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: node www-tests/htmlaam.mjs DIR (a directory of WPT html-aam role test files)');
  process.exit(2);
}
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
const server = await startServer(dir);
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } }); // it reads the pages it opens itself
// ARIA 1.3's `image` is `img` in the state (as in Playwright's snapshots).
const SAME = { img: 'image' };
const NONE = new Set(['', 'none', 'generic', 'presentation']);
/** The role the element's own line shows ('' when the state shows only its content). */
function roleOf(state) {
  const line = (state || '').split('\n').find((l) => /^\s*- /.test(l));
  const m = line?.match(/^\s*- ([\w-]+)(:)?/);
  if (!m || m[1] === 'text') return { role: '', line: line ?? '(empty)' };
  return { role: SAME[m[1]] ?? m[1], line };
}
const tally = { n: 0, dom: 0, ax: 0, agree: 0 };
const misses = [];
try {
  for (const f of files) {
    const page = await b.context.newPage();
    await page.goto(server.url(`gen/${f}`), { waitUntil: 'load' });
    const tabId = await b.tabIdOf(page);
    const cases = await page.evaluate(() => [...document.querySelectorAll('[data-testname].ex, [data-testname].ex-generic')]
      .map((e) => ({ name: e.dataset.testname, want: e.classList.contains('ex-generic') ? 'generic' : (e.dataset.expectedrole ?? '') })));
    for (const c of cases) {
      const got = {};
      for (const source of ['dom', 'chromium_ax']) {
        const r = await b.call('browser_snapshot', { tabId, selector: `[data-testname="${c.name}"]`, source });
        // An element the state leaves out (hidden, or nothing to show) has no role there.
        const empty = r.error && /shows nothing/.test(r.error.message);
        got[source] = r.error ? { role: empty ? '' : r.error.code, line: r.error.message } : roleOf(r.snapshot.state);
      }
      const ok = (g) => (NONE.has(c.want) ? NONE.has(g.role) : g.role === c.want);
      tally.n++;
      tally.dom += ok(got.dom);
      tally.ax += ok(got.chromium_ax);
      tally.agree += got.dom.role === got.chromium_ax.role;
      if (!ok(got.dom) || !ok(got.chromium_ax)) misses.push(`${f} ${c.name}: expected ${c.want || 'none'}\n  dom ${got.dom.line}\n  ax  ${got.chromium_ax.line}`);
    }
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
}
for (const m of misses) console.log(m);
const pct = (k) => `${tally[k]} (${((100 * tally[k]) / Math.max(1, tally.n)).toFixed(1)}%)`;
console.log(`${tally.n} cases: DOM source as expected ${pct('dom')}, AX source as expected ${pct('ax')}, the two agree ${pct('agree')}`);
