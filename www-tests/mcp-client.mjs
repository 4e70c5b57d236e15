// A minimal MCP client over stdio (JSON-RPC, one message per line) for the tests and the
// bench: `pcc mcp` and `@playwright/mcp` are driven through it.
import { spawn } from 'node:child_process';

/**
 * Starts `cmd args` and returns `{rpc(method, params) → message, notify(method), close()}`.
 * Nothing is sent until the caller initializes (`initialize` then `notifications/initialized`).
 */
export function mcpClient(cmd, args, { env = process.env, cwd, timeoutMs = 60000 } = {}) {
  const proc = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  proc.stderr.on('data', () => {});
  const waiting = new Map();
  let buffer = '';
  proc.stdout.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      waiting.get(msg.id)?.(msg);
    }
  });
  let nextId = 1;
  const rpc = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => reject(new Error(`${method} timed out`)), timeoutMs);
    waiting.set(id, (m) => { clearTimeout(timer); waiting.delete(id); resolve(m); });
    proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
  const notify = (method) => proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  return { rpc, notify, close: () => proc.kill() };
}
