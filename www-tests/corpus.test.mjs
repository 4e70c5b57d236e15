// The corpus contract on the vendored subset of real pages (www-tests/corpus/): no nameless
// heading whose page text exists, no Chromium-internal role name, no text run spaced other
// than the page renders it, a ref on every clickable a user can reach in the viewport, and
// no selector answered with content outside its element, a second AX read of the unchanged
// page answered without a capture (the change tracker) and one added button seen as a diff,
// and the DOM source saying what the AX source says (at least 90% of lines on these pages).
// `./build.sh corpus` runs the same
// checks over every page of ../shared/corpus/readability/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { agreementOf, checkPage, corpusServer, pagesOf, subsetDir, violations } from './corpus.mjs';

let b, server;
before(async () => { server = await corpusServer(subsetDir); b = await launch({ offline: true }); });
after(async () => { await b?.close(); await server?.close(); });

for (const name of pagesOf(subsetDir)) {
  test(`corpus ${name}: the state is faithful to the page`, async () => {
    const r = await checkPage(b, server.url(name));
    const v = violations(r);
    assert.deepEqual(v, [], v.join('\n'));
    // Both sources read the page (a real state, not a stub).
    for (const c of Object.values(r.sources)) assert.ok(c.lines >= 5, `${name}: ${c.lines} lines`);
    assert.ok(r.agreement >= 0.9, `${name}: the DOM source agrees on ${r.agreement}`);
  });
}

test('source agreement counts the lines two states share in order', () => {
  assert.equal(agreementOf(['a', 'b', 'c'], ['a', 'b', 'c']), 1);
  assert.equal(agreementOf(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'y']), 0.5);
  assert.equal(agreementOf(['a', 'b'], ['b', 'a']), 0.5);
  assert.equal(agreementOf([], []), 1);
});
