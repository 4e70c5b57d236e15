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
  await sleep(1500);
  const pt = await b.pageFact(first.id, () => { const r = document.getElementById('t').getBoundingClientRect(); return [screenX + r.x + 20 + (outerWidth - innerWidth) / 2, screenY + (outerHeight - innerHeight) + r.y + 10]; });
  const personClick = () => x.click(Math.round(pt[0]), Math.round(pt[1]));
  personClick();
  const open = await b.call('browser_tab_open', { url: server.url('basic.html'), ...(process.env.BG ? { active: false } : {}) });
  const tabId = open.tab.id;
  const cdp = (method, params = {}) => b.inWorker(async (tabId, method, params) => {
    await new Promise((r) => chrome.debugger.attach({ tabId }, '1.3', () => { void chrome.runtime.lastError; r(); }));
    return new Promise((r) => chrome.debugger.sendCommand({ tabId }, method, params, (x) => r(chrome.runtime.lastError?.message ?? x)));
  }, tabId, method, params);
  await cdp('Emulation.setFocusEmulationEnabled', { enabled: true });
  if (process.env.MIN) { await b.inWorker(async (w) => chrome.windows.update(w, { state: 'minimized' }), open.tab.windowId ?? (await b.inWorker(async (t) => (await chrome.tabs.get(t)).windowId, tabId))); await sleep(500); }
  if (process.env.PD) await b.pageFact(tabId, () => { addEventListener('mousedown', (e) => e.preventDefault(), true); addEventListener('pointerdown', (e) => e.preventDefault(), true); });
  const variants = {
    focusThenPress: 'special',
    moved: [['Input.dispatchMouseEvent', { type: 'mouseMoved', x: 50, y: 300 }]],
    key: [['Input.dispatchKeyEvent', { type: 'keyDown', key: 'a', text: 'a' }], ['Input.dispatchKeyEvent', { type: 'keyUp', key: 'a' }]],
    pressRelease: [['Input.dispatchMouseEvent', { type: 'mousePressed', x: 50, y: 300, button: 'left', clickCount: 1 }], ['Input.dispatchMouseEvent', { type: 'mouseReleased', x: 50, y: 300, button: 'left', clickCount: 1 }]],
    rightPress: [['Input.dispatchMouseEvent', { type: 'mousePressed', x: 50, y: 300, button: 'right', clickCount: 1 }], ['Input.dispatchMouseEvent', { type: 'mouseReleased', x: 50, y: 300, button: 'right', clickCount: 1 }]],
    tap: [['Input.synthesizeTapGesture', { x: 50, y: 300 }]],
    touch: [['Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 50, y: 300 }] }], ['Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }]],
  };
  for (const [name, steps] of Object.entries(variants)) {
    await b.inWorker(async (w) => chrome.windows.update(w, { focused: true }), first.windowId); await sleep(300); personClick(); await sleep(200);
    const before = x.activeTitle();
    if (steps === 'special') {
      const doc = await cdp('DOM.getDocument', {});
      const q = await cdp('DOM.querySelector', { nodeId: doc.root.nodeId, selector: '#counter' });
      const f = await cdp('DOM.focus', { nodeId: q.nodeId });
      await sleep(200);
      console.log('  after DOM.focus', x.activeTitle(), JSON.stringify(f));
      const box = await cdp('DOM.getBoxModel', { nodeId: q.nodeId });
      const [cx, cy] = [(box.model.content[0] + box.model.content[2]) / 2, (box.model.content[1] + box.model.content[5]) / 2];
      for (const type of ['mousePressed', 'mouseReleased']) await cdp('Input.dispatchMouseEvent', { type, x: cx, y: cy, button: 'left', clickCount: 1 });
    } else for (const [m, p] of steps) { const r = await cdp(m, p); if (typeof r === 'string') console.log(' err', r); }
    await sleep(300);
    console.log(name.padEnd(14), before, '->', x.activeTitle(), await b.pageFact(tabId, () => [clicks, document.visibilityState]), await b.inWorker(async () => (await chrome.windows.getAll({populate:true})).map(w => [w.focused, w.state, w.tabs.map(t=>t.active?'A':'-').join('')].join(':')).join(' ')));
  }
} finally {
  await b.close(); await server.close(); await d.stop();
}
