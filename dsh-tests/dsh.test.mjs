// The DSH browser tools (dsh-plugin/, issue #43) in a real DeepSeek Harness host in-process
// (host.mjs: DSH's own runtimes, the plugin loaded as DSH loads a plugin, a scripted model),
// against the real `pcc bridge` and the extension in headless Chromium. Run on Node 22 from
// this folder's own dependencies (./build.sh dsh).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBridge, pccBin } from '../www-tests/bridge-harness.mjs';
import { pixelsOf } from '../www-tests/harness.mjs';
import { startHost } from './host.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalogue = JSON.parse(fs.readFileSync(path.join(root, 'extension', 'catalogue.json'), 'utf8'));
const SECRETS = ['LEAK-password-01', 'LEAK-hidden-02', 'LEAK-token-03', 'LEAK-apikey-04', 'LEAK-cvc-08', 'LEAK-secret-09'];
const PNG_BASE64 = 'iVBORw0KGgo';

let c, host;
withBridge((x) => {
  c = x;
  // The plugin finds this Bridge through pcc's own environment.
  Object.assign(process.env, { PCC_HOME: x.br.home, PCC_PORT: String(x.br.port), PCC_BIN: pccBin });
});
before(async () => { host = await startHost(); });
after(async () => host?.close());

/** Every tool result of an agent's session: `{name, isError, content}`, in order. */
function results(agent) {
  const names = new Map();
  const out = [];
  for (const e of agent.session.events) {
    if (e.type === 'tool/call') names.set(e.data.callId, e.data.name);
    if (e.type === 'tool/result') {
      for (const block of e.data.message.content.filter((b) => b.type === 'tool-result')) {
        out.push({ name: names.get(block.toolCallId), isError: block.isError === true, content: block.content });
      }
    }
  }
  return out;
}
const textOf = (r) => r.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
/** The text of the last tool result in a model request (what the scripted model reads). */
function lastResult(request) {
  for (const m of [...request.messages].reverse()) {
    for (const b of m.content ?? []) if (b.type === 'tool-result') return b.content.filter((x) => x.type === 'text').map((x) => x.text).join('\n');
  }
  return '';
}
const pccCall = (method, params) => new Promise((resolve) => execFile(pccBin, ['call', method, JSON.stringify(params)], { env: process.env }, (err, stdout, stderr) => resolve({ code: err?.code ?? 0, stdout, stderr })));

test('the tools are the catalogue\'s default profile with its schemas, /chrome is there, and a tool of the catalogue needs no other edit to appear', async () => {
  const agent = await host.run('hello', [() => ({ text: 'Hi.' })]);
  const sent = host.model.requests.at(-1).tools.filter((t) => t.name.startsWith('browser_'));
  assert.deepEqual(sent.map((t) => t.name).sort(), [...catalogue.profiles.core].sort());
  const snapshot = sent.find((t) => t.name === 'browser_snapshot');
  assert.deepEqual(Object.keys(snapshot.parameters.properties).sort(), Object.keys(catalogue.tools.find((t) => t.name === 'browser_snapshot').params).sort());
  assert.deepEqual(snapshot.parameters.properties.tabId, { type: 'integer' }, 'shared parameters are described once');
  assert.equal(sent.filter((t) => t.description.includes('Parameters every tool shares: tabId: ')).length, 1);
  assert.ok(host.ctx.commands.list(agent).some((d) => d.name === 'chrome'));
  // Every tool of the catalogue, with the setting.
  const all = await startHost({ tools: 'all' });
  await all.run('hello', [() => ({ text: 'Hi.' })]);
  assert.deepEqual(all.model.requests[0].tools.filter((t) => t.name.startsWith('browser_')).map((t) => t.name).sort(), catalogue.tools.map((t) => t.name).sort());
  await all.close();
});

