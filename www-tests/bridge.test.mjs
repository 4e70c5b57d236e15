// The Bridge, the CLI and the MCP server end to end: `pcc bridge` on a free loopback port,
// headless Chromium with the extension connected to it, the CLI and a scripted MCP client
// over stdio driving snapshot, click and AX diff; response modes, the JS host's local
// projection (pkg/node) and the Bridge's security checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBridge, freePort, pccBin, withBridge, until } from './bridge-harness.mjs';
import { mcpClient } from './mcp-client.mjs';
import { pixelsOf } from './harness.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const host = createRequire(import.meta.url)(path.join(root, 'pkg', 'node', 'pcc.js'));

const FENCE_OPEN = '<untrusted-page-content>';
const FENCE_CLOSE = '</untrusted-page-content>';

let b, server, br;
const cli = (...a) => br.cli(...a);
const callBridge = (...a) => br.call(...a);
const request = (...a) => br.request(...a);
const health = () => br.health();
const token = () => br.token();

/** Model text → {json, body, head}: the fence stripped (page-derived results must have
 * one; `fenced: false` for results in our own words), the first line JSON, the rest page
 * text; `head` is every character that is not page state. */
function parseModelText(text, { fenced = true } = {}) {
  let lines = text.trim().split('\n');
  if (fenced) {
    assert.equal(lines[0], FENCE_OPEN, text.slice(0, 200));
    assert.equal(lines.at(-1), FENCE_CLOSE);
    lines = lines.slice(1, -1);
  } else {
    assert.ok(!text.includes(FENCE_OPEN), text.slice(0, 200));
  }
  const body = lines.slice(1).join('\n');
  return { json: JSON.parse(lines[0]), body, head: text.trim().length - body.length };
}

/** Model text carries each fact once: no connection ids, no window, the handle's tab id once. */
function assertLean(json, what) {
  const text = JSON.stringify(json);
  for (const k of ['connectionId', 'connectionGeneration', 'windowId', 'browserId', 'nodeCount', 'charCount']) assert.ok(!text.includes(`"${k}"`), `${what}: ${k} in ${text}`);
}

const refOf = (state, re) => state.split('\n').find((l) => re.test(l))?.match(/\[ref=(\w+)\]/)?.[1];

withBridge((c) => ({ server, b, br } = c));

test('health: compact capability and the connection identity', async () => {
  const r = await cli('health');
  assert.equal(r.code, 0, r.stderr);
  const h = JSON.parse(r.stdout);
  assert.equal(h.capabilities.compactResponses, true);
  assert.equal(h.connected, true);
  assert.ok(h.browserId.startsWith('chrome:') && h.connectionId && h.connectionGeneration >= 1, r.stdout);
  assert.equal(fs.statSync(path.join(br.home, 'token')).mode & 0o777, 0o600);
  assert.equal(fs.statSync(br.home).mode & 0o777, 0o700);
});

