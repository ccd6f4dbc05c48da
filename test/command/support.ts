// Test support for command hooks with REAL shell scripts: a temporary directory to write scripts
// and a hooks file into, a registry built from the command source's listeners, and the point
// functions the loop and the evaluate API use. Also: is a process group still alive?
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userMessage } from "@hookd/sdk";
import type { PreStepEvent, PreToolEvent, SessionInfo, ToolCall } from "@hookd/sdk";
import { EventBus } from "../../daemon/src/engine/events.js";
import type { EngineEvent } from "../../daemon/src/engine/events.js";
import { sealCall } from "../../daemon/src/engine/pipeline/seal.js";
import type { PointEnv } from "../../daemon/src/engine/decide.js";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { createLogger } from "../../daemon/src/log.js";
import type { CommandPluginConfig, CommandPluginSource, CommandRunReport } from "../../daemon/src/plugins/command/index.js";
import { commandPluginSource } from "../../daemon/src/plugins/command/index.js";

export interface Workspace {
  readonly dir: string;
  /** Writes an executable script and returns its absolute path. */
  script(name: string, body: string): string;
  file(name: string): string;
  read(name: string): string;
  cleanup(): void;
}

export function workspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), "hookd-cmd-"));
  return {
    dir,
    script(name, body) {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    file: (name) => join(dir, name),
    read: (name) => readFileSync(join(dir, name), "utf8"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Harness {
  readonly source: CommandPluginSource;
  readonly registry: PluginRegistry;
  readonly events: EngineEvent[];
  readonly reports: CommandRunReport[];
  readonly pgids: Map<string, number>;
  readonly session: SessionInfo;
  env(signal?: AbortSignal): PointEnv;
}

/** Loads a hooks file through commandPluginSource, as the daemon would. */
export async function harness(ws: Workspace, hooks: unknown, config: Partial<CommandPluginConfig> = {}): Promise<Harness> {
  const path = ws.file("hooks.json");
  writeFileSync(path, JSON.stringify(hooks, null, 2));
  const reports: CommandRunReport[] = [];
  const pgids = new Map<string, number>();
  const source = await commandPluginSource(
    { name: "cmd", kind: "command", hooks: path, dialect: "claude-code", required: false, ...config },
    { log: createLogger({ write: () => {} }), onReport: (report) => reports.push(report), onSpawn: (hook, pgid) => pgids.set(hook, pgid) },
  );
  const registry = new PluginRegistry(source.listeners());
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const session: SessionInfo = { sessionId: "s1", agentId: "agent-1", cwd: ws.dir };
  return {
    source,
    registry,
    events,
    reports,
    pgids,
    session,
    env: (signal = new AbortController().signal) => ({ registry, bus, scope: { sessionId: "s1", agentId: "agent-1", turn: 1, step: 1 }, signal }),
  };
}

export function toolCall(session: SessionInfo, toolName: string, args: unknown, callId = "toolu_1"): ToolCall {
  const sealed = sealCall({ callId, toolName, arguments: args }, { sessionId: session.sessionId, turn: 1, step: 1 }, () => undefined);
  if (!sealed.ok) throw new Error(sealed.failure.message);
  return sealed.call;
}

export function preTool(session: SessionInfo, toolName: string, args: unknown = { command: "ls" }): PreToolEvent {
  return { session, call: toolCall(session, toolName, args) };
}

export function preStep(session: SessionInfo, prompt: string): PreStepEvent {
  return { session, turn: 1, step: 1, messages: [userMessage(prompt)] };
}

/** Processes of a group that are not zombies (reading /proc; Linux). */
export function liveMembers(pgid: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...; comm may contain spaces, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") live.push(Number(entry));
  }
  return live;
}

/** `kill -0 -pgid`: true while any process (zombies included) is in the group. */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
