// The pi extension of pi-control-chrome (pi coding agent, npm @mariozechner/pi-coding-agent
// 0.73.x): one pi tool per tool of the catalogue's profile in use (extension/catalogue.json:
// same names, descriptions and JSON Schemas; `core` unless $PCC_TOOLS says `all` or lists
// tools), each a call through `pcc call` to the local Bridge, so the model reads exactly the
// text `pcc` and the MCP server show (compact results, page text fenced as untrusted
// content). The parameters every tool shares are described once, in a guideline of pi's
// system prompt. Plus `/chrome status|tabs|doctor` for the person at the keyboard.
//
// Owns: mapping pi tool calls to Bridge calls and their outcome to pi results.
// Must never: put Base64, state text or secrets into `details` (ids and counts only), retry a
// call, or return a tool error as a success (it is thrown: pi marks it as an error).
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// The profile, the schemas and the shared parameters' text, as every JavaScript host derives them.
import { profileTools, schemaOf, SHARED } from "../hosts/catalogue.mjs";
// Finding and running `pcc`, and the words for a missing one, as every JavaScript host does.
import { pccBin, runPcc, sessionId as plainId, SETUP_HINT } from "../hosts/pcc.mjs";
interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

const pcc = (args: string[], signal?: AbortSignal, session?: string | null): Promise<Ran> => runPcc(pccBin(), args, { signal, session: session ? plainId(session) : undefined });

/** Small ids and counts of a result for `details` (never page text, Base64 or secrets). */
function detailsOf(method: string, text: string, sessionId: string): Record<string, string | number | boolean> {
  const d: Record<string, string | number | boolean> = { method };
  // The result's compact JSON line (the fence's opening line may precede it).
  const head = text.split("\n").find((l) => l.startsWith("{")) ?? "";
  for (const key of ["snapshotId", "mode", "refCount", "nodeCount", "charCount", "matches", "nextOffset"]) {
    const m = head.match(new RegExp(`"${key}":("[^"]{1,80}"|\\d+|true|false)`));
    if (m) d[key] = m[1].startsWith('"') ? m[1].slice(1, -1) : m[1] === "true" ? true : m[1] === "false" ? false : Number(m[1]);
  }
  const tab = head.match(/"tab":\{"id":(\d+)/) ?? head.match(/"tabId":(\d+)/);
  if (tab) d.tabId = Number(tab[1]);
  if (method === "browser_accessibility_snapshot") d.sessionId = sessionId;
  return d;
}

/** An image's MIME type from its first bytes (the format the call asked for: PNG, JPEG, WebP). */
function mimeOf(b: Buffer): string {
  if (b[0] === 0xff && b[1] === 0xd8) return "image/jpeg";
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return "image/png";
}

export default function (pi: ExtensionAPI) {
  // The pi session is the agent session in the browser: its current tab, its tabs and their
  // group, its cleanup and its accessibility revisions (PCC_SESSION of each `pcc call`).
  let sessionId: string | null = null;
  const sessionOf = (ctx: { sessionManager: { getSessionId(): string } }) => (sessionId = `pi-${ctx.sessionManager.getSessionId()}`);
  pi.on("session_shutdown", async () => {
    // Its revisions are of no use to anyone after it.
    if (sessionId) await pcc(["call", "browser_dispose_session", JSON.stringify({ sessionId })], undefined, sessionId);
  });

  const tools = profileTools(process.env.PCC_TOOLS ?? "core");
  for (const [i, t] of tools.entries()) {
    pi.registerTool({
      name: t.name,
      label: t.name.replace(/^browser_/, "browser ").replace(/_/g, " "),
      description: t.description,
      // The shared parameters, once: a guideline of pi's system prompt while the tools are on.
      ...(i === 0 ? { promptGuidelines: [`Browser tools: ${SHARED} An action that reaches another page, browser_navigate and browser_tab_open answer with its state. Side effects are never retried automatically; the person's tabs are read only as they grant.`] } : {}),
      parameters: schemaOf(t) as never,
      async execute(_id: string, params: Record<string, unknown>, signal: AbortSignal | undefined, _onUpdate: unknown, ctx: { sessionManager: { getSessionId(): string } }) {
        const args = { ...params };
        const session = sessionOf(ctx);
        if (t.name === "browser_accessibility_snapshot" && args.sessionId === undefined) args.sessionId = session;
        const dir = t.name === "browser_screenshot" ? mkdtempSync(join(tmpdir(), "pcc-shot-")) : null;
        const png = dir ? join(dir, "shot.png") : null;
        try {
          const ran = await pcc(["call", t.name, JSON.stringify(args), ...(png ? ["--image", png] : [])], signal, session);
          if (ran.code !== 0) {
            const line = ran.stderr.trim().split("\n").pop() || `pcc exited with ${ran.code}`;
            throw new Error(line);
          }
          const text = ran.stdout.replace(/\n$/, "");
          const content: ({ type: "text"; text: string } | { type: "image"; data: string; mimeType: string })[] = [{ type: "text", text }];
          if (png && existsSync(png)) {
            const bytes = readFileSync(png);
            content.push({ type: "image", data: bytes.toString("base64"), mimeType: mimeOf(bytes) });
          }
          return { content, details: detailsOf(t.name, text, session) };
        } finally {
          if (dir) rmSync(dir, { recursive: true, force: true });
        }
      },
    });
  }

  pi.registerCommand("chrome", {
    description: "pi-control-chrome: status, tabs or doctor (for you, not the model)",
    handler: async (input: string, ctx) => {
      const what = (input || "status").trim();
      const args = ({ status: ["call", "browser_status", "{}"], tabs: ["call", "browser_tabs", "{}"], doctor: ["doctor"] } as Record<string, string[]>)[what];
      if (!args) return ctx.ui.notify("usage: /chrome status|tabs|doctor", "warning");
      const ran = await pcc(["--pretty", "--no-fence", ...args]);
      const shown = [ran.stdout.trim(), ran.code === 0 ? "" : ran.stderr.trim(), ran.code === 3 && what !== "doctor" ? SETUP_HINT : ""];
      ctx.ui.notify(shown.filter(Boolean).join("\n"), ran.code === 0 ? "info" : "error");
    },
  });
}
