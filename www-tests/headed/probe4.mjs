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
  const pt = await b.pageFact(first.id, () => { const r = document.getElementById('t').getBoundingClientRect(); return [screenX + r.x + 20 + (outerWidth - innerWidth) / 2, screenY + (outerHeight - innerHeight) + r.y + 10]; });
  x.click(Math.round(pt[0]), Math.round(pt[1]));
  const open = await b.call('browser_tab_open', { url: server.url('basic.html') });
  const tabId = open.tab.id;
  const win = await b.inWorker(async (t) => (await chrome.tabs.get(t)).windowId, tabId);
  await b.inWorker(async (t) => chrome.tabs.update(t, { active: true }), tabId); // the old layout: the agent tab active in its window
  const ph = await b.inWorker(async (w) => (await chrome.tabs.query({ windowId: w })).find((t) => t.url.startsWith('chrome-extension'))?.id, win);
  const cdp = (method, params = {}) => b.inWorker(async (tabId, method, params) => new Promise((r) => chrome.debugger.sendCommand({ tabId }, method, params, (x) => r(chrome.runtime.lastError?.message ?? x))), tabId, method, params);
  await b.call('browser_snapshot', { tabId });
  await cdp('DOM.getDocument', {});
  const doc = await cdp('DOM.getDocument', {});
  const q = await cdp('DOM.querySelector', { nodeId: doc.root.nodeId, selector: '#counter' });
  const box = await cdp('DOM.getBoxModel', { nodeId: q.nodeId });
  const [cx, cy] = [(box.model.content[0] + box.model.content[2]) / 2, (box.model.content[1] + box.model.content[5]) / 2];
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    const r = await b.inWorker(async (tabId, ph, cx, cy) => {
      const send = (m, p) => new Promise((r) => chrome.debugger.sendCommand({ tabId }, m, p, (x) => r(chrome.runtime.lastError?.message ?? x)));
      const t = [performance.now()];
      await chrome.tabs.update(ph, { active: true }); t.push(performance.now());
      await send('Input.dispatchMouseEvent', { type: 'mousePressed', x: cx, y: cy, button: 'left', clickCount: 1 }); t.push(performance.now());
      await send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: cx, y: cy, button: 'left', clickCount: 1 }); t.push(performance.now());
      await chrome.tabs.update(tabId, { active: true }); t.push(performance.now());
      return t.map((v, i) => i ? Math.round(v - t[i - 1]) : 0).slice(1);
    }, tabId, ph, cx, cy);
    await sleep(300);
    console.log('switch-press', Date.now() - t0, r, x.activeTitle(), await b.pageFact(tabId, () => clicks), await b.pageFact(first.id, () => [document.hasFocus(), focusLog.join(',')]));
  }
  x.type('xyz');
  console.log('person keys', await b.pageFact(first.id, () => keyLog));
  const t = Date.now(); const shot = await b.call('browser_screenshot', { tabId }); console.log('shot', Date.now() - t, shot.error?.message ?? 'ok');
} finally {
  await b.close(); await server.close(); await d.stop();
}
