// From nothing to a browser over MCP (issue #41), as the README's quick start types it: a
// fresh HOME and a fresh Chromium profile; `./build.sh install` (pcc onto ~/.local/bin, then
// `pcc setup`), `pcc setup --user-data-dir` for the test's profile (a browser started with
// --user-data-dir reads its hosts there), Chromium with dist/extension; then the MCP SDK starts
// `pcc mcp` by name and opens and reads a page. No configure(), no options page, no Bridge
// started by the test: the extension asks the native host, which starts the Bridge.
// Then `pi install dist/pi-package` and one prompt in that HOME, a stopped Bridge, and the
// broken states, each with the message that names its fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { launch } from './harness.mjs';
import { freePort, until } from './bridge-harness.mjs';
import { startServer } from './server.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-onboard-home-'));
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-onboard-profile-'));
const binDir = path.join(home, '.local', 'bin');
const state = path.join(home, '.config', 'pcc');
const version = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8').match(/^version = "(.+)"$/m)[1];

/** The ID Chrome derives from a manifest's `key` (the native host allows exactly this one). */
function idOfKey(key) {
  const hex = crypto.createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((d) => String.fromCharCode(97 + parseInt(d, 16))).join('');
}

let env;
let mcpConfig; // what `./build.sh install` printed on its `MCP config:` line
let server;
let browser;
let mcp;
const others = [];

/** A command with the fresh HOME's environment: `{code, stdout, stderr, ms}`. */
function run(cmd, args, extra = {}) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    execFile(cmd, args, { env: { ...env, ...extra }, cwd: root, maxBuffer: 64 << 20, timeout: 600000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout: String(stdout), stderr: String(stderr), ms: Date.now() - t0 });
    });
  });
}

const bridgeState = () => JSON.parse(fs.readFileSync(path.join(state, 'bridge.json'), 'utf8'));
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
async function stopBridge() {
  if (!fs.existsSync(path.join(state, 'bridge.json'))) return;
  const { pid } = bridgeState();
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  await until('the Bridge to exit', async () => !alive(pid), 10000);
}
const textOf = (r) => r.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');

before(async () => {
  server = await startServer();
  const keep = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^PCC_|^XDG_CONFIG_HOME$|^PI_CODING_AGENT_DIR$/.test(k)));
  const cargoHome = process.env.CARGO_HOME || path.join(os.homedir(), '.cargo');
  env = {
    ...keep,
    HOME: home,
    // The toolchain stays the machine's (build.sh builds nothing new: the suite's own build ran).
    CARGO_HOME: cargoHome,
    RUSTUP_HOME: process.env.RUSTUP_HOME || path.join(os.homedir(), '.rustup'),
    PATH: [binDir, path.join(cargoHome, 'bin'), process.env.PATH].join(':'),
    // Its own port: the machine's default one may be in use.
    PCC_PORT: String(await freePort()),
  };
});

after(async () => {
  await mcp?.close().catch(() => {});
  await browser?.close().catch(() => {});
  for (const p of others) p.kill('SIGTERM');
  await stopBridge().catch(() => {});
  await server?.close();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(profile, { recursive: true, force: true });
});

test('dist: one version everywhere; the store zip has no key; every permission it asks for is used', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'extension', 'manifest.json'), 'utf8'));
  assert.equal(manifest.version, version);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dist, 'pi-package', 'package.json'), 'utf8')).version, version);
  const zip = path.join(dist, `pi-control-chrome-extension-${version}.zip`);
  const zipped = JSON.parse((await run('unzip', ['-p', zip, 'manifest.json'])).stdout);
  assert.equal(zipped.key, undefined, 'the store assigns the ID');
  assert.equal(zipped.version, version);
  assert.deepEqual(zipped.icons && Object.keys(zipped.icons), ['16', '32', '48', '128']);
  const listing = (await run('unzip', ['-l', zip])).stdout;
  for (const f of ['background.js', 'wasm/pcc_bg.wasm', 'page/vendor/Readability.js', 'icons/icon128.png']) assert.ok(listing.includes(f), `${f} in the zip`);
  // Each permission and the code that uses it (the store refuses what a package does not use).
  const code = fs.readdirSync(path.join(root, 'extension'), { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(root, 'extension', f), 'utf8')).join('\n');
  const uses = {
    debugger: /chrome\.debugger\./, tabs: /chrome\.tabs\./, scripting: /chrome\.scripting\./, storage: /chrome\.storage\./,
    webNavigation: /chrome\.webNavigation\./, alarms: /chrome\.alarms/, offscreen: /chrome\.offscreen\./, downloads: /chrome\.downloads\./,
    tabGroups: /chrome\.tabGroups\./, clipboardRead: /execCommand\('paste'\)/, clipboardWrite: /execCommand\('copy'\)/,
    declarativeNetRequestWithHostAccess: /chrome\.declarativeNetRequest\./, nativeMessaging: /chrome\.runtime\.sendNativeMessage/,
  };
  assert.deepEqual([...zipped.permissions].sort(), Object.keys(uses).sort());
  for (const [perm, re] of Object.entries(uses)) assert.match(code, re, `${perm} is used`);
});

