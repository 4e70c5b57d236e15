// browser_extract on the vendored real pages (issue #17): read page by page at the default
// cap as a model would, each page's article is scored (token F1) against Mozilla
// Readability's expected.html, beside document.body.innerText and Readability itself on the
// same live page. The whole corpus: `./build.sh extract-score`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { corpusServer, subsetDir, pagesOf } from './corpus.mjs';
import { scorePage } from './extract-score.mjs';

let b, server;
before(async () => { server = await corpusServer(subsetDir); b = await launch({ offline: true }); });
after(async () => { await b?.close(); await server?.close(); });

const rows = {};
for (const name of pagesOf(subsetDir)) {
  test(`extract ${name}: the article, never empty, every page within the cap`, async () => {
    const r = (rows[name] = await scorePage(b, subsetDir, name, server.url(name)));
    assert.equal(r.error, undefined);
    assert.ok(!r.empty || r.innerEmpty, 'empty where innerText is not');
    assert.equal(r.scope, 'article');
    assert.ok(r.ours.f1 >= 0.6, `F1 ${r.ours.f1.toFixed(2)} (p ${r.ours.p.toFixed(2)}, r ${r.ours.r.toFixed(2)})`);
  });
}

test('extract over the subset: mean F1 ≥ 0.93 and above innerText', () => {
  const names = Object.keys(rows);
  const mean = (k) => names.reduce((s, n) => s + rows[n][k].f1, 0) / names.length;
  console.log(`extract (subset of ${names.length}): mean F1 ${mean('ours').toFixed(3)}, innerText ${mean('inner').toFixed(3)}, Readability ${mean('readability').toFixed(3)}`);
  assert.equal(names.length, pagesOf(subsetDir).length);
  assert.ok(mean('ours') >= 0.93 && mean('ours') > mean('inner'));
});
