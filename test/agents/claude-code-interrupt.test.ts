// The real Claude Code 2.1.337's Interrupt event through hookd. It fires when an interrupt ends
// the main turn and Claude Code goes on (not when it exits: SIGINT to `claude -p` sends none), so
// the test is an SDK host that denies the model's command and interrupts the turn with it; Claude
// Code sends Interrupt (who stopped the turn and why) to its http hook, and hookd's turn-end
// plugin sees the turn cancelled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scripted, startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import type { AgentRun } from "./support/agents.js";
import { runClaudeHosted } from "./support/claude-host.js";
import { startObserverDaemon } from "./support/event-observer.js";
import type { ObservedEntry, ObserverDaemon } from "./support/event-observer.js";

describe("Claude Code's Interrupt reaches hookd", () => {
  let observer: ObserverDaemon | undefined;
  let model: FakeModel | undefined;
  let run: AgentRun;
  let entries: ObservedEntry[];

  beforeAll(async () => {
    observer = await startObserverDaemon([]);
    model = await startFakeModel(scripted([{ kind: "shell", command: "touch interrupted.txt" }]));
    const hooks = { Interrupt: [{ hooks: [{ type: "http", url: `${observer.hookUrl}/hooks/Interrupt`, timeout: 30 }] }] };
    const home = await tempDir("claude-home");
    const cwd = await tempDir("claude-cwd");
    run = await runClaudeHosted({ home, cwd, modelUrl: model.url, hooks, prompt: "Touch the file.", answer: () => Promise.resolve("deny"), interruptOnDeny: true });
    entries = await observer.entries();
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await observer?.stop();
  });

  it("as a turn-end with outcome cancelled, saying who stopped the turn and why", () => {
    expect(entries, run.stdout.slice(-1500)).toEqual([expect.objectContaining({ point: "turn-end", outcome: "cancelled", detail: "the agent's turn was interrupted by user (permission_denied)", session: expect.objectContaining({ agentId: "claude-code" }) as unknown })]);
  });
});
