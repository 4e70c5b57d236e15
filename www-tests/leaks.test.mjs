// The leak sweep (issue #9): known secrets planted in a page, its same-origin iframe and a
// cross-origin (out-of-process) iframe — password and hidden inputs, token / api-key /
// credential / OTP / card / CVC / secret fields found by name, id, autocomplete and label,
// values typed by the user after load, secret URL parameters of a request — and every tool
// in every mode, directly and through the Bridge (raw and compact, CLI and MCP text),
// must never show one of them. Every result is checked as its full wire JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTab } from './harness.mjs';
import { withBridge, pccBin } from './bridge-harness.mjs';
import { mcpClient } from './mcp-client.mjs';
import { limits } from '../pkg/node/pcc.js';

let b, server, br;
withBridge((c) => ({ server, b, br } = c));

/** Every planted value shares this marker; typed values too. */
const SECRET = /LEAK-/;
const TYPED = ['LEAK-typed-password-17', 'LEAK-typed-token-18'];

const checked = [];
function clean(label, result) {
  const wire = typeof result === 'string' ? result : JSON.stringify(result);
  const hit = wire.match(/.{0,60}LEAK-[\w-]+.{0,20}/);
  assert.ok(!SECRET.test(wire), `${label} leaked: ${hit?.[0]}`);
  checked.push(label);
  return result;
}

