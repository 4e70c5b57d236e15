import { startDisplay, launchHeaded, xInput } from '/work/main/www-tests/headed/harness.mjs';
import { startServer } from '/work/main/www-tests/server.mjs';
const d = await startDisplay();
const server = await startServer();
const b = await launchHeaded(d);
const x = xInput(d);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
try {
  // the person's window: navigate the first tab
  const first = await b.inWorker(async () => (await chrome.tabs.query({}))[0]);
  await b.inWorker(async (id, url) => { await chrome.tabs.update(id, { url }); }, first.id, server.url('person.html'));
  await sleep(1500);
  console.log('active X window:', x.activeTitle(), await b.inWorker(async () => (await chrome.windows.getAll()).map(w => [w.id, w.focused, w.state])));
  console.log('person before', await b.pageFact(first.id, () => [keyLog, document.hasFocus(), focusLog.join(','), document.activeElement.id]));
  const pt = await b.pageFact(first.id, () => { const r = document.getElementById('t').getBoundingClientRect(); return [screenX + r.x + 20 + (outerWidth - innerWidth) / 2, screenY + (outerHeight - innerHeight) + r.y + 10]; });
  console.log('click at', pt); x.click(Math.round(pt[0]), Math.round(pt[1]));
  x.type('abc');
  console.log('person keys', await b.pageFact(first.id, () => [keyLog, document.hasFocus(), focusLog.join(',')]));
  const open = await b.call('browser_tab_open', { url: server.url('basic.html') });
  console.log('open', open.error ?? open.tab.id);
  const tabId = open.tab.id; console.log('active after 1st open:', x.activeTitle());
  const open2 = await b.call('browser_tab_open', { url: server.url('article.html') });
  console.log('active after 2nd open:', x.activeTitle());
  console.log('active after open:', x.activeTitle());
  const snap = await b.call('browser_snapshot', { tabId });
  console.log('active after snap:', x.activeTitle());
  const ref = /button "Click me" \[ref=(e\d+)\]/.exec(snap.snapshot.state)?.[1];
  console.log('ref', ref, JSON.stringify(snap.snapshot).slice(0,600));
  if (process.env.EMU) {
    console.log('emu', await b.inWorker(async (tabId) => {
      await new Promise((r) => chrome.debugger.attach({ tabId }, '1.3', () => { void chrome.runtime.lastError; r(); }));
      return new Promise((r) => chrome.debugger.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }, (x) => r(chrome.runtime.lastError?.message ?? 'ok')));
    }, tabId));
    await sleep(200);
    console.log('active after emu:', x.activeTitle());
  }
  let t = Date.now();
  const c = await b.call('browser_click', { tabId, ref, snapshotId: snap.snapshot.snapshotId });
  console.log('click', Date.now() - t, 'ms', JSON.stringify(c).slice(0, 200));
  await sleep(300);
  console.log('active after click:', x.activeTitle());
  console.log('person', await b.pageFact(first.id, () => [keyLog, document.hasFocus(), focusLog.join(',')]));
  x.type('de');
  console.log('person after typing', await b.pageFact(first.id, () => [keyLog, document.hasFocus(), focusLog.join(',')]));
  console.log('agent', await b.pageFact(tabId, () => [document.hasFocus(), clicks, document.visibilityState]));
  for (let i = 0; i < 3; i++) { t = Date.now(); const c2 = await b.call('browser_click', { tabId, ref, snapshotId: snap.snapshot.snapshotId }); console.log('click again', Date.now() - t, c2.error?.code ?? c2.settledMs, x.activeTitle()); }
  t = Date.now(); const shot = await b.call('browser_screenshot', { tabId }); console.log('shot', Date.now() - t, shot.error?.message ?? Object.keys(shot));
  console.log('agent', await b.pageFact(tabId, () => [document.hasFocus(), clicks, document.visibilityState]));

} finally {
  await b.close(); await server.close(); await d.stop();
}