test('a scripted turn opens a page, reads it, clicks the ref it parsed, sees the change; a stale ref is an error result naming its code; DSH text equals pcc call\'s', async () => {
  let snapshotId, ref, tabId;
  const agent = await host.run('Click the counter on the test page.', [
    () => ({ calls: [['browser_tab_open', { url: c.server.url('basic.html') }]] }),
    (req) => {
      tabId = Number(lastResult(req).match(/"id":(\d+)/)[1]);
      return { calls: [['browser_snapshot', { tabId }]] };
    },
    (req) => {
      const t = lastResult(req);
      snapshotId = t.match(/"snapshotId":"([^"]+)"/)[1];
      ref = t.match(/button "Click me" \[ref=(e\d+)\]/)[1];
      return { calls: [['browser_click', { tabId, ref, snapshotId }]] };
    },
    () => ({ calls: [['browser_snapshot', { tabId }]] }),
    () => ({ calls: [['browser_click', { tabId, ref: 'e999', snapshotId }]] }),
    () => ({ calls: [['browser_accessibility_snapshot', { tabId }]] }),
    () => ({ text: 'Done.' }),
  ]);
  const r = results(agent);
  assert.deepEqual(r.map((x) => [x.name, x.isError]), [['browser_tab_open', false], ['browser_snapshot', false], ['browser_click', false], ['browser_snapshot', false], ['browser_click', true], ['browser_accessibility_snapshot', false]]);
  assert.match(textOf(r[1]), /<untrusted-page-content>/);
  assert.match(textOf(r[2]), /"ok":true/);
  assert.match(textOf(r[3]), /button "Clicked 1 times"/);
  assert.match(textOf(r[4]), /BROWSER_STALE_REF: .*\(hint: /);
  // The agent session is the browser session: its tab and its revisions are kept under it.
  const session = String(agent.session.id);
  const preview = (await c.br.call('browser_cleanup', { sessionId: session, preview: true })).json;
  assert.ok(preview.close.includes(tabId), `the tab was opened under the DSH session: ${JSON.stringify(preview)}`);
  // The same call through pcc gives the same text (pi's tools run the same command).
  const direct = await pccCall('browser_snapshot', { tabId });
  assert.equal(direct.code, 0);
  const again = await host.run('Read it again.', [() => ({ calls: [['browser_snapshot', { tabId }]] }), () => ({ text: 'Done.' })], agent);
  assert.equal(textOf(results(again).at(-1)), direct.stdout.replace(/\n$/, ''));
});

test('the agent\'s end disposes its browser session: its revisions are gone', async () => {
  let tabId;
  const agent = await host.run('Read the page twice.', [
    () => ({ calls: [['browser_tab_open', { url: c.server.url('basic.html') }]] }),
    (req) => {
      tabId = Number(lastResult(req).match(/"id":(\d+)/)[1]);
      return { calls: [['browser_accessibility_snapshot', { tabId }]] };
    },
    () => ({ calls: [['browser_accessibility_snapshot', { tabId }]] }),
    () => ({ text: 'Done.' }),
  ]);
  assert.match(textOf(results(agent).at(-1)), /"mode":"unchanged"/);
  const sessionId = String(agent.session.id);
  await host.disposeAgent(agent);
  const after = await (async () => {
    for (let i = 0; i < 50; i++) {
      const r = (await c.br.call('browser_accessibility_snapshot', { tabId, sessionId })).json;
      if (r.mode === 'full') return r;
      await new Promise((res) => setTimeout(res, 100));
    }
    return null;
  })();
  assert.equal(after?.mode, 'full', 'the revisions of the ended agent\'s session were disposed');
});

