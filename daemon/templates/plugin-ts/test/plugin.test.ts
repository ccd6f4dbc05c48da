// {{name}}'s tests: its decisions for typed events, and its subscription as the daemon reads it.
// Run with `npm test` (compiles, then node's built-in test runner).
// The events are built by hand here; @hookd/sdk/testing (the SDK's plugin test harness, with
// event builders and a real daemon on a temporary socket) is the place to grow them into.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { JsonValue, PreToolEvent } from "@hookd/sdk";
import plugin, { PLUGIN_NAME, decide } from "../src/plugin.js";

/** A pre-tool event for one call of `toolName` with `args`, as the daemon seals it. */
function preTool(toolName: string, args: { readonly [key: string]: JsonValue }): PreToolEvent {
  return {
    session: { sessionId: "test-session", agentId: "test-agent", cwd: "/tmp" },
    call: { callId: "call-1", rootCallId: "call-1", toolName, arguments: args, argumentsJson: JSON.stringify(args), sessionId: "test-session", turn: 1, step: 1 },
  };
}

describe(PLUGIN_NAME, () => {
  it("denies a force-push, naming the plugin and why", () => {
    assert.deepEqual(decide(preTool("Bash", { command: "git push --force origin main" })), { kind: "deny", reason: `${PLUGIN_NAME}: force-pushing rewrites shared history` });
  });

  it("denies a hard reset", () => {
    assert.equal(decide(preTool("Bash", { command: "git reset --hard HEAD~3" })).kind, "deny");
  });

  it("has no opinion on other commands, or on calls without one", () => {
    assert.deepEqual(decide(preTool("Bash", { command: "git push origin main" })), { kind: "pass" });
    assert.deepEqual(decide(preTool("Bash", { script: 42 })), { kind: "pass" });
  });

  it("subscribes to pre-tool for shell tools, fail-closed", () => {
    assert.equal(plugin.name, PLUGIN_NAME);
    const subscription = plugin.subscriptions["pre-tool"];
    assert.deepEqual(subscription?.tools, ["Bash", "shell", "exec*"]);
    assert.equal(subscription?.failurePolicy, "fail-closed");
  });
});
