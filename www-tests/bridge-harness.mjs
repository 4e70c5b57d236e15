// A `pcc bridge` of its own for a test file: a free loopback port, a temporary state
// directory, raw HTTP with full control of the headers, the CLI, and the extension pointed
// at it.
import { before, after } from 'node:test';
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launch } from './harness.mjs';
import { startServer } from './server.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pccBin = path.join(root, 'target', 'debug', 'pcc');

export async function freePort() {
  const s = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

export async function until(what, fn, ms = 20000) {
  const start = Date.now();
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a Bridge (`args`: more `pcc bridge` flags); `b` (from harness.launch) is connected
 * to it when given. */
export async function startBridge(b, { args = [] } = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-home-'));
  const port = await freePort();
  // PCC_AUTOSTART=0: this harness starts and stops its Bridge itself; a CLI call that found it
  // stopped would otherwise start another (onboarding.test.mjs tests that path).
  const env = { ...process.env, PCC_HOME: home, PCC_PORT: String(port), PCC_AUTOSTART: '0' };
  const token = () => fs.readFileSync(path.join(home, 'token'), 'utf8').trim();

  const request = (method, urlPath, { headers = {}, body } = {}) => new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, setHost: !('Host' in headers) }, (res) => {
      let data = '';
      res.on('data', (c) => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode, json: data ? JSON.parse(data) : undefined, text: data }));
    });
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve({ status: res.statusCode, upgraded: true }); });
    req.on('error', reject);
    req.end(body);
  });
  const call = (method, params = {}, responseMode) => request('POST', '/call', {
    headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
    body: JSON.stringify(responseMode === undefined ? { method, params } : { method, params, responseMode }),
  });
  const health = async () => (await request('GET', '/health', { headers: { authorization: `Bearer ${token()}` } })).json;
  const connected = () => until('the extension to connect', async () => { const h = await health(); return h?.connected && h; });
  const cli = (...args) => new Promise((resolve) => {
    execFile(pccBin, args, { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });

  let proc;
  const start = async () => {
    proc = spawn(pccBin, ['bridge', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    proc.stderr.on('data', () => {});
    await until('the Bridge to listen', async () => fs.existsSync(path.join(home, 'token')) && (await health()));
  };
  const stop = async () => {
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  await start();
  if (b) {
    await b.worker.evaluate(([p, t]) => globalThis.pcc.bridge.configure({ port: p, token: t }), [port, token()]);
    await connected();
  }
  return {
    home, port, env, token, request, call, health, connected, cli, start, stop,
    close: async () => { await stop(); fs.rmSync(home, { recursive: true, force: true }); },
  };
}

/**
 * Registers a test file's hooks: the test server, Chromium with the extension, and a Bridge
 * paired with it; `ready({server, b, br})` receives them.
 */
export function withBridge(ready) {
  const c = {};
  before(async () => {
    c.server = await startServer();
    c.b = await launch();
    c.br = await startBridge(c.b);
    ready(c);
  });
  after(async () => {
    await c.b?.close();
    await c.br?.close();
    await c.server?.close();
  });
}