test('no tool, mode or host shows a secret of the page, its iframes or the user', async () => {
  const { page, tabId } = await openTab(b, server, `secrets.html?xo=${encodeURIComponent(`${server.crossOrigin}/secrets-child.html`)}`);
  await page.frameLocator('#xo').locator('button').waitFor();
  // The user types secrets after load.
  await page.fill('#later', TYPED[0]);
  await page.fill('#later2', TYPED[1]);
  await page.waitForTimeout(300); // the page's fetch has been journaled

  const call = async (label, method, params = {}) => {
    const r = await b.call(method, { tabId, ...params });
    return clean(label, r);
  };

  // Page reads, both sources, with and without scope.
  const snap = await call('snapshot', 'browser_snapshot');
  assert.ok(!snap.error, JSON.stringify(snap).slice(0, 300));
  assert.match(snap.snapshot.state, /textbox "Access token"/, 'fields keep their role and name');
  assert.match(snap.snapshot.state, /Cross-origin child|Child continue/, 'the cross-origin frame was read');
  assert.match(snap.snapshot.state, /visible-display-name/, 'ordinary values still show');
  await call('snapshot dom', 'browser_snapshot', { source: 'dom' });
  await call('snapshot selector', 'browser_snapshot', { selector: 'form' });
  // AX revisions: full, diff after more typing, unchanged.
  const full = await call('ax full', 'browser_accessibility_snapshot', { sessionId: 'leak' });
  assert.equal(full.mode, 'full');
  await page.fill('#cred', 'LEAK-typed-credential-19');
  await page.fill('input[name=display]', 'changed-display');
  const diff = await call('ax diff', 'browser_accessibility_snapshot', { sessionId: 'leak' });
  assert.equal(diff.mode, 'diff', JSON.stringify(diff).slice(0, 300));
  assert.match(diff.state, /changed-display/);
  const same = await call('ax unchanged', 'browser_accessibility_snapshot', { sessionId: 'leak' });
  assert.equal(same.mode, 'unchanged');
  await call('ax dom', 'browser_accessibility_snapshot', { source: 'dom', disableDiffing: true });
  await call('dom_cua', 'browser_dom_cua');
  await call('dom_cua selector', 'browser_dom_cua', { selector: 'form' });
  const md = await call('extract markdown', 'browser_extract');
  assert.match(md.content, /ordinary page text/);
  await call('extract text', 'browser_extract', { format: 'text' });
  await call('extract selector', 'browser_extract', { selector: 'form' });
  // Evaluate summaries of DOM nodes (values are never part of a node's description).
  const ev = await call('evaluate nodes', 'browser_evaluate', { expression: '[...document.querySelectorAll("input, textarea")]' });
  assert.ok(Array.isArray(ev.value) && ev.value.length > 5, JSON.stringify(ev).slice(0, 300));
  await call('evaluate form', 'browser_evaluate', { expression: 'document.getElementById("f")' });
  // An expression can read values directly: the values of sensitive fields are scrubbed
  // wherever they appear (also inside other strings and keys), ordinary values stay.
  const values = await call('evaluate values', 'browser_evaluate', { expression: '[...document.querySelectorAll("input, textarea")].map((i) => i.value)' });
  assert.ok(values.value.includes('changed-display') || values.value.includes('visible-display-name'), JSON.stringify(values).slice(0, 400));
  assert.ok(values.value.includes('[redacted]'));
  await call('evaluate joined', 'browser_evaluate', { expression: 'document.querySelector("[name=pass]").value + "|" + document.getElementById("later").value' });
  await call('evaluate keys', 'browser_evaluate', { expression: '({ [document.getElementById("apiKey").value]: 1 })' });
  await call('evaluate frame', 'browser_evaluate', { expression: 'document.querySelector("iframe").contentDocument.querySelector("[name=pin]").value' });
  await call('evaluate cleared', 'browser_evaluate', { expression: '(() => { const el = document.getElementById("cred"); const v = el.value; el.value = ""; return v; })()' });
  // Journals, tab descriptors, status.
  const net = await call('network', 'browser_network');
  assert.ok(net.entries.some((e) => /api_key=\[redacted\]/.test(e.url)), JSON.stringify(net).slice(0, 400));
  await call('console', 'browser_console');
  await call('tabs', 'browser_tabs');
  await call('selected tab', 'browser_selected_tab');
  await call('status', 'browser_status', { includeEvents: true });
  await call('doctor', 'browser_doctor', { details: true });
  clean('downloads', await b.call('browser_downloads', {}));
  // The user copied two typed secrets: reading the clipboard scrubs the active tab's values.
  await page.bringToFront();
  await b.call('browser_clipboard_write', { text: `copied ${TYPED[0]} and ${TYPED[1]}` });
  const clip = clean('clipboard', await b.call('browser_clipboard_read', {}));
  assert.match(clip.content, /^copied /, JSON.stringify(clip));
  await call('cdp metrics', 'browser_cdp', { method: 'Page.getLayoutMetrics' });
  await call('cdp history', 'browser_cdp', { method: 'Page.getNavigationHistory' });
  await call('find', 'browser_find', { text: 'LEAK' });
  await call('locator value', 'browser_locator', { target: { label: 'Password' }, read: 'value' });
  await call('page 2', 'browser_snapshot', { page: 2, maxChars: 1000 });
  await call('screenshot full', 'browser_screenshot', { fullPage: true });
  // Actions and their errors: typing a secret is never echoed; failures never carry values.
  const ref = (re) => snap.snapshot.state.split('\n').find((l) => re.test(l))?.match(/\[ref=(\w+)\]/)?.[1];
  const pw = ref(/textbox "Password"/);
  assert.ok(pw, snap.snapshot.state);
  await call('fill secret', 'browser_fill', { ref: pw, snapshotId: snap.snapshot.snapshotId, text: 'LEAK-typed-fill-20' });
  await call('type secret', 'browser_type', { ref: ref(/textbox "Access token"/), snapshotId: snap.snapshot.snapshotId, text: 'LEAK-typed-type-21' });
  await call('stale ref error', 'browser_click', { ref: 'e9999', snapshotId: snap.snapshot.snapshotId });
  await call('select error', 'browser_select_option', { ref: pw, snapshotId: snap.snapshot.snapshotId, value: 'LEAK-typed-option-22' });
  await call('wait error', 'browser_wait_for', { text: 'LEAK-password-01', timeout: 300 });
  await call('selector error', 'browser_snapshot', { selector: '#no-such-element' });
  const after = await call('snapshot after typing', 'browser_snapshot');
  assert.match(after.snapshot.state, /textbox "Password"/);

  // Through the Bridge: raw and compact, and the model text of the CLI and MCP.
  for (const [method, params] of [
    ['browser_snapshot', {}], ['browser_accessibility_snapshot', { disableDiffing: true }], ['browser_extract', {}],
    ['browser_dom_cua', {}], ['browser_tabs', {}], ['browser_selected_tab', {}],
  ]) {
    for (const mode of [undefined, 'raw', 'compact']) {
      const r = await br.call(method, { tabId, ...params }, mode);
      assert.equal(r.status, 200, `${method} ${mode}: ${r.text.slice(0, 200)}`);
      clean(`bridge ${method} ${mode ?? 'default'}`, r.text);
    }
  }
  for (const args of [['snapshot'], ['ax', '--full'], ['dom'], ['extract'], ['network'], ['console'], ['--raw', 'snapshot'], ['eval', 'document.forms[0]']]) {
    const r = await br.cli(...args, '--tab', String(tabId));
    assert.ok(r.code === 0, `${args}: ${r.stderr}`);
    clean(`cli ${args.join(' ')}`, r.stdout + r.stderr);
  }
  // 8 sources × modes and 8 CLI commands: say what was swept.
  assert.ok(checked.length >= 50, `${checked.length} checks`);
  console.log(`leak sweep: ${checked.length} results checked, none shows a secret`);
  await b.call('browser_tab_close', { tabId });
});