test('a screenshot reaches the model as a stored image attachment, never Base64; an image the store refuses is saved to a file the text names; no secret anywhere', async () => {
  const agent = await host.run('Look at the page.', [
    () => ({ calls: [['browser_tab_open', { url: c.server.url('secrets.html') }]] }),
    (req) => ({ calls: [['browser_screenshot', { tabId: Number(lastResult(req).match(/"id":(\d+)/)[1]) }]] }),
    (req) => ({ calls: [['browser_snapshot', {}], ['browser_extract', {}]] }),
    () => ({ calls: [['browser_navigate', { url: c.server.url('tall.html') }]] }),
    () => ({ calls: [['browser_screenshot', { fullPage: true, maxEdge: 8000, format: 'jpeg' }]] }),
    () => ({ text: 'Done.' }),
  ]);
  const r = results(agent);
  const shot = r.find((x) => x.name === 'browser_screenshot');
  assert.ok(!shot.isError, textOf(shot));
  assert.deepEqual(shot.content.map((b) => b.type), ['text', 'image']);
  assert.match(textOf(shot), /^Screenshot captured for tab \d+\.$/);
  const { attachment } = shot.content[1];
  assert.equal(attachment.mediaType, 'image/png');
  const stored = await host.ctx.get('attachments').readImage(attachment);
  assert.equal(Buffer.from(stored.data).subarray(1, 4).toString(), 'PNG');
  // The image hides what the text hides: the secret fields are covered, a plain one is not
  // (their places read from the same page at the same size).
  const probe = await c.b.context.newPage();
  try {
    await probe.goto(c.server.url('secrets.html'));
    const at = await probe.evaluate(() => ({ width: document.documentElement.clientWidth, points: ['input[name=access_token]', '#apiKey', 'input[name=display]'].map((q) => { const r = document.querySelector(q).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }) }));
    const px = await pixelsOf(c.b.context, Buffer.from(stored.data).toString('base64'), at.width, at.points);
    const black = ([r, g, b]) => r < 20 && g < 20 && b < 20;
    assert.ok(black(px[0]) && black(px[1]) && !black(px[2]), `masked in DSH's image: ${JSON.stringify(px)}`);
  } finally {
    await probe.close();
  }
  // The whole page at a size asked for (taller than the store's 2,000 px a side): saved,
  // said, not Base64.
  const tall = r.at(-1);
  assert.ok(!tall.isError, textOf(tall));
  assert.deepEqual(tall.content.map((b) => b.type), ['text']);
  // (Asked as JPEG: the file's name says so, and its bytes are one.)
  const file = textOf(tall).match(/saved to (\S+\.jpg)\./)?.[1];
  assert.ok(file && fs.readFileSync(file)[0] === 0xff && fs.readFileSync(file)[1] === 0xd8, textOf(tall));
  // Nothing of the image's bytes and no planted secret in any model request or the session log.
  const seen = JSON.stringify([host.model.requests, agent.session.events]);
  assert.ok(!seen.includes(PNG_BASE64), 'Base64 of a PNG reached the model or the log');
  for (const s of SECRETS) assert.ok(!seen.includes(s), `${s} reached the model or the log`);
});

test('/chrome status answers the person and leaves no trace in the next model request', async () => {
  const agent = await host.run('hello', [() => ({ text: 'Hi.' })]);
  const done = await host.ctx.commands.execute(agent, '/chrome status', [], new AbortController().signal);
  assert.equal(done.result.kind, 'success', JSON.stringify(done));
  assert.match(done.result.text, /"runtimeId"/);
  const bad = await host.ctx.commands.execute(agent, '/chrome nope', [], new AbortController().signal);
  assert.equal(bad.result.kind, 'error');
  await host.run('And now?', [() => ({ text: 'Fine.' })], agent);
  const next = JSON.stringify(host.model.requests.at(-1).messages);
  assert.ok(!next.includes('runtimeId') && !next.includes('/chrome'), next.slice(0, 400));
});

test('the Bridge down (and not to be started: PCC_AUTOSTART=0): an error result that names the fix', async () => {
  await c.br.stop();
  process.env.PCC_AUTOSTART = '0';
  try {
    const agent = await host.run('List my tabs.', [() => ({ calls: [['browser_tabs', {}]] }), () => ({ text: 'Done.' })]);
    const [r] = results(agent);
    assert.equal(r.isError, true);
    assert.match(textOf(r), /BRIDGE_UNREACHABLE.*start the Bridge with `pcc bridge`.*`pcc doctor` names what is missing/s);
  } finally {
    delete process.env.PCC_AUTOSTART;
    await c.br.start();
    await c.br.connected();
  }
});

test('disposing the plugin removes every tool and the command', async () => {
  const agent = await host.run('hello', [() => ({ text: 'Hi.' })]);
  await host.unload();
  await host.run('again', [() => ({ text: 'Hi.' })], agent);
  assert.deepEqual((host.model.requests.at(-1).tools ?? []).filter((t) => t.name.startsWith('browser_')), []);
  assert.ok(!host.ctx.commands.list(agent).some((d) => d.name === 'chrome'));
});
