// Accessible names against WPT's accname name tests (`accname/name/comp_*.html`,
// `accname/name/shadowdom/*.html`), three ways: every element with a `data-expectedlabel` is
// read through the extension with a selector scope on it, with the DOM walk (the default
// source) and with `chromium_ax`, and Chromium's own tree is asked for its name
// (Accessibility.getPartialAXTree); each is compared with the expected name, exactly and
// with NBSP counted as a space. Prints the cases where the default source misses (or, with
// `--all`, any source), then the table.
//
// The files are not in this repository. Playwright's repository carries WPT's accname name
// files (tests/assets/wpt/accname/name, copied from web-platform-tests at a pinned revision);
// with the tool library's `fetch` (github:microsoft/playwright):
//   mkdir -p /tmp/wpt && git -C /work/.mirror/microsoft+playwright/repo archive HEAD tests/assets/wpt | tar -x -C /tmp/wpt
//   ./build.sh wpt-names /tmp/wpt/tests/assets/wpt/accname/name
import fs from 'node:fs';
import path from 'node:path';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

const dir = process.argv[2];
const all = process.argv.includes('--all');
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: node www-tests/wpt-names.mjs DIR [--all] (a directory of WPT accname name test files)');
  process.exit(2);
}
const files = [];
const collect = (d, rel = '') => {
  for (const f of fs.readdirSync(d).sort()) {
    const p = path.join(d, f);
    if (fs.statSync(p).isDirectory()) collect(p, path.join(rel, f));
    else if (f.endsWith('.html') && !f.includes('tentative')) files.push(path.join(rel, f));
  }
};
collect(dir);
const server = await startServer(dir);
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } }); // it reads the pages it opens itself
const fold = (s) => (s ?? '').replace(/[ \t\n\r\f]+/g, ' ').trim();
const nbsp = (s) => fold((s ?? '').replace(/\u00a0/g, ' '));
/** The name on the first line of a state (the scoped element's, or its first content's). */
const nameOf = (state) => {
  const line = (state || '').split('\n').find((l) => /^\s*- /.test(l));
  const m = line?.match(/^\s*- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/);
  return { line: line ?? null, name: m?.[2] !== undefined ? JSON.parse(`"${m[2]}"`) : '' };
};
const sources = ['dom', 'chromium_ax', 'chromium'];
const tally = { n: 0, exact: Object.fromEntries(sources.map((s) => [s, 0])), spaced: Object.fromEntries(sources.map((s) => [s, 0])) };
try {
  for (const f of files) {
    const page = await b.context.newPage();
    await page.goto(server.url(`gen/${f}`), { waitUntil: 'load' });
    await page.waitForTimeout(100); // (shadow-DOM cases build their trees in scripts)
    const tabId = await b.tabIdOf(page);
    const cdp = await b.context.newCDPSession(page);
    // Each case is marked for a selector (a data attribute names nothing).
    const cases = await page.evaluate(() => [...document.querySelectorAll('[data-expectedlabel]')].map((el, i) => {
      el.setAttribute('data-pcc-case', String(i));
      return { i, want: el.dataset.expectedlabel, about: el.dataset.testname || el.outerHTML.slice(0, 80) };
    }));
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    for (const c of cases) {
      const selector = `[data-pcc-case="${c.i}"]`;
      const got = {};
      for (const source of ['dom', 'chromium_ax']) {
        const r = await b.call('browser_snapshot', { tabId, selector, source });
        got[source] = r.error ? { line: r.error.code, name: null } : nameOf(r.snapshot.state);
      }
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      const { nodes } = nodeId ? await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false }) : { nodes: [] };
      got.chromium = { line: `(Chromium's tree) ${nodes[0]?.role?.value ?? ''}`, name: nodes[0]?.name?.value ?? '' };
      tally.n++;
      for (const s of sources) {
        tally.exact[s] += fold(got[s].name) === fold(c.want);
        tally.spaced[s] += nbsp(got[s].name) === nbsp(c.want);
      }
      if (nbsp(got.dom.name) !== nbsp(c.want) || (all && sources.some((s) => nbsp(got[s].name) !== nbsp(c.want)))) {
        console.log(`${f} ${c.about}: expected ${JSON.stringify(c.want)}\n${sources.map((s) => `  ${s.padEnd(11)} ${got[s].line}`).join('\n')}`);
      }
    }
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
}
const pct = (k, s) => `${((100 * tally[k][s]) / Math.max(1, tally.n)).toFixed(1)}%`;
console.log(`\n${tally.n} name cases in ${files.length} files\n| | default (walk) | chromium_ax | Chromium's AX tree |\n|---|---|---|---|`);
console.log(`| names exact, NBSP counted as a space | ${sources.map((s) => pct('spaced', s)).join(' | ')} |`);
console.log(`| names exact | ${sources.map((s) => pct('exact', s)).join(' | ')} |`);