test('CLI: open, snapshot, click and an AX diff, compact and fenced by default', async () => {
  const opened = await cli('open', server.url('basic.html'));
  assert.equal(opened.code, 0, opened.stderr);
  const tabId = parseModelText(opened.stdout).json.tab.id;
  assert.ok(Number.isInteger(tabId));

  const snap = await cli('snapshot', '--tab', String(tabId));
  assert.equal(snap.code, 0, snap.stderr);
  const { json, body } = parseModelText(snap.stdout);
  assert.match(json.snapshotId, /^snapshot-/);
  assert.equal(json.tab.id, tabId);
  assert.ok(json.tab.handle.tabFence, snap.stdout.slice(0, 300));
  assert.ok(json.tab.handle.incarnation, snap.stdout.slice(0, 300));
  assertLean(json, 'CLI snapshot');
  assert.match(body, /heading "Orders"/);
  const counter = refOf(body, /button "Click me"/);
  assert.ok(counter, body);

  const click = await cli('click', counter, '--snapshot', json.snapshotId, '--tab', String(tabId));
  assert.equal(click.code, 0, click.stderr + click.stdout);
  assert.equal(parseModelText(click.stdout, { fenced: false }).json.ok, true);

  const ax1 = parseModelText((await cli('ax', '--tab', String(tabId))).stdout);
  assert.equal(ax1.json.mode, 'full');
  assert.match(ax1.body, /Clicked 1 times/);
  const again = await cli('click', counter, '--snapshot', json.snapshotId, '--tab', String(tabId));
  assert.equal(again.code, 0, again.stderr);
  const ax2 = parseModelText((await cli('ax', '--tab', String(tabId))).stdout);
  assert.equal(ax2.json.mode, 'diff', JSON.stringify(ax2));
  assert.equal(ax2.json.baseSnapshotId, ax1.json.snapshotId);
  assert.match(ax2.body, /^~ .*Clicked 2 times/m);
  assert.ok(ax2.body.length < 200, ax2.body);
  const ax3 = parseModelText((await cli('ax', '--tab', String(tabId))).stdout, { fenced: false });
  assert.equal(ax3.json.mode, 'unchanged');

  // find (fenced page text) and a locator read of its ref.
  const found = await cli('find', 'Hover me', '--tab', String(tabId));
  assert.equal(found.code, 0, found.stderr);
  const f = parseModelText(found.stdout);
  assert.equal(f.json.matches, 1, found.stdout);
  const fref = refOf(f.body, /button "Hover me"/);
  const text = await cli('locator', 'text', fref, '--snapshot', f.json.snapshotId, '--tab', String(tabId));
  assert.equal(text.code, 0, text.stderr);
  assert.equal(parseModelText(text.stdout).json.value, 'Hover me'); // page text: fenced

  // Scripts can rely on exit codes and stderr.
  const stale = await cli('click', 'e999', '--snapshot', json.snapshotId, '--tab', String(tabId));
  assert.equal(stale.code, 1);
  assert.match(stale.stderr, /^BROWSER_STALE_REF: .*\(hint: /);
  assert.equal((await cli('click')).code, 2, 'usage error');
  assert.equal((await cli('snapshot', '--port', String(await freePort()))).code, 3, 'no Bridge there');
  const raw = await cli('--raw', 'tabs');
  assert.equal(raw.code, 0);
  assert.ok(JSON.parse(raw.stdout).tabs.some((t) => t.id === tabId));
  for (const cmd of ['snapshot', 'click', 'ax', 'mcp', 'bridge', 'screenshot']) {
    const help = await cli(cmd, '--help');
    assert.equal(help.code, 0, cmd);
    assert.match(help.stdout, /Usage: pcc/);
  }
  // A screenshot goes to a file; the text is exactly the tool's sentence, no Base64.
  const png = path.join(br.home, 'shot.png');
  const shot = await cli('screenshot', '--tab', String(tabId), '--path', png);
  assert.equal(shot.code, 0, shot.stderr);
  assert.equal(shot.stdout.trim(), `Screenshot captured for tab ${tabId}.`);
  assert.deepEqual([...fs.readFileSync(png).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  await cli('close', String(tabId));
});

test('an empty string reaches the worker as given: browser_fill {text: ""} clears a field through pcc call and MCP', async () => {
  const tabId = (await callBridge('browser_tab_open', { url: server.url('basic.html') })).json.tab.id;
  const value = async () => (await b.worker.evaluate(async (id) => (await chrome.scripting.executeScript({ target: { tabId: id }, func: () => document.getElementById('q').value }))[0].result, tabId));
  const target = { label: 'Search' };
  assert.ok(!(await callBridge('browser_fill', { tabId, target, text: 'abc' })).json.error);
  assert.equal(await value(), 'abc');
  const viaCli = await cli('call', 'browser_fill', JSON.stringify({ tabId, target, text: '' }));
  assert.equal(viaCli.code, 0, viaCli.stderr + viaCli.stdout);
  assert.equal(await value(), '', 'the CLI sent the empty text');
  assert.ok(!(await callBridge('browser_fill', { tabId, target, text: 'xyz' })).json.error);
  const c = mcpClient(pccBin, ['mcp'], { env: br.env });
  try {
    await c.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    c.notify('notifications/initialized');
    const r = (await c.rpc('tools/call', { name: 'browser_fill', arguments: { tabId, target, text: '' } })).result;
    assert.ok(!r.isError, JSON.stringify(r));
  } finally {
    c.close();
  }
  assert.equal(await value(), '', 'MCP sent the empty text');
  await callBridge('browser_tab_close', { tabId });
});

test('raw vs compact: same model-visible fields; the JS host projection equals the Bridge', async () => {
  const open = (await callBridge('browser_tab_open', { url: server.url('frames.html') })).json;
  const tabId = open.tab.id;
  const raw = (await callBridge('browser_snapshot', { tabId })).json;
  const compact = (await callBridge('browser_snapshot', { tabId }, 'compact')).json;
  assert.ok(!raw.error && !compact.error, JSON.stringify(compact).slice(0, 300));
  // Representation only: the same state, counts, handle and connection identity.
  const local = host.project('browser_snapshot', raw);
  assert.deepEqual({ ...local.snapshot, snapshotId: 'x' }, { ...compact.snapshot, snapshotId: 'x' });
  assert.deepEqual(local.tab, compact.tab);
  for (const k of ['browserId', 'connectionId', 'connectionGeneration']) assert.equal(compact[k], raw[k], k);
  assert.deepEqual(compact.tab.handle, raw.tab.handle);
  // Idempotent, in the JS host and against the Bridge's own output.
  assert.deepEqual(host.project('browser_snapshot', compact), compact);
  assert.deepEqual(host.project('browser_snapshot', local), local);
  // A deterministic read: the Bridge's compact result is exactly the host's projection of raw.
  const rawTabs = (await callBridge('browser_tabs')).json;
  const compactTabs = (await callBridge('browser_tabs', {}, 'compact')).json;
  assert.deepEqual(host.project('browser_tabs', rawTabs), compactTabs);
  for (const [m, p] of [['browser_accessibility_snapshot', { tabId, disableDiffing: true }], ['browser_extract', { tabId }], ['browser_dom_cua', { tabId }], ['browser_selected_tab', { tabId }]]) {
    const c = (await callBridge(m, p, 'compact')).json;
    assert.ok(!c.error, `${m}: ${JSON.stringify(c).slice(0, 300)}`);
    assert.deepEqual(host.project(m, c), c, m);
    const keys = JSON.stringify(c).match(/"(\w+)":/g).map((k) => k.slice(1, -2));
    for (const banned of ['frameTree', 'text', 'elements', 'accessibility', 'timing', 'favIconUrl']) assert.ok(!keys.includes(banned), `${m} has ${banned}`);
    assert.ok(c.connectionId && c.tab.id === tabId, m);
  }
  // The model text of a compact result is the same in every host.
  assert.equal(host.modelText('browser_snapshot', compact), host.modelText('browser_snapshot', host.project('browser_snapshot', compact)));
  assert.equal(host.modelText('browser_snapshot', raw).split('\n').slice(2).join('\n'), host.modelText('browser_snapshot', compact).split('\n').slice(2).join('\n'));
  await callBridge('browser_tab_close', { tabId });
});

test('modes are validated: an invalid mode and compact without a projection are INVALID_REQUEST', async () => {
  const bad = await callBridge('browser_snapshot', {}, 'tiny');
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.code, 'INVALID_REQUEST');
  assert.ok(bad.json.error.hint);
  const click = await callBridge('browser_click', { ref: 'e1', snapshotId: 'snapshot-1' }, 'compact');
  assert.equal(click.json.error.code, 'INVALID_REQUEST');
  assert.throws(() => host.project('browser_click', {}), (e) => e.code === 'INVALID_REQUEST');
  const notJson = await request('POST', '/call', { headers: { authorization: `Bearer ${token()}` }, body: 'nope' });
  assert.equal(notJson.json.error.code, 'INVALID_REQUEST');
});

test('security: no token, a wrong token, a foreign Origin, a non-loopback Host, a page WebSocket are refused', async () => {
  const body = JSON.stringify({ method: 'browser_tabs' });
  const none = await request('POST', '/call', { body });
  assert.equal(none.status, 401);
  assert.equal(none.json.error.code, 'BRIDGE_UNAUTHORIZED');
  assert.equal((await request('GET', '/health')).status, 401);
  const wrong = await request('POST', '/call', { headers: { authorization: 'Bearer 0000' }, body });
  assert.equal(wrong.status, 401);
  const auth = { authorization: `Bearer ${token()}` };
  const origin = await request('POST', '/call', { headers: { ...auth, origin: 'https://evil.example' }, body });
  assert.equal(origin.status, 403);
  assert.equal(origin.json.error.code, 'BRIDGE_FORBIDDEN');
  const rebound = await request('POST', '/call', { headers: { ...auth, Host: `evil.example:${br.port}` }, body });
  assert.equal(rebound.status, 403);
  const ws = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' };
  const pageSocket = await request('GET', '/extension', { headers: { ...ws, Origin: 'https://evil.example' } });
  assert.equal(pageSocket.status, 403);
  assert.ok(!pageSocket.upgraded);
  assert.equal((await request('GET', '/extension', { headers: ws })).status, 403, 'no Origin at all');
  // The legitimate extension is still connected after all that.
  assert.equal((await health()).connected, true);
});

test('MCP: the default profile is the catalogue\'s core; --tools and PCC_TOOLS choose another; a bad one is a usage error', async () => {
  const catalogue = await b.worker.evaluate(() => globalThis.pcc.catalogue());
  const listed = async (args, env = {}) => {
    const c = mcpClient(pccBin, ['mcp', ...args], { env: { ...br.env, ...env } });
    try {
      await c.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
      c.notify('notifications/initialized');
      return (await c.rpc('tools/list', {})).result.tools.map((t) => t.name);
    } finally {
      c.close();
    }
  };
  assert.deepEqual((await listed([])).sort(), [...catalogue.profiles.core].sort());
  assert.deepEqual(await listed(['--tools', 'console,browser_network']), ['browser_console', 'browser_network']);
  assert.equal((await listed([], { PCC_TOOLS: 'all' })).length, catalogue.tools.length);
  const bad = await br.cli('mcp', '--tools', 'nope');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no tool browser_nope/);
});

test('MCP over stdio: tools with schemas; snapshot, click and AX diff; screenshot as an image', async () => {
  const tabId = (await callBridge('browser_tab_open', { url: server.url('basic.html') })).json.tab.id;
  const mcp = mcpClient(pccBin, ['mcp', '--tools', 'all'], { env: br.env });
  const { rpc } = mcp;
  try {
    const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    assert.ok(init.result?.capabilities?.tools, JSON.stringify(init));
    assert.match(init.result.instructions, /untrusted-page-content/);
    mcp.notify('notifications/initialized');
    const list = (await rpc('tools/list', {})).result.tools;
    const snapTool = list.find((t) => t.name === 'browser_snapshot');
    assert.equal(snapTool.inputSchema.type, 'object');
    assert.ok(snapTool.inputSchema.properties.selector);
    const click = list.find((t) => t.name === 'browser_click').inputSchema.properties;
    assert.ok(click.ref && click.snapshotId && click.x && click.y, JSON.stringify(click));
    // One catalogue: `--tools all` lists exactly the extension's tool set (the router serves
    // every tool whatever a host's profile).
    const served = await b.worker.evaluate(() => globalThis.pcc.tools);
    assert.deepEqual(list.map((t) => t.name).sort(), [...served].sort());
    // Schemas and annotations are the catalogue's (a host may auto-approve on them).
    const catalogue = await b.worker.evaluate(() => globalThis.pcc.catalogue());
    // Annotations as MCP reads them: a hint left out has MCP's default (not read-only,
    // destructive, not idempotent); destructive and idempotent say nothing on a read.
    const hints = (m) => {
      const readOnly = m.annotations?.readOnlyHint ?? false;
      return readOnly ? [true] : [false, m.annotations?.destructiveHint ?? true, m.annotations?.idempotentHint ?? false];
    };
    for (const t of catalogue.tools) {
      const m = list.find((x) => x.name === t.name);
      assert.deepEqual(Object.keys(m.inputSchema.properties).sort(), Object.keys(t.params).sort(), t.name);
      const a = t.annotations;
      assert.deepEqual(hints(m), a.readOnly ? [true] : [false, a.destructive, a.idempotent], t.name);
    }
    for (const n of ['browser_tab_close', 'browser_navigate', 'browser_evaluate', 'browser_click']) assert.deepEqual(hints(list.find((x) => x.name === n)).slice(0, 2), [false, true], n);
    // The shared parameters are described once, in the instructions.
    assert.match(init.result.instructions, /Parameters every tool shares: tabId: /);
    assert.equal(list.find((x) => x.name === 'browser_select_option').inputSchema.properties.values.type, 'array');
    const call = async (name, args) => (await rpc('tools/call', { name, arguments: args })).result;

    const snap = await call('browser_snapshot', { tabId });
    assert.ok(!snap.isError, JSON.stringify(snap).slice(0, 300));
    const { json, body, head } = parseModelText(snap.content[0].text);
    assertLean(json, 'MCP snapshot');
    // The envelope (fence included) besides the page's own title and URL.
    const pageWords = json.tab.title.length + json.tab.url.length;
    assert.ok(head - pageWords <= 200, `snapshot envelope ${head - pageWords} chars: ${snap.content[0].text.slice(0, 400)}`);
    const ref = refOf(body, /button "Click me"/);
    const clicked = await call('browser_click', { tabId, ref, snapshotId: json.snapshotId });
    assert.ok(!clicked.isError, JSON.stringify(clicked));
    const outcome = parseModelText(clicked.content[0].text, { fenced: false }).json;
    assert.ok(clicked.content[0].text.length <= 120 && outcome.ok === true && Number.isInteger(outcome.settledMs), clicked.content[0].text);
    const ax1 = parseModelText((await call('browser_accessibility_snapshot', { tabId, sessionId: 'mcp' })).content[0].text);
    assert.equal(ax1.json.mode, 'full');
    await call('browser_click', { tabId, ref, snapshotId: json.snapshotId });
    const ax2 = parseModelText((await call('browser_accessibility_snapshot', { tabId, sessionId: 'mcp' })).content[0].text);
    assert.equal(ax2.json.mode, 'diff');
    assert.match(ax2.body, /Clicked 2 times/);

    const stale = await call('browser_click', { tabId, ref: 'e999', snapshotId: json.snapshotId });
    assert.equal(stale.isError, true);
    assert.match(stale.content[0].text, /BROWSER_STALE_REF/);

    const shot = await call('browser_screenshot', { tabId });
    assert.equal(shot.content[0].text, `Screenshot captured for tab ${tabId}.`);
    assert.equal(shot.content[1].type, 'image');
    assert.equal(shot.content[1].mimeType, 'image/png');
    assert.ok(!/iVBOR/.test(shot.content[0].text));
    // `path`: the MCP server writes the PNG on its machine; the text stays the sentence.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-shot-')), 'page.png');
    const saved = await call('browser_screenshot', { tabId, path: file });
    assert.equal(saved.content[0].text, `Screenshot captured for tab ${tabId}.`);
    assert.deepEqual([...fs.readFileSync(file).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal(Buffer.from(saved.content[1].data, 'base64').compare(fs.readFileSync(file)), 0, 'the file is the image shown');
    // Another format: the image item says its own type, and the file's name must say it too.
    const jpeg = path.join(path.dirname(file), 'page.jpg');
    const asJpeg = await call('browser_screenshot', { tabId, format: 'jpeg', quality: 60, path: jpeg });
    assert.equal(asJpeg.content[1].mimeType, 'image/jpeg');
    assert.deepEqual([...fs.readFileSync(jpeg).subarray(0, 2)], [0xff, 0xd8]);
    const misnamed = await call('browser_screenshot', { tabId, format: 'webp', path: file });
    assert.equal(misnamed.isError, true);
    assert.match(misnamed.content[0].text, /INVALID_REQUEST.*\.webp/);
    for (const bad of ['relative.png', path.join(path.dirname(file), 'shot.txt'), path.join(path.dirname(file), 'missing', 'a.png')]) {
      const r = await call('browser_screenshot', { tabId, path: bad });
      assert.equal(r.isError, true, bad);
      assert.match(r.content[0].text, /INVALID_REQUEST/, bad);
    }
    // Straight to the extension, a path is refused (it cannot write local files).
    assert.equal((await callBridge('browser_screenshot', { tabId, path: file })).json.error?.code, 'INVALID_REQUEST');
  } finally {
    mcp.close();
    await callBridge('browser_tab_close', { tabId });
  }
});

test('pairing: the token via pcc pair; a Bridge with another token is refused by the extension, and refuses it', async () => {
  const pair = await cli('pair');
  assert.equal(pair.code, 0);
  assert.equal(pair.stdout.trim(), token());
  assert.match(pair.stderr, /options/);
  // Another Bridge (another install, another token) on another port: no link either way.
  const other = await startBridge();
  try {
    const state = () => b.worker.evaluate(() => globalThis.pcc.bridge.state());
    await b.worker.evaluate((p) => globalThis.pcc.bridge.configure({ port: p }), other.port);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await other.health()).connected, false, 'the other Bridge got no link');
    const st = await state();
    assert.equal(st.connected, false);
    assert.match(st.problem, /not a Bridge holding this token/);
    // The extension now holds the other token but the first Bridge does not accept it.
    await b.worker.evaluate(([p, t]) => globalThis.pcc.bridge.configure({ port: p, token: t }), [br.port, other.token()]);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await health()).connected, false, 'an extension without this token gets no link');
  } finally {
    await b.worker.evaluate(([p, t]) => globalThis.pcc.bridge.configure({ port: p, token: t }), [br.port, token()]);
    await br.connected();
    await other.close();
  }
  assert.ok(!(await callBridge('browser_tabs')).json.error);
});

