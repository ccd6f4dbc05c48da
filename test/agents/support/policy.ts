// The policy the real-agent tests run inside `hookd serve`, as an in-process plugin: it refuses
// `rm -r`, rewrites a marked command, asks for a marked one (answered by its approval handler),
// adds context at session start, at each prompt and after a harmless command, steers the first
// stop once, and writes every event it sees as a JSON line to HOOKD_AGENT_LOG, so a test can tell
// which points a real agent drove (with the session's lineage).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startDaemon, writePluginModule } from "../../support/daemon-process.js";
import type { DaemonProcess } from "../../support/daemon-process.js";
import { freePort } from "./agents.js";

export const MARK = {
  denyReason: "hookd-policy: destructive command refused (rm -r)",
  sessionContext: "SESSION-CONTEXT-7f3",
  promptContext: "PROMPT-CONTEXT-51c",
  postToolContext: "POST-TOOL-CONTEXT-9d2",
  steer: "STEER-ONCE-4e8: check your work, then answer DONE again",
  rewriteFrom: "REWRITE-ME",
  rewriteTo: "rewritten-by-hookd",
  approval: "NEEDS-APPROVAL",
} as const;

const SOURCE = `
import { appendFileSync } from "node:fs";
import { accept, approve, ask, definePlugin, deny, enter, inject, pass, patch, pluginMessage, steer, userMessage } from "@hookd/sdk";
const MARK = ${JSON.stringify(MARK)};
const log = (point, e, extra = {}) =>
  appendFileSync(process.env.HOOKD_AGENT_LOG, JSON.stringify({ point, session: e.session, ...extra }) + "\\n");
// Cline's run_commands takes a list of commands.
const commands = (call) => (Array.isArray(call.arguments.commands) ? call.arguments.commands.map(String) : undefined);
const command = (call) => String(call.arguments.command ?? call.arguments.cmd ?? commands(call)?.join("\\n") ?? "");
export default definePlugin({
  name: "agent-policy",
  points: {
    "session-start": (e) => (log("session-start", e, { source: e.source }), inject([pluginMessage("agent-policy", MARK.sessionContext)])),
    "pre-step": (e) => (log("pre-step", e), enter([...e.messages, pluginMessage("agent-policy", MARK.promptContext)])),
    rewrite: (e) => {
      const text = command(e.call);
      log("rewrite", e, { tool: e.call.toolName, command: text });
      if (!text.includes(MARK.rewriteFrom)) return pass();
      const list = commands(e.call);
      return patch(list === undefined ? { command: text.replaceAll(MARK.rewriteFrom, MARK.rewriteTo) } : { commands: list.map((c) => c.replaceAll(MARK.rewriteFrom, MARK.rewriteTo)) });
    },
    "pre-tool": (e) => {
      const text = command(e.call);
      log("pre-tool", e, { tool: e.call.toolName, command: text });
      if (text.includes("rm -r")) return deny(MARK.denyReason);
      if (text.includes(MARK.approval)) return ask("hookd-policy: this command needs approval");
      return pass();
    },
    approval: (e) => (log("approval", e, { tool: e.call.toolName, command: command(e.call) }), approve()),
    "post-tool": (e) => {
      const text = command(e.call);
      log("post-tool", e, { tool: e.call.toolName, command: text });
      return text.includes("harmless") ? accept({ additionalContexts: [pluginMessage("agent-policy", MARK.postToolContext)] }) : pass();
    },
    "turn-stopping": (e) => (log("turn-stopping", e, { stopHookActive: e.stopHookActive }), e.stopHookActive ? pass() : steer([userMessage(MARK.steer)])),
    "session-end": (e) => log("session-end", e, { reason: e.reason }),
  },
});
`;

export interface PolicyEntry {
  readonly point: string;
  readonly session: { readonly sessionId: string; readonly agentId: string; readonly parentSessionId?: string; readonly agentType?: string };
  readonly tool?: string;
  readonly command?: string;
  readonly source?: string;
  readonly reason?: string;
  readonly stopHookActive?: boolean;
}

export interface PolicyDaemon {
  readonly daemon: DaemonProcess;
  /** http://127.0.0.1:PORT, hookd's hook endpoint (http hooks and the forwarders). */
  readonly hookUrl: string;
  /** What the policy saw so far, in order. */
  entries(): Promise<PolicyEntry[]>;
  stop(): Promise<void>;
}

/** An in-process plugin loaded beside the policy (its source may log to HOOKD_AGENT_LOG too). */
export interface ExtraPlugin {
  readonly name: string;
  readonly source: string;
}

export async function startPolicyDaemon(options: { readonly plugins?: readonly ExtraPlugin[] } = {}): Promise<PolicyDaemon> {
  const port = await freePort();
  const module = await writePluginModule("agent-policy", SOURCE);
  const logPath = join(module, "..", "policy.jsonl");
  const extra = await Promise.all((options.plugins ?? []).map(async (plugin) => ({ name: plugin.name, kind: "in-process", module: await writePluginModule(plugin.name, plugin.source) })));
  const daemon = await startDaemon({
    config: { http: { listen: `127.0.0.1:${port}` }, plugins: [...extra, { name: "agent-policy", kind: "in-process", module }] },
    env: { HOOKD_AGENT_LOG: logPath },
  });
  return {
    daemon,
    hookUrl: `http://127.0.0.1:${port}`,
    entries: async () => {
      const text = await readFile(logPath, "utf8").catch(() => "");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as PolicyEntry);
    },
    stop: async () => void (await daemon.stop()),
  };
}