test('second round: a secret under a neutral name in URLs, sensitivity only a label or a card number carries, copies the page makes, secrets in link targets and PEM blocks — on every surface; ordinary text keeps its short numbers', async () => {
  const { page, tabId } = await openTab(b, server, `leaks2.html?xo=${encodeURIComponent(server.crossUrl('leaks2-child.html'))}`);
  const xo = page.frameLocator('#xo');
  await xo.locator('#cpw').waitFor();
  // A person typed before the agent came (in the page, its shadow root and a cross-origin
  // frame); the agent types too.
  await xo.locator('#cpw').fill('LEAK-xo-typed-38');
  await xo.locator('#ccard').fill('378282246310005');
  await page.locator('#host input').fill('LEAK-shadow-39');
  await page.frameLocator('#so').locator('#sopin').fill('LEAK-so-pin-40');
  await page.fill('#pin1', '4821');
  await page.fill('#pin2', 'LEAK-pin-aria-35');
  await page.fill('#pin3', '4821');
  await page.fill('#titled', 'LEAK-titled-pw-36');
  await page.fill('#secret1', 'LEAK-secret-one-37');
  await page.locator('#ccedit').fill('4111 1111 1111 1111');
  await page.locator('#ccedit2').fill('5500-0000-0000-0004');
  await page.fill('#notes', '4012888888881881');
  await page.fill('#pw', 'LEAK-typed-pw-31');
  const snap = await b.call('browser_snapshot', { tabId });
  const ref = (re) => snap.snapshot.state.split('\n').find((l) => re.test(l)).match(/\[ref=(\w+)\]/)[1];
  for (const [re, text] of [[/textbox "API token"/, 'LEAK-agent-tok-32'], [/textbox "Card security code"/, '737'], [/textbox "Login password"/, 'LEAK-get-pw-33']]) {
    const typed = await b.call('browser_type', { tabId, snapshotId: snap.snapshot.snapshotId, ref: ref(re), text });
    assert.ok(typed.ok, JSON.stringify(typed));
  }
  await page.waitForTimeout(300); // the page's fetch and log
  const LONG = /LEAK-|LEAKpem|4111 1111 1111 1111|5500-0000-0000-0004|4012888888881881|378282246310005/;
  // A short value is shown nowhere it stands for its field (a parameter, a field's line, a quote).
  const SHORT = /(=|: |")(737|4821)(?=$|[&#;"\s\\])/m;
  const ORDINARY = 'Ordinary page text: our Boeing 737 fleet, flight 4821 at 19:30, price $737.00, model X-4821.';
  const shown = [];
  const sweep = (label, r) => {
    const wire = typeof r === 'string' ? r : JSON.stringify(r);
    const hit = wire.match(LONG) ?? wire.match(SHORT);
    assert.ok(!hit, `${label} shows ${hit?.[0]}: …${wire.slice(Math.max(0, (hit?.index ?? 0) - 80), (hit?.index ?? 0) + 40)}…`);
    shown.push(label);
    return r;
  };
  const reads = [['browser_snapshot', {}], ['browser_snapshot', { source: 'chromium_ax' }], ['browser_accessibility_snapshot', { sessionId: 'leaks2' }],
    ['browser_dom_cua', {}], ['browser_extract', {}], ['browser_find', { text: 'a' }], ['browser_console', {}], ['browser_network', {}],
    ['browser_evaluate', { expression: 'document.body.innerHTML' }], ['browser_evaluate', { expression: 'document.body.innerText' }],
    ['browser_evaluate', { expression: 'document.getElementById("reset").href' }], ['browser_evaluate', { expression: 'document.getElementById("pem").dataset.key' }],
    ['browser_evaluate', { expression: 'document.getElementById("notes").value' }], ['browser_locator', { target: { label: 'PIN' }, read: 'value' }]];
  const everyRead = async (when) => {
    for (const [m, p] of reads) sweep(`${when} ${m} ${JSON.stringify(p)}`, await b.call(m, { tabId, ...p }));
    sweep(`${when} browser_tabs`, await b.call('browser_tabs'));
  };
  await everyRead('typed');
  // The frame and the shadow root were read (not merely skipped).
  const framed = (await b.call('browser_snapshot', { tabId })).snapshot.state;
  assert.match(framed, /Cross-origin payment/);
  assert.match(framed, /You typed: \[redacted\]|You typed:$/m);
  assert.match(framed, /Shadow preview:( \[redacted\])?$/m);
  assert.match(framed, /iframe "Same-origin notes"/);
  assert.equal((await b.call('browser_evaluate', { tabId, expression: 'document.getElementById("spreview").textContent' })).value, '[redacted]', 'the shadow field was typed into and its copy is redacted');
  // Ordinary text keeps the digits a short secret shares.
  const text = await b.call('browser_evaluate', { tabId, expression: 'document.querySelector("p").textContent' });
  assert.equal(text.value, ORDINARY);
  const ordinary = (await b.call('browser_snapshot', { tabId })).snapshot.state;
  assert.ok(ordinary.includes(ORDINARY.replace('Ordinary page text: ', '')), `the snapshot keeps the ordinary text: ${ordinary.split("\n").filter((l) => /Ordinary|Boeing/.test(l)).join(" / ")}`);
  assert.ok((await b.call('browser_extract', { tabId })).content.includes('Boeing 737 fleet, flight 4821'), 'extract keeps the ordinary text');
  // The agent sends the GET form: the values travel in the URL under neutral names (f1, f2),
  // and leave their fields.
  const form = await b.call('browser_snapshot', { tabId });
  const send = form.snapshot.state.split('\n').find((l) => /button "Send"/.test(l)).match(/\[ref=(\w+)\]/)[1];
  const sent = await b.call('browser_click', { tabId, snapshotId: form.snapshot.snapshotId, ref: send });
  assert.ok(sent.ok && sent.navigated, JSON.stringify(sent));
  sweep('the click that sent the form', sent);
  await everyRead('after GET');
  // Through the Bridge (raw and compact), the CLI and MCP.
  for (const [method, params] of [['browser_snapshot', {}], ['browser_network', {}], ['browser_console', {}], ['browser_selected_tab', {}], ['browser_extract', {}]]) {
    for (const mode of [undefined, 'raw', 'compact']) sweep(`bridge ${method} ${mode ?? 'default'}`, (await br.call(method, { tabId, ...params }, mode)).text);
  }
  sweep('bridge browser_tabs', (await br.call('browser_tabs', {})).text);
  for (const args of [['snapshot'], ['network'], ['console'], ['eval', 'document.body.innerHTML'], ['tab']]) {
    const r = await br.cli(...args, '--tab', String(tabId));
    sweep(`cli ${args.join(' ')}`, r.stdout + r.stderr);
  }
  const mcp = mcpClient(pccBin, ['mcp', '--tools', 'all'], { env: br.env });
  try {
    await mcp.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'leaks', version: '1' } });
    mcp.notify('notifications/initialized');
    for (const [name, args] of [['browser_snapshot', { tabId }], ['browser_network', { tabId }], ['browser_tabs', {}], ['browser_evaluate', { tabId, expression: 'location.href' }]]) {
      sweep(`mcp ${name}`, (await mcp.rpc('tools/call', { name, arguments: args })).result);
    }
  } finally {
    mcp.close();
  }
  console.log(`second-round sweep: ${shown.length} results checked, none shows a secret`);
  await b.call('browser_tab_close', { tabId });
});