test('./build.sh install in a fresh HOME: pcc on ~/.local/bin, the native host registered for the browsers', async () => {
  const r = await run(path.join(root, 'build.sh'), ['install']);
  assert.equal(r.code, 0, r.stderr.slice(-2000));
  console.log(`./build.sh install (already built): ${r.ms} ms`);
  assert.ok(fs.statSync(path.join(binDir, 'pcc')).mode & 0o111, 'pcc is executable');
  const id = idOfKey(JSON.parse(fs.readFileSync(path.join(dist, 'extension', 'manifest.json'), 'utf8')).key);
  // No browser has run in this HOME: Chrome, Chromium and Edge get the host.
  for (const b of ['google-chrome', 'chromium', 'microsoft-edge']) {
    const m = JSON.parse(fs.readFileSync(path.join(home, '.config', b, 'NativeMessagingHosts', 'com.pi_control_chrome.pcc.json'), 'utf8'));
    assert.equal(m.path, fs.realpathSync(path.join(binDir, 'pcc')));
    assert.deepEqual(m.allowed_origins, [`chrome-extension://${id}/`]);
  }
  assert.match(r.stdout + r.stderr, /registered the native-messaging host for chromium/);
  // One next step, and the MCP config with the absolute path (a client started without the
  // shell's PATH still finds pcc).
  assert.equal(((r.stdout + r.stderr).match(/next:/gi) ?? []).length, 1, r.stdout + r.stderr);
  mcpConfig = JSON.parse((r.stdout + r.stderr).match(/^MCP config: (\{.*\})$/m)?.[1] ?? 'null');
  assert.deepEqual(mcpConfig, { command: fs.realpathSync(path.join(binDir, 'pcc')), args: ['mcp'] });
});

