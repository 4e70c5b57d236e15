// Owns: driving two MCP browser servers with one scripted plan — our `pcc mcp` and
// `@playwright/mcp` — and counting every character a model would read of each.
// Must never: give one side a hint the other lacks (both find each step's target by the same
// match over the lines their own tool showed), or count a result twice.
//
// Used by bench/tasks.mjs (local and corpus pages) and bench/apps.mjs (real applications).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpClient } from '../www-tests/mcp-client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PW_MCP = path.join(here, 'node_modules', '@playwright', 'mcp', 'cli.js');

/** An MCP server, initialized, whose `call` gives the text a model reads of one call. */
export async function mcpServer(cmd, args, opts) {
  const c = mcpClient(cmd, args, { timeoutMs: 90000, ...opts });
  await c.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  c.notify('notifications/initialized');
  return {
    async call(name, args) {
      const m = await c.rpc('tools/call', { name, arguments: args });
      if (m.error) return { text: JSON.stringify(m.error), error: true };
      const text = (m.result.content || []).filter((x) => x.type === 'text').map((x) => x.text).join('\n');
      return { text, error: m.result.isError === true };
    },
    close: c.close,
  };
}

/** `@playwright/mcp` on Debian's Chromium, headless, isolated, in a temporary working directory. */
export function playwrightServer({ blocked = 'https:;http://www.;http://cdn.' } = {}) {
  if (!fs.existsSync(PW_MCP)) throw new Error('@playwright/mcp is not installed: run ./build.sh bench (it installs bench/package.json)');
  const args = [PW_MCP, '--headless', '--isolated', '--executable-path', '/usr/bin/chromium', '--no-sandbox', '--viewport-size', '1280,720'];
  if (blocked) args.push('--blocked-origins', blocked);
  // It writes snapshots and logs into its working directory: a temporary one.
  return mcpServer(process.execPath, args, { cwd: fs.mkdtempSync(path.join(os.tmpdir(), 'pw-mcp-')) });
}

const REF = /\[ref=([\w-]+)\]/;

/**
 * What a model knows of the page: the lines it was shown, by ref (a diff's `-` line
 * removes one). `find(match)` gives the first line `match(line, threeLinesBefore,
 * threeLinesAfter)` accepts.
 */
class Known {
  constructor() { this.lines = new Map(); }
  reset() { this.lines.clear(); }
  learn(text, snapshotId) {
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      const ref = line.match(REF)?.[1];
      if (ref) this.lines.set(ref, { line, snapshotId, before: lines.slice(Math.max(0, i - 40), i), next: lines.slice(i + 1, i + 13) });
    }
  }
  /** A diff's removals (`- …` at the start of a line) make their refs unknown. */
  forget(text) {
    for (const line of text.split('\n')) if (line.startsWith('- ')) this.lines.delete(line.match(REF)?.[1]);
  }
  find(match) {
    for (const [ref, v] of this.lines) if (match(v.line, v.before, v.next)) return { ref, ...v };
    return undefined;
  }
}

/**
 * Our side: `pcc mcp`; reads are AX revisions of its agent session (full, then diffs); an
 * action that reached another page shows it (read the same way). Steps name our tools;
 * `extra` is passed as given.
 */
export function ours(client) {
  let tabId;
  const known = new Known();
  const idOf = (text) => text.match(/"snapshotId":"([^"]+)"/)?.[1];
  // A result that reached another page carries its state (the session's own way of reading: AX).
  const reached = (r) => {
    const id = !r.error && idOf(r.text);
    if (id) known.learn(r.text, id);
    return Boolean(id);
  };
  return {
    name: 'pcc',
    async open(url) {
      const r = await client.call('browser_tab_open', { url });
      tabId = Number(r.text.match(/"tab":\{"id":(\d+)/)?.[1]);
      known.reset();
      reached(r);
      return [r];
    },
    async navigate(url) {
      const r = await client.call('browser_navigate', { tabId, url });
      known.reset();
      return { results: [r], showsPage: reached(r) };
    },
    async read() {
      const r = await client.call('browser_accessibility_snapshot', { tabId });
      const id = idOf(r.text);
      if (/"mode":"diff"/.test(r.text)) known.forget(r.text);
      else if (!/"mode":"unchanged"/.test(r.text)) known.reset();
      known.learn(r.text, id);
      return [r];
    },
    find: (m) => known.find(m),
    async act(tool, target, extra) {
      const r = await client.call(tool, { tabId, ref: target.ref, snapshotId: target.snapshotId, ...extra });
      if (/"navigated":true/.test(r.text)) known.reset();
      return { results: [r], showsPage: reached(r) };
    },
    close: async () => { await client.call('browser_tab_close', { tabId }); },
  };
}

