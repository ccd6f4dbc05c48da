// Claude Code 2.1.337's observe-only Interrupt event: its request (who stopped the turn and why)
// is a turn-end with outcome cancelled, and a turn hookd saw cancelled fires a Claude Code hooks
// file's Interrupt hooks, matched on `source`, with Claude Code's payload.
import { describe, expect, it } from "vitest";
import type { TurnEndEvent } from "@hookd/sdk";
import { claudeCode } from "../src/agents/claude-code/index.js";
import { readHookRequest } from "../src/agents/read-request.js";

const session = { sessionId: "s", agentId: "claude-code", cwd: "/repo" };
const cancelled: TurnEndEvent = { session, turn: 1, outcome: "cancelled", detail: "cancelled by the client", steps: 2 };

describe("Claude Code's Interrupt", () => {
  it("reads its request as a cancelled turn, saying who stopped it and why", () => {
    const body = { session_id: "s", transcript_path: "/t.jsonl", cwd: "/repo", hook_event_name: "Interrupt", source: "user", reason: "stop", via: "terminal" };
    const request = readHookRequest(claudeCode, JSON.stringify(body), { agentId: "claude-code", steeredContinuations: () => 0 });
    expect(request).toMatchObject({ event: "Interrupt", point: "turn-end", data: { outcome: "cancelled", detail: "the agent's turn was interrupted by user (stop)" } });
  });

  it("fires a hooks file's Interrupt hooks for a cancelled turn, matched on source, with Claude Code's payload", () => {
    const firing = claudeCode.commandHooks.firing("turn-end", cancelled);
    expect(firing).toMatchObject({ event: "Interrupt", matchValue: "user" });
    const model = claudeCode.commandHooks.parse({ hooks: { Interrupt: [{ matcher: "user", hooks: [{ type: "command", command: "by-user" }] }, { matcher: "session", hooks: [{ type: "command", command: "by-session" }] }] } }, "settings.json");
    expect((model.groups.Interrupt ?? []).filter((group) => group.matches(firing?.matchValue ?? "")).map((group) => group.hooks[0]?.command)).toEqual(["by-user"]);
    const payload = JSON.parse(claudeCode.commandHooks.payload(firing ?? { event: "", data: cancelled, matchValue: "" }, {})) as Record<string, unknown>;
    expect(payload).toMatchObject({ session_id: "s", hook_event_name: "Interrupt", source: "user", reason: "stop" });
  });
});
