// ./build.sh bench: what a model pays before it reads a page — the tool definitions every
// request carries (MCP `tools/list`, the JSON of the tool array), for `pcc mcp`'s profiles and
// @playwright/mcp's default, in characters and in cl100k tokens. Writes bench/definitions.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { mcpClient } from '../www-tests/mcp-client.mjs';
import { pccBin } from '../www-tests/bridge-harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PW_MCP = path.join(here, 'node_modules', '@playwright', 'mcp', 'cli.js');

/** The tool array `tools/list` gives, as JSON text. */
async function definitions(cmd, args, opts = {}) {
  const c = mcpClient(cmd, args, { timeoutMs: 60000, ...opts });
  try {
    await c.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    c.notify('notifications/initialized');
    const tools = (await c.rpc('tools/list', {})).result.tools;
    return { tools: tools.length, text: JSON.stringify(tools) };
  } finally {
    c.close();
  }
}

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-mcp-'));
const rows = [
  ['pcc mcp (default: core)', await definitions(pccBin, ['mcp'])],
  ['pcc mcp --tools all', await definitions(pccBin, ['mcp', '--tools', 'all'])],
  ['@playwright/mcp (default)', await definitions(process.execPath, [PW_MCP, '--headless', '--isolated', '--executable-path', '/usr/bin/chromium'], { cwd })],
  ['@playwright/mcp --caps vision,pdf,devtools', await definitions(process.execPath, [PW_MCP, '--headless', '--isolated', '--executable-path', '/usr/bin/chromium', '--caps', 'vision,pdf,devtools'], { cwd })],
].map(([server, d]) => ({ server, tools: d.tools, chars: d.text.length, tokens: encode(d.text).length }));
const peer = rows[2];
console.log('tool definitions (tools/list JSON; tokens: cl100k)');
for (const r of rows) console.log(`${r.server.padEnd(44)} ${String(r.tools).padStart(3)} tools ${String(r.chars).padStart(7)} chars ${String(r.tokens).padStart(6)} tokens  ${(r.chars / peer.chars).toFixed(2)}× the peer's default`);
fs.writeFileSync(path.join(here, 'definitions.json'), JSON.stringify({ date: new Date().toISOString(), rows }, null, 1));
