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
  const open = await b.call('browser_tab_open', { url: server.url('basic.html'), active: false });
  const tabId = open.tab.id;
  await sleep(12000);
  await b.call('browser_snapshot', { tabId });
  for (let i = 0; i < 3; i++) {
    const r = await b.inWorker(async (tabId, i) => {
      const send = (m, p) => new Promise((r) => chrome.debugger.sendCommand({ tabId }, m, p, (x) => r(chrome.runtime.lastError?.message ?? x)));
      await new Promise((r) => chrome.debugger.attach({ tabId }, '1.3', () => { void chrome.runtime.lastError; r(); }));
      if (i === 1) await send('Runtime.evaluate', { expression: 'document.body.style.background = "rgb(200, 30, 30)"' });
      const t0 = performance.now();
      const frames = [];
      const on = (src, method, params) => {
        if (src.tabId !== tabId || method !== 'Page.screencastFrame') return;
        send('Page.screencastFrameAck', { sessionId: params.sessionId });
        frames.push([Math.round(performance.now() - t0), params.data.length]);
      };
      chrome.debugger.onEvent.addListener(on);
      await send('Page.startScreencast', { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8 });
      const raf = await send('Runtime.evaluate', { expression: 'new Promise((r) => { const t = performance.now(); let n = 0; const f = () => (++n < 10 ? requestAnimationFrame(f) : r(performance.now() - t)); requestAnimationFrame(f); setTimeout(() => r("stuck " + n), 1000); })', awaitPromise: true, returnByValue: true });
      frames.push(['raf10', raf.result?.value]);
      const t1 = performance.now();
      const shot = await send('Page.captureScreenshot', { format: 'png' });
      frames.push(['shot', Math.round(performance.now() - t1), typeof shot === 'string' ? shot : shot.data.length]);
      chrome.debugger.onEvent.removeListener(on);
      await send('Page.stopScreencast', {});
      return JSON.stringify(frames);
    }, tabId, i);
    console.log('screencast', r);
  }
  const t = Date.now(); const shot = await b.call('browser_screenshot', { tabId }); console.log('shot', Date.now() - t, shot.error?.message ?? 'ok');
} finally {
  await b.close(); await server.close(); await d.stop();
}