test('a worker too busy to answer by the deadline: the Bridge answers for it (a read unavailable, a side effect uncertain)', async () => {
  const tabId = (await callBridge('browser_tab_open', { url: server.url('basic.html') })).json.tab.id;
  // A Bridge whose call deadline is 1 s (the default is budget.rs's 45 s); a worker whose
  // own deadline never fires and whose debugger commands never answer.
  br.env.PCC_CALL_DEADLINE_MS = '1000';
  await br.stop();
  await br.start();
  await br.connected();
  await b.worker.evaluate(() => {
    globalThis.__realSend = chrome.debugger.sendCommand.bind(chrome.debugger);
    chrome.debugger.sendCommand = () => {};
    globalThis.pcc.callDeadlineMs = 600000;
  });
  try {
    for (const [method, params, code] of [
      // (AX: a read the tab's held state cannot answer — browser_tab_open's result read the walk.)
      ['browser_snapshot', { tabId, source: 'chromium_ax' }, 'BROWSER_PAGE_UNAVAILABLE'],
      ['browser_press', { tabId, key: 'Tab' }, 'BROWSER_OPERATION_UNCERTAIN'],
    ]) {
      const t0 = Date.now();
      const r = await callBridge(method, params);
      const ms = Date.now() - t0;
      assert.equal(r.json.error?.code, code, `${method}: ${JSON.stringify(r.json).slice(0, 200)}`);
      // deadline 1 s + budget.rs's 2 s grace (a call's own `timeout` adds to it: a unit test).
      const by = 1000 + 2000;
      assert.ok(ms >= by - 100 && ms < by + 1500, `${method} answered after ${ms} ms (due at ${by})`);
      console.log(`${method}: the Bridge answered ${code} after ${ms} ms (due at ${by} ms)`);
    }
  } finally {
    await b.worker.evaluate(() => {
      chrome.debugger.sendCommand = globalThis.__realSend;
      delete globalThis.pcc.callDeadlineMs;
    });
    delete br.env.PCC_CALL_DEADLINE_MS;
    await br.stop();
    await br.start();
    await br.connected();
  }
  await callBridge('browser_tab_close', { tabId });
});

