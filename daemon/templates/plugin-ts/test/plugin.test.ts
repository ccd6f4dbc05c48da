// {{name}}'s tests, with @hookd/sdk/testing: its decisions in-process (callHandler, typed
// events from `events`), which calls reach it (matches), and the plugin against a real hookd
// daemon on a temporary socket (startTestDaemon; it runs the daemon found as the SDK documents:
// $HOOKD_DAEMON, an installed @hookd/daemon, or `hookd` on PATH).
import { strict as assert } from "node:assert";
import { after, describe, it } from "node:test";
import { callHandler, events, matches, startTestDaemon } from "@hookd/sdk/testing";
import type { TestDaemon } from "@hookd/sdk/testing";
import plugin, { PLUGIN_NAME } from "../src/plugin.js";

describe(PLUGIN_NAME, () => {
  it("denies a force-push, naming the plugin and why", async () => {
    assert.deepEqual(await callHandler(plugin, "pre-tool", events.preTool("Bash", { command: "git push --force origin main" })), { kind: "deny", reason: `${PLUGIN_NAME}: force-pushing rewrites shared history` });
  });

  it("has no opinion on other commands, or on calls without one", async () => {
    assert.deepEqual(await callHandler(plugin, "pre-tool", events.preTool("Bash", { command: "git push origin main" })), { kind: "pass" });
    assert.deepEqual(await callHandler(plugin, "pre-tool", events.preTool("Bash", { script: 42 })), { kind: "pass" });
  });

  it("is called for shell tools only", () => {
    assert.equal(matches(plugin, "pre-tool", events.preTool("Bash", {})), true);
    assert.equal(matches(plugin, "pre-tool", events.preTool("Read", { path: "/etc" })), false);
  });

  describe("against a real daemon", () => {
    let daemon: TestDaemon | undefined;
    after(async () => daemon?.close());

    it("denies a hard reset and lets the rest through", async () => {
      daemon = await startTestDaemon(plugin);
      const denied = await daemon.evaluatePreTool(events.preTool("Bash", { command: "git reset --hard HEAD~1" }));
      assert.equal(denied.decision.kind, "deny");
      assert.equal(denied.trace.decidedBy, PLUGIN_NAME);
      const allowed = await daemon.evaluatePreTool(events.preTool("Bash", { command: "git status" }));
      assert.deepEqual(allowed.decision, { kind: "allow" });
    });
  });
});
