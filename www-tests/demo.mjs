// ./build.sh demo [URL|FILE]: opens the page in headless Chromium with the extension loaded,
// prints the compact state the extension's wasm collector renders, and a size summary.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

const arg = process.argv[2];
const server = await startServer();
let url;
if (!arg) url = server.url('long-session.html');
else if (/^[a-z][a-z0-9+.-]*:/i.test(arg)) url = arg;
else if (fs.existsSync(arg)) url = pathToFileURL(path.resolve(arg)).href;
else { console.error(`not a URL or an existing file: ${arg}`); process.exit(2); }

const b = await launch();
try {
  const page = await b.context.newPage();
  await page.goto(url, { waitUntil: 'load', timeout: 30000 });
  await page.waitForTimeout(200);
  const tabId = await b.tabIdOf(page);
  // The page is the person's tab: they let the agent read it (the toolbar popup's button).
  await b.grant(tabId);
  const r = await b.call('browser_snapshot', { tabId, timing: true });
  if (r.error) { console.error(`${r.error.code}: ${r.error.message}\nhint: ${r.error.hint}`); process.exitCode = 1; }
  else {
    const s = r.snapshot;
    console.log(s.state);
    console.log('');
    console.log(`# ${r.tab.url} — ${s.snapshotId} source=${s.source}: ${s.nodeCount} nodes, ${s.refCount} refs, ${s.charCount} chars, truncated=${s.truncated}; ` +
      `raw CDP ${r.timing.rawBytes} bytes → state ${s.charCount} chars (${(r.timing.rawBytes / Math.max(1, s.charCount)).toFixed(0)}× smaller); ` +
      `capture ${r.timing.captureMs.toFixed(0)} ms, wasm ${r.timing.wasmMs.toFixed(0)} ms`);
    await axFlow(page, tabId);
  }
} finally {
  await b.close();
  await server.close();
}

/** The AX revision flow: full, unchanged, then a diff after one change to the page. */
async function axFlow(page, tabId) {
  const line = (r) => `# ax ${r.snapshotId} mode=${r.mode}${r.baseSnapshotId ? ` base=${r.baseSnapshotId}` : ''}: ${r.nodeCount} nodes, ${r.charCount} chars`;
  const full = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'demo' });
  if (full.error) { console.log(`# ax: ${full.error.code}: ${full.error.message}`); return; }
  console.log(line(full));
  console.log(line(await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'demo' })));
  // One change: a new chat message on the bundled page, a new button anywhere else.
  await page.evaluate(() => {
    const last = [...document.querySelectorAll('.msg')].pop();
    const msg = document.createElement('div');
    msg.innerHTML = last
      ? '<p>A new reply arrived while you were reading.</p><button aria-label="Copy message">⧉</button>'
      : '<button>Added by the demo</button>';
    (last ? last.after(msg) : document.body.appendChild(msg));
  });
  const diff = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'demo' });
  console.log(line(diff));
  if (diff.state) console.log(diff.state);
}