test('Bridge restart: the extension reconnects and connectionGeneration increases', async () => {
  const before = await health();
  await br.stop();
  await br.start();
  const after = await br.connected();
  assert.ok(after.connectionGeneration > before.connectionGeneration, `${before.connectionGeneration} → ${after.connectionGeneration}`);
  assert.notEqual(after.connectionId, before.connectionId);
  assert.equal(after.browserId, before.browserId);
  const tabs = (await callBridge('browser_tabs', {}, 'compact')).json;
  assert.equal(tabs.connectionGeneration, after.connectionGeneration);
});

test('Bridge under idle sockets: bounded, timed out, and still answering', async () => {
  // Sockets that never send a request (any local process can open them).
  const idle = [];
  let closed = 0;
  for (let i = 0; i < 300; i++) {
    const s = net.connect(br.port, '127.0.0.1');
    s.on('error', () => {});
    s.on('end', () => { closed++; });
    s.resume();
    idle.push(s);
  }
  await new Promise((r) => setTimeout(r, 300));
  const t0 = Date.now();
  const h = await health();
  assert.equal(h.connected, true);
  assert.ok(Date.now() - t0 < 9000, `answered after ${Date.now() - t0} ms`);
  // The Bridge closes the idle ones it accepted (its header timeout, 5 s).
  await until('idle sockets closed by the Bridge', async () => closed >= 250, 9000);
  for (const s of idle) s.destroy();
});

