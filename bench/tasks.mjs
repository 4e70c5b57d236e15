// ./build.sh bench (part 2): scripted multi-step tasks driven over MCP, our `pcc mcp`
// against `@playwright/mcp` (npm, same Chromium binary), same pages, same run. The policy
// is the same for both: open the page, find each step's target in the state the tool has
// shown so far (reading again when it is not there, or after an action that did not show
// the page), act on its ref. What is counted is every character of every tool result a
// model would read (MCP text content), per task and per side.
//
// Writes bench/tasks.json and prints a table. `node bench/tasks.mjs [--corpus N]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { startServer } from '../www-tests/server.mjs';
import { startBridge, pccBin } from '../www-tests/bridge-harness.mjs';
import { corpusServer, pagesOf, fullDir } from '../www-tests/corpus.mjs';
import { mcpClient } from '../www-tests/mcp-client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PW_MCP = path.join(here, 'node_modules', '@playwright', 'mcp', 'cli.js');

/** An MCP server, initialized, whose `call` gives the text a model reads of one call. */
async function mcpServer(cmd, args, opts) {
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

const REF = /\[ref=([\w-]+)\]/;

/**
 * What a model knows of the page: the lines it was shown, by ref (a diff's `-` line
 * removes one). `find(re)` gives the ref of the last line matching `re`.
 */
class Known {
  constructor() { this.lines = new Map(); }
  reset() { this.lines.clear(); }
  learn(text, snapshotId) {
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      const ref = line.match(REF)?.[1];
      if (ref) this.lines.set(ref, { line, snapshotId, before: lines.slice(Math.max(0, i - 3), i) });
    }
  }
  /** A diff's removals (`- …` at the start of a line) make their refs unknown. */
  forget(text) {
    for (const line of text.split('\n')) if (line.startsWith('- ')) this.lines.delete(line.match(REF)?.[1]);
  }
  /** The first line `match(line, threeLinesBefore)` accepts. */
  find(match) {
    for (const [ref, v] of this.lines) if (match(v.line, v.before)) return { ref, ...v };
    return undefined;
  }
}

/** Our side: `pcc mcp`; reads are AX revisions of one agent session (full, then diffs). */
function ours(client) {
  let tabId;
  const known = new Known();
  const idOf = (text) => text.match(/"snapshotId":"([^"]+)"/)?.[1];
  return {
    name: 'pcc',
    async open(url) {
      const r = await client.call('browser_tab_open', { url });
      tabId = Number(r.text.match(/"tab":\{"id":(\d+)/)?.[1]);
      known.reset();
      return [r];
    },
    async read() {
      const r = await client.call('browser_accessibility_snapshot', { tabId, sessionId: 'bench' });
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
      return { results: [r], showsPage: false };
    },
    close: async () => { await client.call('browser_tab_close', { tabId }); },
  };
}

/** Playwright MCP: its action results carry the page's snapshot (or its changes). */
function playwright(client) {
  const known = new Known();
  const learn = (r) => { if (REF.test(r.text)) known.learn(r.text); };
  return {
    name: 'playwright-mcp',
    async open(url) {
      known.reset();
      const r = await client.call('browser_navigate', { url });
      learn(r);
      return [r];
    },
    async read() {
      const r = await client.call('browser_snapshot', {});
      known.reset();
      learn(r);
      return [r];
    },
    find: (m) => known.find(m),
    async act(tool, target, extra) {
      const args = { element: target.line.trim().slice(0, 60), target: target.ref, ...extra };
      const r = await client.call(tool, args);
      learn(r);
      return { results: [r], showsPage: REF.test(r.text) };
    },
    close: async () => {},
  };
}

/** A step: `[tool, match(line, linesBefore), extra]`; tools are named as ours and PW's. */
const has = (re) => (line) => re.test(line);
/** `target` on a line right after one that matches `re` (a row's button after its label). */
const after = (re, target) => (line, before) => target.test(line) && re.test(before.at(-1) || '');

function localTasks(server) {
  return [
    { name: 'search form', url: server.url('basic.html'), steps: [
      ['browser_type', has(/textbox "Search"/), { text: 'orders' }],
      ['browser_click', has(/button "Query"/)],
      ['browser_click', has(/checkbox "Remember me"/)],
    ] },
    { name: 'date picker + autocomplete', url: server.url('settle.html'), steps: [
      ['browser_click', has(/button "Pick a date"/)],
      ['browser_click', has(/button "Submit date"/)],
      ['browser_type', has(/textbox "City"/), { text: 'Lis' }],
      ['browser_click', has(/button "Suggest"/)],
      ['browser_click', has(/link "Lisbon"/)],
    ] },
    { name: 'long chat page', url: server.url('long-session.html'), steps: [
      ['browser_type', has(/(textbox|searchbox) "Search chats"/), { text: 'fence' }],
      ['browser_click', has(/button "New chat"/)],
      ['browser_click', has(/button "Like"/)],
    ] },
    { name: 'smooth-scrolling rows', url: server.url('smooth-rows.html'), steps: [
      ['browser_click', after(/Order 3\b/, /button "Delete"/)],
      ['browser_click', after(/Order 5\b/, /button "Delete"/)],
    ] },
  ];
}

