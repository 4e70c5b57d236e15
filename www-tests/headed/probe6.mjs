import { startDisplay, launchHeaded, xInput } from './harness.mjs';
import { startServer } from '../server.mjs';
import { execFileSync } from 'node:child_process';
const d = await startDisplay();
const server = await startServer();
const b = await launchHeaded(d);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
try {
  const first = await b.inWorker(async () => (await chrome.tabs.query({}))[0]);
  await b.inWorker(async (id, url) => { await chrome.tabs.update(id, { url }); }, first.id, server.url('person.html'));
  await sleep(1000);
  const open = await b.call('browser_tab_open', { url: server.url('agent-work.html') });
  await b.call('browser_snapshot', { tabId: open.tab.id });
  await sleep(1500);
  execFileSync('convert', ['x:root', '/tmp/root.png'], { env: d.env });
  console.log(await b.inWorker(async () => (await chrome.windows.getAll()).map((w) => [w.id, w.left, w.top, w.width, w.height, w.focused])));
} finally {
  await b.close(); await server.close(); await d.stop();
}
