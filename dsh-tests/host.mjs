// A real DeepSeek Harness host in-process (the runtimes of ../../shared/research/dsh.md §6):
// cordis Context with DSH's system prompt, tool, command, LLM, agent, session, attachment and
// agent-loop runtimes; the plugin loaded by cordis' Loader from its module path; a scripted
// model (DSH ships no fake provider): each step is a function of the request the agent loop
// sends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Context } from '@deepseek-ai/cordis';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import CommandRuntime from '@deepseek-ai/dsh-commands';
import { LlmRuntime, LlmAdapter, createUserMessage } from '@deepseek-ai/dsh-llm';
import AgentRegistry from '@deepseek-ai/dsh-agent';
import { SessionStore, SessionId } from '@deepseek-ai/dsh-session';
import LocalAttachmentStore from '@deepseek-ai/dsh-attachment-local';
import AgentLoop from '@deepseek-ai/dsh-agent-loop';
import Loader from '@deepseek-ai/cordis-plugin-loader';

const here = path.dirname(fileURLToPath(import.meta.url));
export const pluginPath = path.join(here, '..', 'dsh-plugin', 'index.mjs');

/** The scripted model: `steps` are answered in order, each `(request) → {text?, calls?}`. */
class Scripted extends LlmAdapter {
  constructor() {
    super();
    this.steps = [];
    this.requests = [];
  }

  providerInfo(provider) {
    return { id: provider, name: 'scripted' };
  }

  providerRetryPolicy() {
    return undefined;
  }

  async listModels() {
    return [{ provider: 'scripted', id: 'm1', name: 'm1' }];
  }

  async resolveModel(provider, model) {
    return { provider, id: model, name: model, context: { contextWindow: 1_000_000 } };
  }

  async *stream(options) {
    // A title or compaction request is the host's, not the script's.
    if (options.purpose) {
      yield* this.answer({ text: 'Browser session' });
      return;
    }
    this.requests.push(options);
    const step = this.steps.shift() ?? (() => ({ text: 'Done.' }));
    yield* this.answer(step(options));
  }

  *answer({ text, calls = [] }) {
    let index = 0;
    if (text) {
      yield { type: 'block-start', index, blockType: 'text' };
      yield { type: 'text-delta', index, text };
      yield { type: 'block-end', index, block: { type: 'text', text } };
      index++;
    }
    for (const [i, [name, args]] of calls.entries()) {
      const id = `call-${Date.now()}-${i}`;
      const json = JSON.stringify(args);
      yield { type: 'block-start', index, blockType: 'tool-call' };
      yield { type: 'tool-call-delta', index, id, name, argumentsDelta: json };
      yield { type: 'block-end', index, block: { type: 'tool-call', id, name, arguments: json } };
      index++;
    }
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
    yield { type: 'finish', reason: { kind: calls.length ? 'tool-calls' : 'stop' } };
  }
}

/**
 * A DSH host with the plugin loaded (`config`: its settings). `run(prompt, steps)` runs one
 * agent turn of the scripted model and gives the agent; `requests` are every model request.
 */
export async function startHost(config = {}) {
  const dshHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-dsh-home-'));
  process.env.DSH_HOME = dshHome; // the store reads it too (research §9.3)
  const ctx = new Context();
  for (const plugin of [SystemPrompt, ToolRuntime, CommandRuntime, LlmRuntime, AgentRegistry, SessionStore]) await ctx.plugin(plugin);
  await ctx.plugin(LocalAttachmentStore, { dshHome });
  await ctx.plugin(AgentLoop, { agents: [] });
  const model = new Scripted();
  ctx.llm.registerAdapter(['scripted'], model);
  // As a DSH profile loads it: cordis' Loader imports the module by its absolute path.
  await ctx.plugin(Loader, { baseUrl: pathToFileURL(`${here}/`).href });
  const entry = await ctx.loader.create({ name: pluginPath, config });
  await ctx.loader.await();
  let n = 0;
  const agents = [];
  return {
    ctx,
    model,
    dshHome,
    /** Removes the plugin, as taking it out of a profile does. */
    unload: async () => {
      await ctx.loader.remove(entry);
      await ctx.loader.await();
    },
    /** A new agent (its own session) running one turn of `steps` on `prompt`. */
    async run(prompt, steps, agent) {
      if (!agent) {
        const created = await ctx.agents.create({ sessionId: SessionId(`s-test-${++n}`), agentOptions: { provider: 'scripted', model: 'm1' } });
        agents.push(created);
        agent = created.agent;
      }
      model.steps = [...steps];
      agent.followup(createUserMessage({ content: [{ type: 'text', text: prompt }], source: { kind: 'user' } }));
      await agent.whenIdle();
      return agent;
    },
    /** Ends an agent `run` made (DSH's agent/disposed follows). */
    async disposeAgent(agent) {
      const i = agents.findIndex((a) => a.agent === agent);
      if (i >= 0) await agents.splice(i, 1)[0].dispose();
    },
    async close() {
      for (const a of agents) await a.dispose?.();
      fs.rmSync(dshHome, { recursive: true, force: true });
    },
  };
}