test('a Bridge that dies after a side-effect call was sent: BROWSER_OPERATION_UNCERTAIN, never "start the Bridge"', async () => {
  // Reads the request, then goes away without an answer.
  const dying = net.createServer((s) => { s.once('data', () => s.destroy()); s.on('error', () => {}); });
  await new Promise((r) => dying.listen(0, '127.0.0.1', r));
  const port = String(dying.address().port);
  try {
    const click = await cli('click', 'e1', '--snapshot', 'snapshot-x-1', '--port', port);
    assert.equal(click.code, 1, click.stderr);
    assert.match(click.stderr, /^BROWSER_OPERATION_UNCERTAIN: .*take a snapshot/);
    assert.ok(!/start the Bridge/.test(click.stderr), click.stderr);
    // A read that got no answer is safe to repeat: the Bridge is unreachable.
    const read = await cli('snapshot', '--port', port);
    assert.equal(read.code, 3, read.stderr);
    assert.match(read.stderr, /^BRIDGE_UNREACHABLE/);
  } finally {
    await new Promise((r) => dying.close(r));
  }
});

test('upload: the Bridge checks each path (absolute, existing, canonical) before the browser sets the file input', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-upload-'));
  const a = path.join(dir, 'report.txt');
  const c = path.join(dir, 'notes.md');
  fs.writeFileSync(a, 'hello');
  fs.writeFileSync(c, 'abc');
  const tabId = (await callBridge('browser_tab_open', { url: server.url('upload.html') })).json.tab.id;
  const up = await callBridge('browser_upload', { tabId, target: { label: 'Attachments' }, paths: [a, `${dir}/../${path.basename(dir)}/notes.md`] });
  assert.equal(up.status, 200, JSON.stringify(up.json));
  assert.ok(up.json.ok && up.json.files === 2, JSON.stringify(up.json));
  const page = b.context.pages().find((p) => p.url().endsWith('/upload.html'));
  assert.equal(await page.textContent('#out'), 'report.txt:5,notes.md:3');
  for (const paths of [['report.txt'], [path.join(dir, 'missing.txt')], [dir], []]) {
    const bad = await callBridge('browser_upload', { tabId, target: { label: 'Attachments' }, paths });
    assert.equal(bad.json?.error?.code, 'INVALID_REQUEST', `${paths}: ${JSON.stringify(bad.json)}`);
  }
  assert.equal((await callBridge('browser_upload', { tabId, target: { label: 'Avatar' }, paths: [a, c] })).json.error?.code, 'INVALID_REQUEST');
  assert.equal((await callBridge('browser_upload', { tabId, target: { label: 'Caption' }, paths: [a] })).json.error?.code, 'INVALID_REQUEST');
  await callBridge('browser_tab_close', { tabId });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a Bridge started with --idle-exit (as pcc starts one by itself) leaves once nothing uses it, and takes its bridge.json along', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-idle-'));
  const port = await freePort();
  const proc = spawn(pccBin, ['bridge', '--port', String(port), '--idle-exit', '1'], { env: { ...process.env, PCC_HOME: home }, stdio: 'ignore' });
  try {
    await until('its bridge.json', async () => fs.existsSync(path.join(home, 'bridge.json')), 10000);
    assert.equal(JSON.parse(fs.readFileSync(path.join(home, 'bridge.json'), 'utf8')).port, port);
    const code = await new Promise((r) => proc.once('exit', r));
    assert.equal(code, 0);
    assert.ok(!fs.existsSync(path.join(home, 'bridge.json')), 'bridge.json removed');
  } finally {
    proc.kill();
    fs.rmSync(home, { recursive: true, force: true });
  }
});

