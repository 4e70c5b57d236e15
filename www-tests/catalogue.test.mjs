// One catalogue (issue #18): extension/catalogue.json names every tool the extension routes,
// with its parameters; a parameter the catalogue does not list is refused, naming it. (The
// Bridge checks its MCP list, CLI and the README table against the same file: cargo test.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch } from './harness.mjs';

let b;
before(async () => { b = await launch(); });
after(async () => { await b?.close(); });

test('the router serves exactly the catalogue, and refuses a parameter it does not list', async () => {
  const { tools, catalogue } = await b.worker.evaluate(async () => ({ tools: globalThis.pcc.tools, catalogue: await globalThis.pcc.catalogue() }));
  assert.deepEqual([...tools].sort(), catalogue.tools.map((t) => t.name).sort());
  for (const t of catalogue.tools) {
    const r = await b.call(t.name, { bogusParam: 1 });
    assert.equal(r.error?.code, 'INVALID_REQUEST', `${t.name}: ${JSON.stringify(r).slice(0, 200)}`);
    assert.match(r.error.message, /no parameter bogusParam/, t.name);
    for (const p of Object.keys(t.params)) assert.ok(r.error.hint.includes(p), `${t.name}: hint lacks ${p}`);
  }
});

test('error hints come from the one table, extension/errors.json (the Bridge reads it too)', async () => {
  const table = JSON.parse(fs.readFileSync(new URL('../extension/errors.json', import.meta.url), 'utf8'));
  const r = await b.call('browser_tab_open', { url: 'not a URL' });
  assert.equal(r.error?.code, 'INVALID_REQUEST', JSON.stringify(r));
  assert.equal(r.error.hint, table.INVALID_REQUEST);
});
