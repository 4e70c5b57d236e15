// Accessible names against an accname test suite, both sources: every test case of a
// directory of xi/accname-test's HTML files (a `<div class="accname-test" data-test=ID
// data-name=NAME>` per case: the W3C accname test cases and Mozilla's) is read through the
// extension with a selector scope on its element, with the DOM walk and with Chromium's AX
// tree; the name on the element's line is compared with the expected one and between the
// sources. Prints each case where the sources differ, then the shares.
//
// The suite is not in this repository. With the tool library's `fetch`
// (github:xi/accname-test), its files are in a mirror:
//   mkdir -p /tmp/accname && git -C /work/.mirror/xi+accname-test/repo archive HEAD tests | tar -x -C /tmp/accname
//   ./build.sh accname /tmp/accname/tests
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

const dir = process.argv[2];
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: node www-tests/accname.mjs DIR (a directory of xi/accname-test HTML files)');
  process.exit(2);
}
// Each file is a body fragment: served as a whole page.
const pages = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-accname-'));
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
for (const f of files) {
  fs.writeFileSync(path.join(pages, f), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${f}</title></head><body>${fs.readFileSync(path.join(dir, f), 'utf8')}</body></html>`);
}
const server = await startServer(pages);
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } }); // it reads the pages it opens itself
const fold = (s) => (s ?? '').replace(/\s+/g, ' ').trim();
/** The role and name on the first line of a state. */
const lineOf = (state) => {
  const line = (state || '').split('\n').find((l) => /^\s*- /.test(l));
  const m = line?.match(/^\s*- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/);
  return { line: line ?? null, name: m?.[2] !== undefined ? JSON.parse(`"${m[2]}"`) : '' };
};
const tally = { n: 0, dom: 0, ax: 0, agree: 0 };
try {
  for (const f of files) {
    const page = await b.context.newPage();
    await page.goto(server.url(`gen/${f}`), { waitUntil: 'load' });
    const tabId = await b.tabIdOf(page);
    const cases = await page.evaluate(() => [...document.querySelectorAll('.accname-test[data-test][data-name]')].map((d) => ({ id: d.dataset.test, name: d.dataset.name, about: d.dataset.comment || d.dataset.test })));
    for (const c of cases) {
      const read = {};
      for (const source of ['dom', 'chromium_ax']) {
        const r = await b.call('browser_snapshot', { tabId, selector: `[id="${c.id}"]`, source });
        read[source] = r.error ? { line: r.error.code, name: null } : lineOf(r.snapshot.state);
      }
      const [want, dom, ax] = [fold(c.name), fold(read.dom.name), fold(read.chromium_ax.name)];
      tally.n++;
      tally.dom += dom === want;
      tally.ax += ax === want;
      tally.agree += dom === ax;
      if (dom !== ax) console.log(`${f} ${c.about}: expected ${JSON.stringify(want)}\n  dom ${read.dom.line}\n  ax  ${read.chromium_ax.line}`);
    }
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
  fs.rmSync(pages, { recursive: true, force: true });
}
const pct = (k) => `${tally[k]} (${((100 * tally[k]) / Math.max(1, tally.n)).toFixed(1)}%)`;
console.log(`${tally.n} cases: DOM source as expected ${pct('dom')}, AX source as expected ${pct('ax')}, the two agree ${pct('agree')}`);