// Last in this file: the worker that Playwright's `b.worker` points at is gone afterwards.
test('a stopped service worker is started again, relinks within a second, and keeps its refs; a call in flight answers uncertain', async () => {
  const tabId = (await callBridge('browser_tab_open', { url: server.url('basic.html') })).json.tab.id;
  const snap = (await callBridge('browser_snapshot', { tabId })).json.snapshot;
  const ref = refOf(snap.state, /button "Click me"/);
  // An AX read too: its revision base must survive (the next read is a diff, not a full).
  const ax = (await callBridge('browser_accessibility_snapshot', { tabId })).json;
  assert.ok(!ax.error, JSON.stringify(ax.error));
  const before = await health();
  const cdp = await b.context.browser().newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
  // A side effect in flight while the worker stops: its outcome is unknown, never replayed.
  const inFlight = callBridge('browser_wait_for', { tabId, text: 'never on this page', timeout: 4000 });
  await new Promise((r) => setTimeout(r, 200));
  await cdp.send('Target.closeTarget', { targetId: sw.targetId });
  const t0 = Date.now();
  const flight = (await inFlight).json;
  assert.equal(flight.error?.code, 'BROWSER_OPERATION_UNCERTAIN', JSON.stringify(flight));
  // The link may drop and come back between two polls (the keeper wakes the worker within
  // a second): what must hold is a new connection, not a drop we happened to observe.
  const after = await until('the extension to reconnect', async () => {
    const h = await health();
    return h?.connected && h.connectionId !== before.connectionId && h;
  }, 10000);
  const ms = Date.now() - t0;
  assert.ok(ms <= 1000, `the link was down ${ms} ms`);
  assert.notEqual(after.connectionId, before.connectionId);
  const t1 = Date.now();
  const click = (await callBridge('browser_click', { tabId, ref, snapshotId: snap.snapshotId })).json;
  const firstCallMs = Date.now() - t1;
  assert.ok(!click.error, `the ref taken before the stop acts after it: ${JSON.stringify(click.error)}`);
  const again = (await callBridge('browser_accessibility_snapshot', { tabId })).json;
  assert.ok(['diff', 'unchanged'].includes(again.mode), `the AX revision base survived: ${JSON.stringify(again).slice(0, 300)}`);
  console.log(`worker stopped: link back after ${ms} ms; the first call after it (a click by an old ref) ${firstCallMs} ms`);
  await callBridge('browser_tab_close', { tabId });
});

