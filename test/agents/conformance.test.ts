// The agent conformance table (conformance-rows.ts) run for every agent in the registry, through
// the real HTTP hook endpoint over a real socket and the real evaluation (in-process plugins): the
// agent's JSON in, the hookd events the plugins saw, the agent's JSON out, and what a forwarder
// prints and exits with. An agent in the registry without a row for every scenario fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accept, ask, block, definePlugin, deny, enter, inject, messageText, pass, patch, pluginMessage, reject, steer, userMessage } from "@hookd/sdk";
import { AGENT_NAMES } from "../../daemon/src/agents/registry.js";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { startHookHttpServer } from "../../daemon/src/http/index.js";
import type { HookHttpServer } from "../../daemon/src/http/index.js";
import { silentLogger } from "../../daemon/src/log.js";
import { inProcessListeners } from "../../daemon/src/plugins/in-process/listeners.js";
import { evaluateServiceOver } from "../../daemon/test/support/evaluate-service.js";
import { ROWS, SCENARIOS, forwardedOf } from "./conformance-rows.js";

const commandOf = (args: unknown): string => {
  const command = (args as { command?: unknown }).command;
  return typeof command === "string" ? command : "";
};

const seen: string[] = [];
const guard = definePlugin({
  name: "guard",
  points: {
    "pre-tool": (event) => {
      seen.push(`pre-tool:${event.call.toolName}:${commandOf(event.call.arguments)}`);
      const command = commandOf(event.call.arguments);
      if (command.includes("rm -rf")) return deny("destructive command refused by hookd");
      return command.includes("git push") ? ask("pushing needs a human") : pass();
    },
    "pre-step": (event) => {
      const prompt = event.messages.map(messageText).join("\n");
      seen.push(`pre-step:${prompt}`);
      return prompt.includes("forbidden") ? reject("that prompt is not allowed") : enter([...event.messages, pluginMessage("guard", "prompt context from hookd")]);
    },
    "post-tool": (event) => {
      const output = event.result.isError ? "" : event.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      seen.push(`post-tool:${event.call.toolName}:${output}`);
      return output.includes("SECRET") ? block("the output holds a secret") : accept({ additionalContexts: [pluginMessage("guard", "post-tool context from hookd")] });
    },
    "turn-stopping": (event) => {
      const last = messageText(event.lastAssistantMessage ?? { content: [] });
      seen.push(`turn-stopping:${last}`);
      return last.includes("STEER") ? steer([userMessage("keep going")]) : pass();
    },
    "turn-end": (event) => void seen.push(`turn-end:${event.outcome}`),
    "session-start": (event) => {
      seen.push(`session-start:${event.source}`);
      return inject([pluginMessage("guard", "hookd policy v1 is active")]);
    },
    "agent-event": { tools: ["PreCompact", "PreCompress"], handler: (event) => void seen.push(`agent-event:${event.dialect}:${event.eventName}`) },
  },
});
const rewriter = definePlugin({
  name: "rewriter",
  points: {
    rewrite: (event) => {
      const command = commandOf(event.call.arguments);
      seen.push(`rewrite:${event.call.toolName}:${command}`);
      return command.startsWith("echo orig") ? patch({ command: command.replace("echo orig", "echo rewritten") }) : pass();
    },
  },
});

let http: HookHttpServer;
beforeAll(async () => {
  const registry = new PluginRegistry([...inProcessListeners(guard), ...inProcessListeners(rewriter)]);
  http = await startHookHttpServer({ listen: "127.0.0.1:0", evaluate: evaluateServiceOver(registry).evaluate, log: silentLogger });
});
afterAll(() => http.close());

async function post(agent: string, body: unknown, forward: boolean, event?: string): Promise<{ status: number; text: string; exit: string | null }> {
  const response = await fetch(`${http.address}/hooks${event === undefined ? "" : `/${event}`}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hookd-dialect": agent, ...(forward ? { "x-hookd-forward": "1" } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), exit: response.headers.get("x-hookd-exit") };
}

describe("the agent conformance table", () => {
  it("has a row for every scenario of every agent in the registry, and no row for an agent it does not serve", () => {
    const missing = AGENT_NAMES.flatMap((agent) => SCENARIOS.filter((scenario) => !ROWS.some((row) => row.agent === agent && row.scenario === scenario)).map((scenario) => `${agent}:${scenario}`));
    expect(missing).toEqual([]);
    expect([...new Set(ROWS.map((row) => row.agent))].sort()).toEqual([...AGENT_NAMES].sort());
  });

  for (const row of ROWS) {
    it(`${row.agent}: ${row.scenario}`, async () => {
      seen.length = 0;
      const answer = await post(row.agent, row.in, false, row.event);
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text)).toEqual(row.out);
      expect(seen).toEqual(row.events);
      const forwarded = await post(row.agent, row.in, true, row.event);
      expect({ exitCode: Number(forwarded.exit), text: forwarded.text }).toEqual(forwardedOf(row));
    });
  }
});
