// Nothing secret reaches the disk (issue #65): the core's state, kept for a worker restart in
// the profile's Cache Storage, holds page text (held results, names, values); it is written
// sealed (services/core.js), its key in session storage only. After a session in which a page
// echoes a typed password and a token outside their fields, no file of the profile holds
// either — while the browser runs and after it closes — and a restarted worker still acts
// on the refs the model holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';

const PASSWORD = 'DISK-pw-Quokka-7731';
const TOKEN = 'DISK-token-8f3a91c27be64d05';

/** The profile's files (below `dir`) that hold `needle` as UTF-8 or UTF-16 text. */
function filesHolding(dir, needle) {
  const forms = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  const hits = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        let bytes;
        try { bytes = fs.readFileSync(p); } catch { continue; }
        if (forms.some((f) => bytes.includes(f))) hits.push(path.relative(dir, p));
      }
    }
  };
  walk(dir);
  return hits;
}

let b, server, profile;
before(async () => {
  server = await startServer();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-disk-'));
  b = await launch({ userDataDir: profile });
});
after(async () => {
  await b?.context.close().catch(() => {});
  await server?.close();
  fs.rmSync(profile, { recursive: true, force: true });
});

test('the saved state is sealed: no profile file holds an echoed secret, the browser running or closed', async () => {
  const { page, tabId } = await openTab(b, server, 'echo-secrets.html');
  await page.fill('#pw', PASSWORD);
  await page.fill('#api_token', TOKEN);
  const snap = await b.call('browser_snapshot', { tabId });
  assert.ok(!snap.error, JSON.stringify(snap).slice(0, 300));
  assert.ok(!JSON.stringify(snap).includes(PASSWORD), 'the text state hides the echo');
  const ref = snap.snapshot.state.match(/button "Continue" \[ref=(e\d+)\]/)?.[1];
  assert.ok(ref, snap.snapshot.state);
  await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'disk' });

  // The core's state was written (at most every stateWriteEveryMs).
  let writes = 0;
  for (let i = 0; i < 60 && writes < 1; i++) {
    await new Promise((r) => setTimeout(r, 100));
    writes = (await b.worker.evaluate(() => globalThis.pcc.stateWrites())).count;
  }
  assert.ok(writes >= 1, 'the state was kept for the next worker');
  const cacheDirs = filesHolding(profile, 'pcc-core-state');
  assert.ok(cacheDirs.length > 0, 'Cache Storage holds the state (the test reads the right files)');

  // (A restarted worker reads it back and the refs act: bridge.test.mjs "a stopped service worker …".)
  const ok = await b.call('browser_click', { tabId, ref, snapshotId: snap.snapshot.snapshotId });
  assert.ok(!ok.error, JSON.stringify(ok).slice(0, 300));

  // (The browser's own files — its session restore, the page's form state — are the
  // browser's, as with any page a person types into; the extension's storage is ours.)
  const ours = (f) => /CacheStorage|Service Worker|Extension|Storage|IndexedDB/.test(f) && !/^Default\/(Sessions|Current|Last)/.test(f);
  for (const secret of [PASSWORD, TOKEN]) assert.deepEqual(filesHolding(profile, secret).filter(ours), [], `${secret} on disk while the browser runs`);
  await b.context.close();
  for (const secret of [PASSWORD, TOKEN]) assert.deepEqual(filesHolding(profile, secret).filter(ours), [], `${secret} on disk after the browser closed`);
});
