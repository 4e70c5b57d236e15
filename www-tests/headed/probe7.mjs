import { startDisplay, launchHeaded } from './harness.mjs';
import { startServer } from '../server.mjs';
const d = await startDisplay();
const server = await startServer();
const b = await launchHeaded(d);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
try {
  const open = await b.call('browser_tab_open', { url: server.url('agent-work.html') });
  const tabId = open.tab.id;
  const h = () => b.pageFact(tabId, () => innerHeight);
  for (let i = 0; i < 3; i++) { console.log('t', i, await h()); await sleep(500); }
  await b.inWorker(async () => { for (const t of await chrome.debugger.getTargets()) if (t.attached && t.tabId !== undefined) await new Promise((r) => chrome.debugger.detach({ tabId: t.tabId }, () => { void chrome.runtime.lastError; r(); })); });
  for (let i = 0; i < 15; i++) { console.log('after detach', i, await h(), JSON.stringify(await b.inWorker(async () => (await chrome.debugger.getTargets()).filter((t) => t.attached).map((t) => t.tabId ?? t.type)))); await sleep(1000); }
} finally {
  await b.close(); await server.close(); await d.stop();
}
