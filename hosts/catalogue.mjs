// What the JavaScript hosts (the pi extension, the DSH plugin, the Skill's script) derive from
// the tool catalogue (extension/catalogue.json), written once: a profile's tools, a tool's
// parameters as a host shows them, and the parameters every tool shares, described once.
// (The Bridge reads the same catalogue in Rust: bridge/src/tools.rs, `profile` and
// `shared_text`, the same rules.)
// Owns: those three. Must never: describe a tool or parameter the catalogue does not hold.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const catalogue = JSON.parse(readFileSync(join(root, 'extension', 'catalogue.json'), 'utf8'));

/** The tools of a profile, as `pcc mcp --tools` reads it: core (the default), all, or a
 * comma-separated list of tool names (`browser_` may be left off); catalogue order. Throws
 * on an unknown name. */
export function profileTools(spec) {
  const s = String(spec || 'core').trim();
  if (s === 'all') return catalogue.tools;
  const names = catalogue.profiles[s] ?? s.split(',').map((n) => n.trim()).filter(Boolean).map((n) => (n.startsWith('browser_') ? n : `browser_${n}`));
  for (const n of names) if (!catalogue.tools.some((t) => t.name === n)) throw new Error(`no tool ${n} (a profile is all, ${Object.keys(catalogue.profiles).join(', ')}, or a list of tool names)`);
  if (!names.length) throw new Error('the profile names no tool');
  return catalogue.tools.filter((t) => names.includes(t.name));
}

/** A tool's parameters as plain JSON Schema: the shared ones described once are bare here. */
export function schemaOf(t) {
  const properties = {};
  for (const [p, s] of Object.entries(t.params)) {
    if (typeof s !== 'string') properties[p] = s;
    else if (catalogue.describedOnce.includes(s)) properties[p] = { type: catalogue.shared[s].type };
    else properties[p] = catalogue.shared[s];
  }
  return { type: 'object', properties, ...(t.required?.length ? { required: t.required } : {}), additionalProperties: false };
}

/** The parameters every tool shares, described once (the MCP server's instructions say the same). */
export const SHARED = `Parameters every tool shares: ${catalogue.describedOnce.map((k) => `${k}: ${catalogue.shared[k].description}`).join('; ')}.`;