test('a held repeat survives a worker restart: the snapshot and AX repeats of an unchanged page answer from what the core saved, and their refs act', async () => {
  const tabId = (await callBridge('browser_tab_open', { url: server.url('basic.html') })).json.tab.id;
  const first = (await callBridge('browser_snapshot', { tabId })).json.snapshot;
  const ax = (await callBridge('browser_accessibility_snapshot', { tabId })).json;
  assert.ok(!ax.error, JSON.stringify(ax.error));
  const repeat = (await callBridge('browser_snapshot', { tabId })).json.snapshot;
  assert.equal(repeat.snapshotId, first.snapshotId, 'an unchanged page gives its last snapshot again');
  await new Promise((r) => setTimeout(r, 500)); // (the core's state is written within stateWriteEveryMs)
  const before = await health();
  const cdp = await b.context.browser().newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
  await cdp.send('Target.closeTarget', { targetId: sw.targetId });
  await until('the extension to reconnect', async () => {
    const h = await health();
    return h?.connected && h.connectionId !== before.connectionId && h;
  }, 10000);
  const after = (await callBridge('browser_snapshot', { tabId })).json.snapshot;
  assert.equal(after.snapshotId, first.snapshotId, `the held snapshot answers after the restart: ${JSON.stringify(after).slice(0, 200)}`);
  const axAfter = (await callBridge('browser_accessibility_snapshot', { tabId })).json;
  assert.equal(axAfter.snapshot?.mode ?? axAfter.mode, 'unchanged', `the AX repeat is unchanged from the saved revision: ${JSON.stringify(axAfter).slice(0, 300)}`);
  const ref = refOf(after.state, /button "Click me"/);
  const click = (await callBridge('browser_click', { tabId, ref, snapshotId: after.snapshotId })).json;
  assert.ok(!click.error, `its refs act: ${JSON.stringify(click.error)}`);
  await callBridge('browser_tab_close', { tabId });
});

