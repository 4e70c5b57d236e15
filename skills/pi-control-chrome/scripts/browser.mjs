#!/usr/bin/env node
// node scripts/browser.mjs METHOD ['{json params}'] [--raw]
// node scripts/browser.mjs --tools [core|all|name,name…]
// One browser tool call through the local pi-control-chrome Bridge. Prints what `pcc call`
// prints (the compact result, page text fenced as untrusted content; --raw: the Bridge's
// raw JSON) and exits like pcc: 0 ok, 1 tool error, 2 usage, 3 Bridge unreachable.
// `--tools` lists a profile's tools (default core, the everyday loop; all: every tool) with
// their parameters, from the catalogue; every tool can be called either way.
import { spawnSync } from 'node:child_process';
// Finding `pcc`, and the words for a missing one, as every JavaScript host does.
import { notFound, pccBin } from '../../../hosts/pcc.mjs';

const bin = pccBin();

const args = process.argv.slice(2);
if (args[0] === '--tools') {
  // The catalogue's profile (hosts/catalogue.mjs, as pi and DSH read it).
  const { profileTools, SHARED } = await import('../../../hosts/catalogue.mjs');
  let shown;
  try {
    shown = profileTools(args[1] || process.env.PCC_TOOLS || 'core');
  } catch (e) {
    console.error(`INVALID_REQUEST: ${e.message}`);
    process.exit(2);
  }
  for (const t of shown) console.log(`${t.name}(${Object.keys(t.params).join(', ')}): ${t.description}`);
  console.log(SHARED);
  process.exit(0);
}
const raw = args.includes('--raw');
const [method, params = '{}'] = args.filter((a) => a !== '--raw');
if (!method || !/^browser_\w+$/.test(method)) {
  console.error('INVALID_REQUEST: usage: node scripts/browser.mjs METHOD [\'{"json":"params"}\'] [--raw]  (METHOD e.g. browser_snapshot)');
  process.exit(2);
}
const r = spawnSync(bin, [...(raw ? ['--raw'] : []), 'call', method, params], { stdio: 'inherit' });
if (r.error) {
  console.error(notFound(bin, r.error.code ?? r.error.message));
  process.exit(3);
}
process.exit(r.status ?? 3);