/**
 * Playwright MCP: its action results carry the page's snapshot (or its changes). Our tool
 * names map to its own: `browser_fill` is its `browser_type` (which fills), a select's
 * `value` its `values`, `browser_press` its `browser_press_key`.
 */
export function playwright(client) {
  const known = new Known();
  const learn = (r) => { if (REF.test(r.text)) known.learn(r.text); };
  const tools = { browser_fill: 'browser_type', browser_press: 'browser_press_key' };
  // Our browser_type presses key by key; its own does so with `slowly`.
  const more = { browser_type: { slowly: true } };
  return {
    name: 'playwright-mcp',
    async open(url) {
      known.reset();
      const r = await client.call('browser_navigate', { url });
      learn(r);
      return [r];
    },
    async navigate(url) {
      known.reset();
      const r = await client.call('browser_navigate', { url });
      learn(r);
      return { results: [r], showsPage: REF.test(r.text) };
    },
    async read() {
      const r = await client.call('browser_snapshot', {});
      known.reset();
      learn(r);
      return [r];
    },
    find: (m) => known.find(m),
    async act(tool, target, extra = {}) {
      const { value, ...rest } = extra;
      const args = { element: target.line.trim().slice(0, 60), target: target.ref, ...more[tool], ...rest, ...(value !== undefined ? { values: [value] } : {}) };
      const r = await client.call(tools[tool] || tool, args);
      learn(r);
      return { results: [r], showsPage: REF.test(r.text) };
    },
    close: async () => {},
  };
}

/** A step's match: a line that matches `re`. */
export const has = (re) => (line) => re.test(line);
/** `target` on a line right after one that matches `re` (a row's button after its label).
 * (The lines before a target: forty; after it: twelve.) */
export const after = (re, target) => (line, before) => target.test(line) && re.test(before.at(-1) || '');
/** `target` within the `n` (at most forty) lines after one that matches `re`. */
export const near = (re, target, n = 3) => (line, before) => target.test(line) && before.slice(-n).some((b) => re.test(b));
/** `target` in the row whose header matches `re`: the nearest row header above it does. */
export const inRow = (re, target) => (line, before) => target.test(line) && re.test(before.findLast((b) => /rowheader/.test(b)) || '');
/** `target` in the same table row as a line that matches `re`, after it (a row's edit link
 * before the row's title cell): the lines after it up to the next row. */
export const sameRow = (re, target) => (line, _before, next) => {
  if (!target.test(line)) return false;
  const end = next.findIndex((n) => /^\s*- row\b/.test(n));
  return next.slice(0, end < 0 ? next.length : end).some((n) => re.test(n));
};

/**
 * Runs one task on one side: open its URL, then each step — `['read']`, `['navigate', url]`,
 * or `[tool, match, extra, {optional}]`: the target is looked for in what the side has shown
 * (read again when it is not there, or when the last action did not show the page). The model
 * looks at the outcome of the last step, as it would before reporting.
 */
export async function runTask(side, task) {
  const results = [];
  let calls = 0;
  const add = (rs) => { for (const r of rs) { results.push(r); calls++; } };
  let stale = false;
  let failed = null;
  if (task.url) add(await side.open(task.url));
  for (const [k, [tool, match, extra, how]] of task.steps.entries()) {
    if (tool === 'read') { add(await side.read()); stale = false; continue; }
    if (tool === 'navigate') {
      const { results: rs, showsPage } = await side.navigate(match);
      add(rs);
      if (rs.some((r) => r.error)) { failed = rs.find((r) => r.error).text.slice(0, 160); break; }
      stale = !showsPage;
      continue;
    }
    let target = !stale && side.find(match);
    if (!target && (stale || !how?.optional)) {
      add(await side.read());
      stale = false;
      target = side.find(match);
    }
    if (!target && how?.optional) continue;
    if (!target) { failed = `no target for step ${k + 1}`; break; }
    const { results: rs, showsPage } = await side.act(tool, target, extra);
    add(rs);
    if (rs.some((r) => r.error)) { failed = `step ${k + 1}: ${rs.find((r) => r.error).text.slice(0, 160)}`; break; }
    stale = !showsPage;
  }
  if (!failed && stale) add(await side.read());
  if (task.url) await side.close();
  if (process.env.BENCH_VERBOSE) for (const r of results) console.log(`--- ${side.name} (${r.text.length})\n${r.text.slice(0, Number(process.env.BENCH_VERBOSE) > 1 ? 1e6 : 1500)}`);
  return { chars: results.reduce((n, r) => n + r.text.length, 0), calls, failed, largest: Math.max(0, ...results.map((r) => r.text.length)) };
}