test('pcc setup for the profile, Chromium with dist/extension, and `pcc mcp` by name opens and reads a page: nothing configured, no Bridge started by hand', async () => {
  const setup = await run('pcc', ['setup', '--user-data-dir', profile]);
  assert.equal(setup.code, 0, setup.stderr);
  const t0 = Date.now();
  browser = await launch({ extension: path.join(dist, 'extension'), userDataDir: profile, env });
  const id = idOfKey(JSON.parse(fs.readFileSync(path.join(dist, 'extension', 'manifest.json'), 'utf8')).key);
  assert.equal(new URL(browser.worker.url()).host, id, 'the manifest key pins the ID the host allows');
  // The extension asked the native host, which started the Bridge; the extension linked to it.
  await until('the Bridge the native host started', async () => fs.existsSync(path.join(state, 'bridge.json')), 20000);
  const bridgePid = bridgeState().pid;
  const health = await until('the extension to link', async () => {
    const h = await run('pcc', ['health']);
    return h.code === 0 && JSON.parse(h.stdout).connected && JSON.parse(h.stdout);
  }, 20000);
  console.log(`browser start → extension linked through the native host: ${Date.now() - t0} ms`);
  assert.ok(health.connectionGeneration >= 1);
  assert.ok(JSON.parse(fs.readFileSync(path.join(state, 'native.json'), 'utf8')).contacts.some((c) => c.origin.includes(id)));

  // The person sees the link in the toolbar popup.
  const popup = await browser.context.newPage();
  await popup.goto(`chrome-extension://${id}/ui/popup.html`);
  assert.match(await until('the popup\'s link line', async () => popup.textContent('#link')), /^Linked to the local Bridge/);
  await popup.close();

  const transport = new StdioClientTransport({ command: 'pcc', args: ['mcp'], env, stderr: 'ignore' });
  mcp = new Client({ name: 'onboarding', version: '1.0.0' });
  await mcp.connect(transport);
  const { tools } = await mcp.listTools();
  assert.ok(tools.some((t) => t.name === 'browser_snapshot'));
  const opened = await mcp.callTool({ name: 'browser_tab_open', arguments: { url: server.url('basic.html') } });
  assert.ok(!opened.isError, textOf(opened));
  const snap = await mcp.callTool({ name: 'browser_snapshot', arguments: {} });
  assert.ok(!snap.isError, textOf(snap));
  assert.match(textOf(snap), /<untrusted-page-content>/);
  assert.match(textOf(snap), /button "[^"]+" \[ref=e\d+\]/);
  assert.equal(bridgeState().pid, bridgePid, 'the same Bridge served MCP');

  // The exchange itself, as the worker makes it: the running Bridge's port and token.
  const asked = await browser.worker.evaluate(async () => {
    const t0 = performance.now();
    const a = await chrome.runtime.sendNativeMessage('com.pi_control_chrome.pcc', { type: 'hello' });
    return { ms: Math.round(performance.now() - t0), port: a.port, started: a.started, same: a.token === (await chrome.storage.local.get('bridgeToken')).bridgeToken };
  });
  console.log(`one native-host exchange (pcc started by the browser, Bridge running): ${asked.ms} ms`);
  assert.deepEqual([asked.port, asked.started, asked.same], [Number(env.PCC_PORT), false, true]);

  const doctor = await run('pcc', ['doctor', '--user-data-dir', profile]);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.match(doctor.stdout, /ok +the extension is linked and paired/);
  assert.ok(!/MISSING/.test(doctor.stdout), doctor.stdout);
  // The person's blank tab the CLI's session falls on is not the agent's to read: a note, not
  // a problem, and the exit code says all is well.
  assert.ok(!/problems?\W+[^\n]*BROWSER_TAB_NOT_GRANTED/i.test(doctor.stdout), doctor.stdout);
});

