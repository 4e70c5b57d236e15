#!/usr/bin/env node
// node scripts/browser.mjs METHOD ['{json params}'] [--raw]
// One browser tool call through the local pi-control-chrome Bridge. Prints what `pcc call`
// prints (the compact result, page text fenced as untrusted content; --raw: the Bridge's
// raw JSON) and exits like pcc: 0 ok, 1 tool error, 2 usage, 3 Bridge unreachable.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = process.env.PCC_BIN
  || ['release', 'debug'].map((p) => path.join(root, 'target', p, 'pcc')).find((p) => existsSync(p))
  || 'pcc';

const args = process.argv.slice(2);
const raw = args.includes('--raw');
const [method, params = '{}'] = args.filter((a) => a !== '--raw');
if (!method || !/^browser_\w+$/.test(method)) {
  console.error('INVALID_REQUEST: usage: node scripts/browser.mjs METHOD [\'{"json":"params"}\'] [--raw]  (METHOD e.g. browser_snapshot)');
  process.exit(2);
}
const r = spawnSync(bin, [...(raw ? ['--raw'] : []), 'call', method, params], { stdio: 'inherit' });
if (r.error) {
  console.error(`BRIDGE_UNREACHABLE: cannot run ${bin}: ${r.error.message} (hint: build it with cargo build -p pcc-bridge in the checkout, or set PCC_BIN)`);
  process.exit(3);
}
process.exit(r.status ?? 3);
