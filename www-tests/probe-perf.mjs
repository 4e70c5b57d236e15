import { launch, openTab } from './harness.mjs';
import { startServer } from './server.mjs';
import { corpusServer, fullDir } from './corpus.mjs';
const srv = await startServer();
const csrv = await corpusServer(fullDir);
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } });
const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const url of [srv.url('basic.html'), srv.url('leaks2.html'), csrv.url('ehow-1'), csrv.url('cnn')]) {
    const page = await b.context.newPage();
    await page.goto(url, { waitUntil: 'load' }).catch(() => {});
    await page.waitForTimeout(300);
    const tabId = await b.tabIdOf(page);
    await b.call('browser_snapshot', { tabId });
    const t = [];
    for (let i = 0; i < 9; i++) { const t0 = performance.now(); await b.call('browser_snapshot', { tabId }); t.push(performance.now() - t0); }
    const f = [];
    for (let i = 0; i < 9; i++) { const t0 = performance.now(); await b.worker.evaluate(async (tabId) => chrome.scripting.executeScript({ target: { tabId, allFrames: true }, injectImmediately: true, func: () => document.querySelectorAll('*').length }), tabId); f.push(performance.now() - t0); }
    console.log(url.split('/').slice(-2).join('/'), 'unchanged snapshot median', med(t).toFixed(1), 'ms; an all-frames injection', med(f).toFixed(1), 'ms');
    await page.close();
  }
} finally { await b.close(); await srv.close(); }
