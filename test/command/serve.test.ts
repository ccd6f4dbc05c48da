// Command hooks loaded by a real `hookd serve` from its config: a Claude Code hooks file whose
// shell scripts decide at pre-tool (exit 2 blocks with stderr as the reason) and at the stop
// (exit 2 continues the turn with the reason), with the continuation cap applying.
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { openScriptedAgent, toolResults } from "../support/scripted-agent.js";

let daemon: DaemonProcess;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-cmd-"));
  const guard = join(dir, "guard.sh");
  await writeFile(guard, `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'"rm '*) echo "no deleting here" >&2; exit 2;; esac\nexit 0\n`);
  const stop = join(dir, "stop.sh");
  await writeFile(stop, `#!/bin/sh\necho "keep working" >&2\nexit 2\n`);
  await Promise.all([chmod(guard, 0o755), chmod(stop, 0o755)]);
  const hooks = {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }],
      Stop: [{ hooks: [{ type: "command", command: stop }] }],
    },
  };
  await writeFile(join(dir, "settings.json"), JSON.stringify(hooks));
  daemon = await startDaemon({
    config: {
      plugins: [{ name: "cc-hooks", kind: "command", hooks: join(dir, "settings.json"), dialect: "claude-code" }],
      limits: { maxSteeredContinuations: 2 },
    },
  });
});

afterAll(async () => {
  await daemon?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("command hooks in a served daemon", () => {
  it("denies through exit 2 with stderr as the reason, and allows otherwise", async () => {
    const client = connectHost(daemon.target, { agentId: "cc" });
    const session = { sessionId: "cc-1", agentId: "cc", cwd: dir };
    const call = (callId: string, command: string) => {
      const args = snapshotJson({ command });
      return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "cc-1", turn: 1, step: 1 };
    };
    const denied = await client.evaluatePreTool({ session, call: call("c1", "rm -rf build") });
    expect(denied.decision).toEqual({ kind: "deny", reason: "no deleting here" });
    expect(denied.trace.decidedBy).toBe("cc-hooks");
    const allowed = await client.evaluatePreTool({ session, call: call("c2", "ls") });
    expect(allowed.decision.kind).toBe("allow");
    client.close();
  });

  it("continues the turn from a Stop hook until the continuation cap", async () => {
    const agent = openScriptedAgent({
      target: daemon.target,
      agentId: "cc",
      session: { sessionId: "cc-2", cwd: dir },
      script: (_prompt, step) => (step === 1 ? { say: "", calls: [{ callId: "c1", toolName: "Bash", arguments: { command: "rm x" } }] } : { say: "done" }),
    });
    const end = await agent.prompt("work");
    expect(toolResults(agent.events)[0]?.result).toMatchObject({ isError: true, message: "no deleting here" });
    expect(end.reason).toBe("continuation_cap");
    // One tool step, its continuation, then two steered continuations before the cap.
    expect(end.steps).toBe(4);
    await agent.session.close();
    agent.client.close();
  });
});
