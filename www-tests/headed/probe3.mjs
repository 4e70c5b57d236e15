import { startDisplay, launchHeaded, xInput } from './harness.mjs';
import { startServer } from '../server.mjs';
const d = await startDisplay();
const server = await startServer();
const b = await launchHeaded(d);
const x = xInput(d);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
try {
  const first = await b.inWorker(async () => (await chrome.tabs.query({}))[0]);
  await b.inWorker(async (id, url) => { await chrome.tabs.update(id, { url }); }, first.id, server.url('person.html'));
  await sleep(1000);
  const open = await b.call('browser_tab_open', { url: server.url('basic.html') });
  const tabId = open.tab.id;
  const snap = await b.call('browser_snapshot', { tabId });
  const ref = /button "Click me" \[ref=(e\d+)\]/.exec(snap.snapshot.state)?.[1];
  const measure = async (label) => {
    const f = await b.pageFact(tabId, async () => {
      const t0 = performance.now(); for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 20));
      const t1 = performance.now(); const raf = await Promise.race([new Promise((r) => requestAnimationFrame(() => r(performance.now() - t1))), new Promise((r) => setTimeout(() => r('none'), 500))]);
      return [Math.round(t1 - t0), raf, document.visibilityState, document.hasFocus()];
    });
    console.log(label, '5x20ms timers:', f[0], 'raf:', f[1], f[2], f[3]);
  };
  await measure('before click');
  for (let i = 0; i < 4; i++) { const t = Date.now(); const c = await b.call('browser_click', { tabId, ref, snapshotId: snap.snapshot.snapshotId }); console.log('click', Date.now() - t, c.settledMs ?? c.error?.code); await measure(' after'); }
  await sleep(12000);
  await measure('after 12 s');
  const t = Date.now(); const c = await b.call('browser_click', { tabId, ref, snapshotId: snap.snapshot.snapshotId }); console.log('click', Date.now() - t, c.settledMs ?? c.error?.code);
} finally {
  await b.close(); await server.close(); await d.stop();
}