test('a selector cannot test a value: no prefix oracle on a prefilled secret', async () => {
  const { page, tabId } = await openTab(b, server, 'secrets.html');
  const prefix = (await page.evaluate(() => document.querySelector('input[type=password]').value)).slice(0, 6);
  for (const selector of [`input[value^="${prefix}"]`, `input[ value *= "${prefix}" i]`, `[v\\61lue^="${prefix}"]`, `form :has(> input[value$="x"])`]) {
    for (const [method, params] of [['browser_snapshot', { selector }], ['browser_dom_cua', { selector }], ['browser_extract', { selector }], ['browser_wait_for', { selector, timeout: 200 }],
      ['browser_accessibility_snapshot', { selector, disableDiffing: true }]]) {
      const r = await b.call(method, { tabId, ...params });
      assert.equal(r.error?.code, 'INVALID_REQUEST', `${method} ${selector}: ${JSON.stringify(r).slice(0, 200)}`);
    }
  }
  // Other attribute selectors still work.
  const ok = await b.call('browser_snapshot', { tabId, selector: 'input[type="password"]' });
  assert.ok(!ok.error, JSON.stringify(ok.error));
  await page.close();
});

test('evaluate: a secret comes back in no trivial form — prefilled markup, case, spaces, Base64, pieces, thrown messages, long keys, fields named by title or aria-labelledby', async () => {
  const { page, tabId } = await openTab(b, server, 'evaluate-secrets.html');
  await page.fill('#pw', 'Live-Secret-88'); // the live value now differs from the markup's
  const key = await page.evaluate(() => document.getElementById('key').value);
  const skeleton = (s) => String(s).toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const secrets = ['Prefilled-Secret-77', 'Live-Secret-88', 'alpha bravo charlie delta', 'OTP-998877', key.slice(-60), key.slice(0, 60), 'Shadow-Secret-66'];
  const expressions = [
    'document.getElementById("pw").getAttribute("value")',
    'document.getElementById("pw").defaultValue',
    'document.querySelector("form").innerHTML',
    'document.body.outerHTML',
    'document.getElementById("pw").value.toUpperCase()',
    'document.getElementById("pw").value.replace(/-/g, "")',
    'btoa(document.getElementById("pw").value)',
    '[...document.getElementById("pw").value]',
    'document.getElementById("pw").value.split("").join(" ")',
    '[...document.querySelectorAll("input, textarea")].map((e) => e.value)',
    'document.getElementById("key").value.slice(-200)',
    'JSON.parse(document.getElementById("pw").value)',
    '(() => { throw new Error("oops " + document.getElementById("titled").value) })()',
    'document.querySelector("pin-box").field.value', // a closed shadow root, through a property
    'document.querySelector("pin-box").field.parentNode.outerHTML',
  ];
  let checked = 0;
  for (const expression of expressions) {
    const r = await b.call('browser_evaluate', { tabId, expression });
    const text = skeleton(JSON.stringify(r));
    for (const s of secrets) assert.ok(!text.includes(skeleton(s)), `${expression} shows ${s.slice(0, 20)}: ${JSON.stringify(r).slice(0, 300)}`);
    checked++;
  }
  // Ordinary values still come back.
  assert.equal((await b.call('browser_evaluate', { tabId, expression: 'document.getElementById("nick").value' })).value, 'ordinary-nick');
  // The page-side reads know the fields named only by aria-labelledby or title too.
  for (const [method, params] of [['browser_dom_cua', {}], ['browser_snapshot', { source: 'dom' }], ['browser_extract', {}]]) {
    const r = await b.call(method, { tabId, ...params });
    for (const s of ['OTP-998877', 'alpha bravo charlie delta']) assert.ok(!JSON.stringify(r).includes(s), `${method} shows ${s}: ${JSON.stringify(r).slice(0, 300)}`);
  }
  // What the page logged is scrubbed the same way.
  const logged = await b.call('browser_console', { tabId });
  assert.ok(logged.entries.some((e) => /debug: typed \[redacted\]/.test(e.text)), JSON.stringify(logged).slice(0, 400));
  for (const s of secrets) assert.ok(!skeleton(JSON.stringify(logged)).includes(skeleton(s)), `console shows ${s.slice(0, 20)}`);
  console.log(`evaluate scrub: ${checked} expressions × ${secrets.length} secrets, none shown`);
  await page.close();
});

