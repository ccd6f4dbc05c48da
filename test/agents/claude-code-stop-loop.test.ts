// The real Claude Code and a "keep going until done" Stop hook that blocks the turn from ending 12
// times, while the (fake) model runs a tool in each continuation: natively, and through hookd
// (the hook in a `kind: command` plugin behind Claude Code's http hooks), the turn goes on 12
// times. Claude Code's own guard counts only blocks with no tool call in between, and so does
// hookd's continuation cap (limits.maxSteeredContinuations, default 8).
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { startFakeModel } from "./fake-model/server.js";
import type { Script } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { runClaude } from "./support/claude.js";
import type { ClaudeRun } from "./support/claude.js";

const BLOCKS = 12;

/**
 * The model runs one shell command per continuation (the first answer, and after each of the Stop
 * hook's steers), then says it is done: it holds one tool result more than steers when it is.
 */
const oneToolPerContinuation: Script = (conversation) => {
  if (conversation.tools.length === 0) return { kind: "text", text: "ok" };
  // The latest steer's number (the agent may show a steer's text more than once).
  const steers = Math.max(0, ...conversation.userTexts.flatMap((text) => [...text.matchAll(/KEEP-GOING iteration (\d+)/g)].map((match) => Number(match[1]))));
  return conversation.toolResults.length <= steers ? { kind: "shell", command: "echo ran >> iterations.txt" } : { kind: "text", text: "DONE" };
};

/** A Stop hook that blocks BLOCKS times, counting in its own state file, as iterate-until-done hooks do. */
function stopHook(dir: string): string {
  const path = join(dir, "keep-going.sh");
  const count = join(dir, "blocks");
  writeFileSync(
    path,
    `#!/bin/sh\ncat >/dev/null\nn=$(cat "${count}" 2>/dev/null || echo 0)\nif [ "$n" -lt ${BLOCKS} ]; then\n  echo $((n + 1)) > "${count}"\n  echo '{"decision":"block","reason":"KEEP-GOING iteration '$((n + 1))'"}'\nfi\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

interface LoopRun {
  readonly run: ClaudeRun;
  readonly blocks: number;
  readonly toolRuns: number;
}

async function loop(name: string, hooks: (hookFile: string) => Promise<Record<string, unknown>>): Promise<LoopRun> {
  const dir = await tempDir(`stop-loop-${name}`);
  const cwd = await tempDir(`stop-loop-${name}-cwd`);
  const home = await tempDir(`stop-loop-${name}-home`);
  const model = await startFakeModel(oneToolPerContinuation);
  try {
    const run = await runClaude({ home, cwd, modelUrl: model.url, hooks: await hooks(stopHook(dir)), prompt: "Do the task until it is done.", args: ["--allowedTools", "Bash"] });
    const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((line) => line !== "").length : 0);
    return { run, blocks: Number(readFileSync(join(dir, "blocks"), "utf8").trim()), toolRuns: lines(join(cwd, "iterations.txt")) };
  } finally {
    await model.close();
  }
}

describe("a Stop hook that blocks 12 times while each continuation runs a tool", () => {
  let daemon: DaemonProcess | undefined;
  let native: LoopRun;
  let throughHookd: LoopRun;

  beforeAll(async () => {
    native = await loop("native", async (hook) => ({ Stop: [{ hooks: [{ type: "command", command: hook, timeout: 30 }] }] }));
    throughHookd = await loop("hookd", async (hook) => {
      const dir = await tempDir("stop-loop-config");
      const file = join(dir, "settings.json");
      writeFileSync(file, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: hook }] }] } }));
      daemon = await startDaemon({ config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "keep-going", kind: "command", hooks: file, dialect: "claude-code" }] } });
      const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
      // hookd sees the session's tool calls (they reset its count) through the tool hooks.
      const http = (event: string, matcher?: string) => [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "http", url: `${url}/hooks/${event}`, timeout: 30 }] }];
      return { PreToolUse: http("PreToolUse", "*"), PostToolUse: http("PostToolUse", "*"), Stop: http("Stop") };
    });
  }, 600_000);

  afterAll(async () => {
    await daemon?.stop();
  });

  it("natively: 12 blocks, 13 tool runs (the first answer's and one per continuation)", () => {
    expect(native.run.code, native.run.stderr).toBe(0);
    expect([native.blocks, native.toolRuns]).toEqual([BLOCKS, BLOCKS + 1]);
  });

  it("through hookd: the same 12 continuations (the continuation cap refused none)", () => {
    expect(throughHookd.run.code, throughHookd.run.stderr).toBe(0);
    expect([throughHookd.blocks, throughHookd.toolRuns]).toEqual([BLOCKS, BLOCKS + 1]);
  });
});