test('a screenshot hides what the text state hides on every surface: the Bridge\'s raw result, the CLI\'s file and MCP\'s image', async () => {
  const PASSWORD = 'Zq-PASS-661144';
  const tabId = (await callBridge('browser_tab_open', { url: server.url('secrets-on-screen.html') })).json.tab.id;
  const snap = (await callBridge('browser_snapshot', { tabId })).json.snapshot;
  const pw = refOf(snap.state, /textbox "Password"/);
  assert.ok(!(await callBridge('browser_fill', { tabId, ref: pw, snapshotId: snap.snapshotId, text: PASSWORD })).json.error);
  // Where the field and the page's copy of it are, and a control region (viewport CSS px).
  const at = JSON.parse((await callBridge('browser_evaluate', { tabId, expression: `JSON.stringify({ width: document.documentElement.clientWidth, points: ['pw', 'copy', 'control'].map((id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }) })` })).json.value);
  const pixels = (data) => pixelsOf(b.context, data, at.width, at.points);
  const hidden = (px) => px.slice(0, 2).every(([r, g, bl]) => r < 20 && g < 20 && bl < 20) && px[2][1] > 160;

  const raw = (await callBridge('browser_screenshot', { tabId })).json;
  assert.ok(hidden(await pixels(raw.attachment.data)), 'the Bridge\'s raw result');
  const png = path.join(br.home, 'secret-shot.png');
  const shot = await cli('screenshot', '--tab', String(tabId), '--path', png);
  assert.equal(shot.code, 0, shot.stderr);
  assert.ok(hidden(await pixels(fs.readFileSync(png).toString('base64'))), 'the CLI\'s file');
  const mcp = mcpClient(pccBin, ['mcp'], { env: br.env });
  try {
    await mcp.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    mcp.notify('notifications/initialized');
    const r = (await mcp.rpc('tools/call', { name: 'browser_screenshot', arguments: { tabId } })).result;
    const image = r.content.find((c) => c.type === 'image');
    assert.ok(hidden(await pixels(image.data)), 'MCP\'s image');
  } finally {
    mcp.close();
  }
  await callBridge('browser_tab_close', { tabId });
});