/** Real pages: read, look again (nothing changed), then press the first named button if
 * there is one (an optional step: a page without one skips it on both sides). */
function corpusTasks(cserver, names) {
  return names.map((n) => ({ name: `corpus ${n}`, url: cserver.url(n), steps: [
    ['read'],
    ['read'],
    ['browser_click', has(/button "[^"]+"/), undefined, { optional: true }],
  ] }));
}

async function runTask(side, task) {
  const results = [];
  let calls = 0;
  const add = (rs) => { for (const r of rs) { results.push(r); calls++; } };
  add(await side.open(task.url));
  let stale = false;
  let failed = null;
  for (const [k, [tool, match, extra, how]] of task.steps.entries()) {
    if (tool === 'read') { add(await side.read()); stale = false; continue; }
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
    if (rs.some((r) => r.error)) { failed = rs.find((r) => r.error).text.slice(0, 160); break; }
    stale = !showsPage;
  }
  // The model looks at the outcome of the last step, as it would before reporting.
  if (!failed && stale) add(await side.read());
  await side.close();
  if (process.env.BENCH_VERBOSE) for (const r of results) console.log(`--- ${side.name} (${r.text.length})\n${r.text.slice(0, 1500)}`);
  return { chars: results.reduce((n, r) => n + r.text.length, 0), calls, failed, largest: Math.max(...results.map((r) => r.text.length)) };
}

async function main() {
  const corpusN = Number(process.argv[process.argv.indexOf('--corpus') + 1]) || 6;
  if (!fs.existsSync(PW_MCP)) throw new Error('@playwright/mcp is not installed: run ./build.sh bench (it installs bench/package.json)');
  const server = await startServer();
  const names = fs.existsSync(fullDir) ? pagesOf(fullDir).slice(0, corpusN) : [];
  const cserver = names.length ? await corpusServer(fullDir) : null;
  const b = await launch({ offline: true });
  const br = await startBridge(b);
  const pcc = await mcpServer(pccBin, ['mcp'], { env: { ...process.env, ...br.env } });
  const pw = await mcpServer(process.execPath, [PW_MCP, '--headless', '--isolated', '--executable-path', '/usr/bin/chromium', '--no-sandbox', '--viewport-size', '1280,720', '--blocked-origins', 'https:;http://www.;http://cdn.'],
    // It writes snapshots and logs into its working directory: a temporary one.
    { cwd: fs.mkdtempSync(path.join(os.tmpdir(), 'pw-mcp-')) });
  const only = process.env.BENCH_TASK;
  const tasks = [...localTasks(server), ...(cserver ? corpusTasks(cserver, names) : [])].filter((t) => !only || t.name.includes(only));
  const rows = [];
  try {
    for (const task of tasks) {
      const a = await runTask(ours(pcc), task);
      const p = await runTask(playwright(pw), task);
      rows.push({ task: task.name, ours: a, playwright: p, ratio: a.chars / p.chars });
      console.log(`${task.name.padEnd(40)} ours ${String(a.chars).padStart(7)} chars / ${a.calls} calls${a.failed ? ` FAILED (${a.failed})` : ''}   playwright-mcp ${String(p.chars).padStart(7)} / ${p.calls}${p.failed ? ` FAILED (${p.failed})` : ''}   ratio ${(a.chars / p.chars).toFixed(2)}`);
    }
  } finally {
    pcc.close();
    pw.close();
    await br.close();
    await b.close();
    await server.close();
    await cserver?.close();
  }
  const both = rows.filter((r) => !r.ours.failed && !r.playwright.failed);
  const total = (k) => both.reduce((n, r) => n + r[k].chars, 0);
  const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
  const summary = { tasks: rows.length, completedByBoth: both.length, oursChars: total('ours'), playwrightChars: total('playwright'),
    totalRatio: total('ours') / total('playwright'), medianRatio: median(both.map((r) => r.ratio)) };
  console.log(JSON.stringify(summary));
  fs.writeFileSync(path.join(here, 'tasks.json'), `${JSON.stringify({ date: new Date().toISOString(), summary, rows }, null, 1)}\n`);
}

await main();