test('the MCP config install printed works for a client started without ~/.local/bin on its PATH', async () => {
  const bare = { ...env, PATH: env.PATH.split(':').filter((d) => d !== binDir).join(':') };
  const transport = new StdioClientTransport({ command: mcpConfig.command, args: mcpConfig.args, env: bare, stderr: 'ignore' });
  const client = new Client({ name: 'onboarding-bare-path', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tabs = await client.callTool({ name: 'browser_tabs', arguments: {} });
    assert.ok(!tabs.isError, textOf(tabs));
  } finally {
    await client.close();
  }
});

test('pcc doctor without flags knows the profile setup registered, and a contact belongs to its profile', async () => {
  const plain = await run('pcc', ['doctor']);
  assert.match(plain.stdout, new RegExp(`ok +native-messaging host registered for [^\\n]*profile ${profile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), plain.stdout);
  // The native host noted which profile reached it (the browser's --user-data-dir).
  const contacts = JSON.parse(fs.readFileSync(path.join(state, 'native.json'), 'utf8')).contacts;
  assert.ok(contacts.some((c) => fs.realpathSync(c.profile || '/') === fs.realpathSync(profile)), JSON.stringify(contacts));
});

test('the CLI\'s errors name CLI commands, not MCP tools', async () => {
  // A session with no tab of its own, on the person's tab: the hint names the fix in CLI words.
  const r = await run('pcc', ['snapshot', '--tab', '999999']);
  assert.notEqual(r.code, 0);
  assert.ok(!/browser_[a-z]/.test(r.stderr), r.stderr);
  assert.match(r.stderr, /pcc [a-z]/, r.stderr);
});

test('a stopped Bridge: the next MCP call starts it, the extension links again, the call is answered', async () => {
  const before = bridgeState().pid;
  await stopBridge();
  const t0 = Date.now();
  const tabs = await mcp.callTool({ name: 'browser_tabs', arguments: {} });
  assert.ok(!tabs.isError, textOf(tabs));
  assert.match(textOf(tabs), /basic\.html/);
  console.log(`a call with the Bridge stopped: started and answered in ${Date.now() - t0} ms`);
  assert.notEqual(bridgeState().pid, before, 'pcc started a new Bridge');
});

test('pi: `pi install dist/pi-package` in the fresh HOME and one prompt give pi a working browser', async () => {
  const piDir = path.join(root, 'pi-tests', 'node_modules', '@mariozechner');
  const install = await run(process.execPath, [path.join(piDir, 'pi-coding-agent', 'dist', 'cli.js'), 'install', path.join(dist, 'pi-package')]);
  assert.equal(install.code, 0, install.stderr);
  const { createAgentSession, DefaultResourceLoader, SessionManager, AuthStorage, ModelRegistry } = await import(pathToFileURL(path.join(piDir, 'pi-coding-agent', 'dist', 'index.js')).href);
  const { registerFauxProvider, fauxAssistantMessage, fauxToolCall, fauxText } = await import(pathToFileURL(path.join(piDir, 'pi-ai', 'dist', 'index.js')).href);
  // pi runs `pcc` in its own process: the fresh HOME's PATH and port, nothing else.
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (/^PCC_/.test(k)) delete process.env[k];
  Object.assign(process.env, { HOME: home, PATH: env.PATH, PCC_PORT: env.PCC_PORT });
  try {
    const agentDir = path.join(home, '.pi', 'agent');
    const loader = new DefaultResourceLoader({ cwd: os.tmpdir(), agentDir });
    await loader.reload();
    assert.deepEqual(loader.getExtensions().errors, []);
    const faux = registerFauxProvider();
    faux.setResponses([
      fauxAssistantMessage(fauxToolCall('browser_tab_open', { url: server.url('basic.html') })),
      fauxAssistantMessage(fauxToolCall('browser_snapshot', {})),
      fauxAssistantMessage(fauxText('Done.')),
    ]);
    const authStorage = AuthStorage.inMemory();
    authStorage.setRuntimeApiKey(faux.getModel().provider, 'offline');
    const { session } = await createAgentSession({ cwd: os.tmpdir(), agentDir, authStorage, modelRegistry: ModelRegistry.create(authStorage), model: faux.getModel(), resourceLoader: loader, sessionManager: SessionManager.inMemory() });
    await session.prompt('Open the test page and read it.');
    const results = session.messages.filter((m) => m.role === 'toolResult');
    assert.equal(results.length, 2);
    for (const r of results) assert.ok(!r.isError, JSON.stringify(r.content).slice(0, 300));
    assert.match(results[1].content[0].text, /button "[^"]+" \[ref=e\d+\]/);
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
});

test('each missing piece: the message names the fix', async () => {
  // The Bridge stopped and not to be started (PCC_AUTOSTART=0): the CLI and doctor say how.
  await stopBridge();
  const off = await run('pcc', ['tabs'], { PCC_AUTOSTART: '0' });
  assert.equal(off.code, 3);
  assert.match(off.stderr, /^BRIDGE_UNREACHABLE: .*`pcc bridge`.*`pcc doctor` names what is missing/m);
  const down = await run('pcc', ['doctor'], { PCC_AUTOSTART: '0' });
  assert.equal(down.code, 3);
  assert.match(down.stdout, /MISSING +no Bridge answers on 127\.0\.0\.1:\d+.*\n +fix: .*pcc bridge/);
  // With calls starting it (the default), no Bridge running is nothing missing: no verdict
  // contradicts its fix, and doctor starts none itself.
  const idle = await run('pcc', ['doctor']);
  assert.equal(idle.code, 0, idle.stdout);
  assert.match(idle.stdout, /ok +no Bridge runs on 127\.0\.0\.1:\d+ now; the extension, the CLI and MCP start one when they need it/);
  assert.ok(!/none needed/.test(idle.stdout) && !fs.existsSync(path.join(state, 'bridge.json')), idle.stdout);

  // The extension not loaded: a Bridge no extension ever reached (from the profile checked:
  // another profile's contact is not this one's).
  await browser.close();
  browser = undefined;
  const another = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-onboard-another-'));
  const manualFirst = spawn('pcc', ['bridge'], { env, stdio: 'ignore' });
  await until('the Bridge to listen', async () => (await run('pcc', ['health'])).code !== 3 || undefined);
  const elsewhere = await run('pcc', ['doctor', '--user-data-dir', another]);
  assert.match(elsewhere.stdout, /MISSING +no extension has reached this Bridge or its native host from this profile/, elsewhere.stdout);
  const here = await run('pcc', ['doctor', '--user-data-dir', profile]);
  assert.match(here.stdout, /MISSING +the extension \(chrome-extension:\/\/[a-p]{32}\/\) reached the native host \d+ s ago/, here.stdout);
  manualFirst.kill('SIGTERM');
  await until('that Bridge to stop', async () => (await run('pcc', ['health'])).code === 3 || undefined);
  fs.rmSync(path.join(state, 'native.json'));
  const manual = spawn('pcc', ['bridge'], { env, stdio: 'ignore' });
  others.push(manual);
  await until('the Bridge to listen', async () => (await run('pcc', ['health'])).code !== 3 || undefined);
  const unloaded = await run('pcc', ['doctor']);
  assert.equal(unloaded.code, 3);
  assert.match(unloaded.stdout, /MISSING +no extension has reached this Bridge.*\n +fix: load dist\/extension .*Load unpacked.*pcc setup --extension-id/);

  // Not paired: an extension that holds another token (pasted by hand, say) is refused.
  const staleProfile = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-onboard-stale-'));
  const stale = await launch({ env, userDataDir: staleProfile });
  try {
    await stale.worker.evaluate((port) => globalThis.pcc.bridge.configure({ port, token: 'ab'.repeat(32) }), Number(env.PCC_PORT));
    const refused = await until('the refusal', async () => {
      const d = await run('pcc', ['doctor']);
      return /refused/.test(d.stdout) && d;
    });
    assert.equal(refused.code, 3);
    assert.match(refused.stdout, /MISSING +an extension tried to link and was refused: it does not hold this Bridge's token\n +fix: pcc setup/);
    // Its popup says the same to the person: no native host for this profile, and the fix.
    const popup = await stale.context.newPage();
    await popup.goto(`chrome-extension://${new URL(stale.worker.url()).host}/ui/popup.html`);
    const line = await until('the popup\'s link line', async () => popup.textContent('#link'));
    // The setup that fits: this install's ID when it is not the one pcc allows by itself, and
    // the profile a browser started with --user-data-dir reads.
    const id = new URL(stale.worker.url()).host;
    const pinned = idOfKey(JSON.parse(fs.readFileSync(path.join(dist, 'extension', 'manifest.json'), 'utf8')).key) === id;
    const setupWords = pinned ? 'pcc setup' : `pcc setup --extension-id ${id}`;
    assert.match(line, /^Not linked: pcc is not set up for this browser \(Specified native messaging host not found\.\)\. /);
    assert.ok(line.includes(`${setupWords} --user-data-dir DIR`), line);
    assert.equal(/--extension-id/.test(line), !pinned, line);
    // Set up for its profile: the popup, opened again, links at once (no wait for the worker's
    // next retry).
    const setStale = await run('pcc', ['setup', '--user-data-dir', staleProfile, ...(pinned ? [] : ['--extension-id', id])]);
    assert.equal(setStale.code, 0, setStale.stderr);
    await popup.close();
    const again = await stale.context.newPage();
    const t0 = Date.now();
    await again.goto(`chrome-extension://${id}/ui/popup.html`);
    const linked = await until('the popup\'s link line', async () => again.textContent('#link'));
    console.log(`popup opened after pcc setup: "${linked.slice(0, 40)}…" in ${Date.now() - t0} ms`);
    assert.match(linked, /^Linked to the local Bridge/, linked);
  } finally {
    await stale.close();
    fs.rmSync(staleProfile, { recursive: true, force: true });
  }

  // No host registered: doctor names `pcc setup`. `setup --remove` removes what setup made,
  // the profiles it registered included.
  const removed = await run('pcc', ['setup', '--remove']);
  assert.equal(removed.code, 0, removed.stderr);
  for (const dir of [profile, path.join(home, '.config', 'chromium')]) {
    assert.ok(!fs.existsSync(path.join(dir, 'NativeMessagingHosts', 'com.pi_control_chrome.pcc.json')), `${dir}: ${removed.stdout}`);
  }
  const unregistered = await run('pcc', ['doctor', '--user-data-dir', profile]);
  assert.match(unregistered.stdout, /MISSING +the native-messaging host is not registered.*\n +fix: pcc setup/);

  // Not on the PATH: doctor says where to add it.
  const noPath = await run(path.join(binDir, 'pcc'), ['doctor'], { PATH: process.env.PATH.split(':').filter((d) => d !== binDir).join(':') });
  assert.match(noPath.stdout, /MISSING +`pcc` is not on the PATH.*\n +fix: add its directory to PATH/);
});
