// The DSH browser tools of pi-control-chrome: a cordis function plugin for the DeepSeek
// Harness (npm @deepseek-ai/*, 0.1.0-rc.8). One DSH tool per tool of the catalogue's profile in
// use (extension/catalogue.json: names, descriptions, JSON Schemas; `core` unless the plugin's
// `tools` setting or $PCC_TOOLS says `all` or lists tools), each a `pcc call` to the local
// Bridge, so the model reads exactly the text `pcc`, MCP and pi show (compact results, page
// text fenced as untrusted content). The DSH agent session is the browser session. A
// screenshot is stored through DSH's attachment service and reaches the model as an image
// attachment. `/chrome status|tabs|doctor` answers the person, never the model.
//
// It imports nothing from DSH (raw `ctx.tools.register` with plain JSON Schema), so it loads
// by absolute path into any DSH install.
// Owns: mapping DSH tool calls to Bridge calls and their outcome to DSH results. Must never:
// put Base64, page text beyond the compact text or a secret into `value`, `meta` or the
// rendered content (it is durable), retry a call, or return a tool error as a success (it is
// thrown: only a thrown error's message reaches the model, so the code is in it).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileTools, schemaOf, SHARED } from '../hosts/catalogue.mjs';
import { pccBin as findPcc, runPcc, sessionId as plainId, SETUP_HINT } from '../hosts/pcc.mjs';

export const name = 'tool-control-chrome';
export const inject = ['tools', 'commands'];

const pccBin = (config) => findPcc(config?.pcc);
const pcc = (bin, args, signal, session) => runPcc(bin, args, { signal, session: session ? plainId(session) : undefined });

/** Small ids of a result for `meta` (never page text, Base64 or secrets). */
function metaOf(method, text) {
  const head = text.split('\n').find((l) => l.startsWith('{')) ?? '';
  const meta = { method };
  for (const key of ['snapshotId', 'mode']) {
    const m = head.match(new RegExp(`"${key}":"([^"]{1,80})"`));
    if (m) meta[key] = m[1];
  }
  const tab = head.match(/"tab":\{"id":(\d+)/) ?? head.match(/"tabId":(\d+)/);
  if (tab) meta.tabId = Number(tab[1]);
  return meta;
}

/**
 * A screenshot's image given to the model: through the attachment store (read per call: it may
 * load after this plugin), else saved as a file the text names. Never Base64.
 */
async function attach(ctx, png, text) {
  // The format the call asked for, from the image's first bytes: PNG, JPEG or WebP.
  const mime = png[0] === 0xff && png[1] === 0xd8 ? 'image/jpeg' : png.subarray(8, 12).toString('latin1') === 'WEBP' ? 'image/webp' : 'image/png';
  const ext = mime.slice(6).replace('jpeg', 'jpg');
  const store = ctx.get?.('attachments');
  let why = 'this DSH host has no attachment store';
  if (store?.saveImage) {
    try {
      const attachment = await store.saveImage({ data: new Uint8Array(png), mediaType: mime, name: `screenshot.${ext}` });
      return { text, attachment };
    } catch (e) {
      why = `the attachment store refused it (${String(e?.code ?? e?.message ?? e).slice(0, 80)}; at most 2,000 px a side: take the viewport, or an element by ref)`;
    }
  }
  const dir = join(process.env.DSH_HOME || join(homedir(), '.dsh'), 'pcc-screenshots');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `screenshot-${Date.now()}.${ext}`);
  writeFileSync(file, png);
  return { text: `${text} Not shown: ${why}; saved to ${file}.` };
}

export function apply(ctx, config = {}) {
  const bin = pccBin(config);
  const tools = profileTools(config.tools ?? process.env.PCC_TOOLS ?? 'core');
  for (const [i, t] of tools.entries()) {
    const takesSession = Object.hasOwn(t.params, 'sessionId');
    ctx.tools.register({
      name: t.name,
      // The shared parameters once, with the first tool.
      description: i === 0 ? `${t.description} ${SHARED}` : t.description,
      parameters: schemaOf(t),
      output: {
        schema: {},
        render: (_args, value) => [{ type: 'text', text: value.text }, ...(value.attachment ? [{ type: 'image', attachment: value.attachment }] : [])],
        presentationMeta: (_args, value) => value.meta,
      },
      async execute(args, exec) {
        const params = { ...args };
        // The DSH agent session is the browser session: its revisions, the tabs it opens (and
        // so its cleanup) are kept per session.
        const session = exec?.agent?.session?.id;
        if (takesSession && params.sessionId === undefined && session) params.sessionId = String(session);
        // (PCC_SESSION: the same session for the tools without a sessionId — its current tab.)
        const dir = t.name === 'browser_screenshot' ? mkdtempSync(join(tmpdir(), 'pcc-shot-')) : null;
        const png = dir ? join(dir, 'shot.png') : null;
        try {
          const ran = await pcc(bin, ['call', t.name, JSON.stringify(params), ...(png ? ['--image', png] : [])], exec?.signal, session && String(session));
          if (ran.code !== 0) {
            const line = ran.stderr.trim().split('\n').pop() || `pcc exited with ${ran.code}`;
            throw new Error(line);
          }
          const text = ran.stdout.replace(/\n$/, '');
          const meta = metaOf(t.name, text);
          if (png && existsSync(png)) return { ...(await attach(ctx, readFileSync(png), text)), meta };
          return { text, meta };
        } finally {
          if (dir) rmSync(dir, { recursive: true, force: true });
        }
      },
    });
  }

  // The agent's revisions are of no use to anyone after it.
  ctx.on?.('agent/disposed', (event) => {
    const agent = event?.agent ?? event;
    const id = agent?.session?.id ?? agent?.id;
    if (id) void pcc(bin, ['call', 'browser_dispose_session', JSON.stringify({ sessionId: String(id) })], undefined, String(id));
  });

  ctx.commands.register({
    name: 'chrome',
    description: 'pi-control-chrome: status, tabs or doctor (for you, not the model)',
    input: { hint: 'status|tabs|doctor' },
    recordInput: false,
    async handler(inv) {
      const what = String(inv?.rawInput ?? '').trim() || 'status';
      const args = { status: ['call', 'browser_status', '{}'], tabs: ['call', 'browser_tabs', '{}'], doctor: ['doctor'] }[what];
      if (!args) return { kind: 'error', text: 'usage: /chrome status|tabs|doctor' };
      const ran = await pcc(bin, ['--pretty', '--no-fence', ...args], inv?.signal);
      const text = [ran.stdout.trim(), ran.code === 0 ? '' : ran.stderr.trim(), ran.code === 3 && what !== 'doctor' ? SETUP_HINT : ''].filter(Boolean).join('\n');
      return { kind: ran.code === 0 ? 'success' : 'error', text };
    },
  });
}
