// A plain-http page on a real hostname (not loopback) is not a secure context, and neither is
// the extension's isolated world in it: APIs such as crypto.randomUUID are missing there.
// Every read works on such a page as on any other (most of our pages are on 127.0.0.1, which
// counts as secure, so this needs its own browser with a host mapped to it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server, origin;
before(async () => {
  server = await startServer();
  b = await launch({ args: ['--host-resolver-rules=MAP insecure.test 127.0.0.1'] });
  origin = `http://insecure.test:${new URL(server.origin).port}`;
});
after(async () => { await b?.close(); await server?.close(); });

test('an insecure (http, non-loopback) page: every read and a DOM-ref click work', async () => {
  const opened = await b.call('browser_tab_open', { url: `${origin}/basic.html` });
  const tabId = opened.tab.id;
  const page = b.context.pages().find((p) => p.url().startsWith(origin));
  assert.deepEqual(await page.evaluate(() => [isSecureContext, typeof crypto.randomUUID]), [false, 'undefined'], 'the page is not a secure context');
  for (const [method, params] of [['browser_snapshot', {}], ['browser_snapshot', { source: 'dom' }], ['browser_dom_cua', {}], ['browser_extract', {}], ['browser_find', { text: 'Click me' }]]) {
    const r = await b.call(method, { tabId, ...params });
    assert.ok(!r.error, `${method} ${JSON.stringify(params)}: ${JSON.stringify(r.error)}`);
  }
  const dom = await b.call('browser_snapshot', { tabId, source: 'dom' });
  const ref = dom.snapshot.state.split('\n').find((l) => l.includes('button "Click me"'))?.match(/\[ref=(\w+)\]/)?.[1];
  const click = await b.call('browser_click', { tabId, snapshotId: dom.snapshot.snapshotId, ref });
  assert.ok(click.ok, JSON.stringify(click));
  const first = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'insecure', timing: true });
  assert.match(first.state, /Clicked 1 times/);
  const again = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'insecure', timing: true });
  assert.deepEqual([again.mode, again.timing.captureMs], ['unchanged', 0], 'the change tracker runs here too');
  await b.call('browser_tab_close', { tabId });
});