test('captions and prose beside secrets are no secrets: a button named for a password, a submit after a paragraph about passwords, a field after prose that says "token" (Fossil\'s pages) — on every read, the typed password still redacted', async () => {
  const { page, tabId } = await openTab(b, server, 'captions-near-secrets.html');
  await page.fill('#p', 'LEAK-typed-pw-caption-9');
  for (const [method, params] of [['browser_snapshot', {}], ['browser_accessibility_snapshot', { disableDiffing: true }], ['browser_snapshot', { source: 'dom' }]]) {
    const r = clean(`captions ${method}`, await b.call(method, { tabId, ...params }));
    const state = r.snapshot?.state ?? r.state ?? JSON.stringify(r);
    assert.ok(!/redacted/.test(state.replace(/textbox "Password:?"[^\n]*/, '')), `${method} ${JSON.stringify(params)} redacts a caption: ${state}`);
    assert.match(state, /button "Apply Changes"/);
    assert.match(state, /button "Speak password for \\?"anonymous\\?""/);
  }
  const ev = clean('captions evaluate', await b.call('browser_evaluate', { tabId, expression: 'document.forms[0].k.value + "|" + document.forms[0].submit.value + "|" + document.getElementById("p").value' }));
  assert.match(JSON.stringify(ev), /#ffffff Key:\\n#f2dcdc Active\|Apply Changes\|\[redacted\]/);
  await page.close();
});

test('a password shown in clear by a "Show" toggle stays a password for the page-side reads and the evaluate scrub', async () => {
  const { page, tabId } = await openTab(b, server, 'show-password.html');
  await page.fill('#pw', 'Shown-Secret-55');
  const before = await b.call('browser_accessibility_snapshot', { tabId });
  await page.click('#show');
  assert.equal(await page.evaluate(() => document.getElementById('pw').type), 'text');
  // The revision after the toggle: a diff (`~` lines) or a full state, never the value.
  const after = await b.call('browser_accessibility_snapshot', { tabId, baseSnapshotId: before.snapshotId });
  assert.ok(!after.error && !JSON.stringify(after).includes('Shown-Secret-55'), `the revision after "Show" shows the password: ${JSON.stringify(after).slice(0, 300)}`);
  let checked = 1;
  for (const [method, params] of [['browser_snapshot', {}], ['browser_accessibility_snapshot', { disableDiffing: true }],
    ['browser_snapshot', { source: 'dom' }], ['browser_accessibility_snapshot', { source: 'dom', disableDiffing: true }],
    ['browser_dom_cua', {}], ['browser_extract', {}], ['browser_extract', { format: 'text' }],
    ['browser_evaluate', { expression: 'document.getElementById("pw").value' }], ['browser_evaluate', { expression: 'document.body.innerHTML + document.getElementById("pw").value' }]]) {
    const r = await b.call(method, { tabId, ...params });
    assert.ok(!r.error, `${method}: ${JSON.stringify(r).slice(0, 200)}`);
    assert.ok(!JSON.stringify(r).includes('Shown-Secret-55'), `${method} ${JSON.stringify(params)} shows the password: ${JSON.stringify(r).slice(0, 300)}`);
    checked++;
  }
  assert.match((await b.call('browser_snapshot', { tabId, source: 'dom' })).snapshot.state, /textbox/, 'the field keeps its role');
  console.log(`show-password: ${checked} reads checked`);
  await page.close();
});

test('a page with more filled fields than one answer of the last scrub holds: a read answers, checked against every field (the secret after them redacted), on both sources', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const max = limits().evalFormFields; // budget.rs, as the extension has it
  // A copy of a field's value in the text, as a page's own script makes one.
  await page.evaluate((n) => {
    const box = document.createElement('div');
    box.innerHTML = Array.from({ length: n }, (_, i) => `<input name=f${i} value=v${i}>`).join('') + '<input type=password id=pw value=LEAK-flood-41><p id=copy></p>';
    document.body.append(box);
    document.getElementById('copy').textContent = document.getElementById('pw').value;
  }, max + 1);
  for (const [tool, params] of [['browser_snapshot', {}], ['browser_accessibility_snapshot', { sessionId: 'flood' }]]) {
    const r = await b.call(tool, { tabId, ...params });
    clean(`${tool} of a flooded form`, r);
    assert.ok(!r.error, `${tool}: ${JSON.stringify(r.error)}`);
    assert.ok(JSON.stringify(r).includes('[redacted]'), `${tool}: the copy of the password is redacted`);
  }
});

test('a page of 2,100 filled fields (a bulk editor) is usable: open, snapshot and evaluate answer, every value checked, the API key among them still redacted', async () => {
  const { page, tabId } = await openTab(b, server, 'grid.html');
  const key = 'sk-live-9f8e7d6c5b4a3921';
  const snap = await b.call('browser_snapshot', { tabId });
  assert.ok(!snap.error, JSON.stringify(snap.error));
  assert.ok(snap.snapshot.state.includes('Item 3'), snap.snapshot.state.slice(0, 300));
  const ev = await b.call('browser_evaluate', { tabId, expression: `[...document.querySelectorAll('input')].map((i) => i.value).join(',')` });
  assert.ok(!ev.error, JSON.stringify(ev.error));
  const text = JSON.stringify(ev);
  assert.ok(text.includes('Item 699'), 'the last ordinary value is shown');
  assert.ok(!text.includes(key) && !text.includes('9f8e7d6c5b4a3921'), 'the key is redacted');
  const save = await b.call('browser_click', { tabId, target: { role: 'button', name: 'Save' } });
  assert.ok(!save.error, JSON.stringify(save.error));
  await page.close();
});
