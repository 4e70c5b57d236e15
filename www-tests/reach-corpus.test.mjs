// Reach on the vendored real pages (issue #16): per page, the headline, the 3rd paragraph of
// Readability's expected article, the last link and the first form field are reached in at
// most 3 calls and 30,000 chars (a snapshot, then browser_find). The whole corpus:
// `./build.sh reach`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { corpusServer, subsetDir, pagesOf } from './corpus.mjs';
import { reachPage, summarize } from './reach.mjs';

let b, server;
before(async () => { server = await corpusServer(subsetDir); b = await launch({ offline: true }); });
after(async () => { await b?.close(); await server?.close(); });

const results = {};
for (const name of pagesOf(subsetDir)) {
  test(`reach ${name}: every target in ≤ 3 calls and ≤ 30,000 chars`, async () => {
    results[name] = await reachPage(b, subsetDir, name, server.url(name));
    const s = summarize({ [name]: results[name] });
    assert.deepEqual(s.misses, []);
  });
}

test('reach over the subset: enough targets, none missed', () => {
  const s = summarize(results);
  console.log(`reach (subset): ${JSON.stringify(s)}`);
  assert.ok(s.targets >= 30, `${s.targets} targets`);
  assert.deepEqual(s.misses, []);
});
