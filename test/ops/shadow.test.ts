// Shadow mode through a real `hookd serve`: shadow plugins of three kinds (a remote plugin this
// test serves, a worker plugin, an unreachable fail-closed remote plugin) beside no enforcing
// one. The agent's evaluate answer is the real decision (allow) while the remote shadow plugin
// is still blocked on a latch the test releases only afterwards; its "would have denied" record
// then reaches the live tail (HookAdmin.TailAudit and the `hookd tail` command) and the audit
// file after the applied decision; the unreachable plugin applies no failure policy and is
// counted as a shadow fault; Prometheus shows shadow outcomes in their own series. Then the other
// kinds (in-process, managed, command) beside an enforcing allow, and the hosted loop with a
// shadow plugin at every loop and tool point: the turn runs as if it were not there.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { connectHost, definePlugin, deny, pass, servePlugin, snapshotJson } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";
import { fromProtoPoint } from "@hookd/sdk/internal";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, startDaemon, writePluginModule } from "../support/daemon-process.js";
import { contextTexts, openScriptedAgent, toolResults } from "../support/scripted-agent.js";
import { adminClient, closeClient, readAudit } from "./support.js";
import type { pb } from "./support.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GATE = fileURLToPath(new URL("../fixtures/plugins/gate.mjs", import.meta.url));
const MANAGED = fileURLToPath(new URL("../fixtures/plugins/managed-plugin.mjs", import.meta.url));

function call(callId: string, toolName: string, command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId, rootCallId: callId, toolName, arguments: args.value, argumentsJson: args.text, sessionId: "s1", turn: 1, step: 1 };
}

const session: SessionInfo = { sessionId: "s1", agentId: "tester", cwd: "/" };

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((ok) => (resolve = ok));
  return { promise, resolve };
}

/** Lines that arrive over time, and a wait (bounded, failing with what arrived) for one that matches. */
class Arrivals<T> {
  readonly items: T[] = [];
  readonly #waiters = new Set<() => void>();

  push(item: T): void {
    this.items.push(item);
    for (const wake of [...this.#waiters]) wake();
  }

  async wait(match: (item: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.items.find(match);
      if (found !== undefined) return found;
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no ${what}; arrived:\n${this.items.map((i) => JSON.stringify(i, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).join("\n")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        const wake = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
      });
    }
  }
}

describe("shadow mode through the daemon", () => {
  it("answers with the real decision while a shadow plugin is blocked; audits, tails and counts what the shadows would have done", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-shadow-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const judgeSocket = join(dir, "judge.sock");
    const started = deferred();
    const latch = deferred();
    const judge = await servePlugin(
      definePlugin({
        name: "judge",
        points: {
          "pre-tool": {
            deadlineMs: 30_000,
            handler: async (event) => {
              if (event.call.callId !== "hold") return pass();
              started.resolve();
              await latch.promise;
              return deny("judge would block this");
            },
          },
        },
      }),
      { socketPath: judgeSocket },
    );
    cleanups.push(() => judge.close());

    const auditPath = join(dir, "audit.jsonl");
    const daemon = await startDaemon({
      config: {
        audit: { path: auditPath, fsync: "always" },
        metrics: { listen: "127.0.0.1:0" },
        plugins: [
          { name: "judge", kind: "remote", target: `unix://${judgeSocket}`, mode: "shadow" },
          { name: "gate", kind: "worker", module: GATE, mode: "shadow" },
          {
            name: "ghost",
            kind: "remote",
            mode: "shadow",
            target: `unix://${join(dir, "nobody.sock")}`,
            points: { "pre-tool": { failurePolicy: "fail-closed", deadlineMs: 500 } },
            health: { initialBackoffMs: 50, maxBackoffMs: 200 },
          },
        ],
      },
    });
    cleanups.push(async () => {
      await daemon.stop();
    });
    const client = connectHost(daemon.target, { agentId: "tester" });
    cleanups.push(() => client.close());

    // The live tail over HookAdmin, and `hookd tail --kind shadow`, both opened before the calls.
    const admin = adminClient(daemon.socket);
    cleanups.push(() => closeClient(admin));
    const tailing = new AbortController();
    const records = new Arrivals<pb.AuditRecord>();
    const tailDone = (async () => {
      for await (const { record } of admin.tailAudit({}, { signal: tailing.signal })) if (record !== undefined) records.push(record);
    })().catch(() => undefined);
    cleanups.push(async () => {
      tailing.abort();
      await tailDone;
    });
    const cli = spawn(process.execPath, [CLI, "tail", "--socket", daemon.socket, "--kind", "shadow"], { stdio: ["ignore", "pipe", "pipe"] });
    cleanups.push(() => void cli.kill("SIGKILL"));
    const cliLines = new Arrivals<string>();
    createInterface({ input: cli.stdout }).on("line", (line) => cliLines.push(line));
    await daemon.waitForLog((line) => line.msg === "audit tail opened" && JSON.stringify(line).includes("{}"), 15_000);
    // Two tails: the CLI's is the second one opened.
    const until = Date.now() + 15_000;
    while (daemon.logs.filter((line) => line.msg === "audit tail opened").length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));

    const answer = await client.evaluatePreTool({ session, call: call("hold", "Bash", "rm -rf /tmp/x") });
    // The real decision is out, and the shadow plugin is still blocked: the latch is released only now.
    expect(answer.decision.kind).toBe("allow");
    expect(answer.trace.decidedBy).toBe("default");
    await started.promise;
    latch.resolve();

    const judged = await records.wait((r) => r.kind === "shadow" && r.plugin === "judge", "shadow record of judge");
    expect(judged).toMatchObject({ decision: "deny", reason: "judge would block this", cause: "", callId: "hold", sessionId: "s1" });
    expect(judged.durationUs).toBeGreaterThan(0n);
    const applied = records.items.findIndex((r) => r.kind === "decision" && r.callId === "hold");
    expect(applied).toBeGreaterThanOrEqual(0);
    expect(applied).toBeLessThan(records.items.indexOf(judged));
    expect(records.items.find((r) => r.kind === "decision" && r.callId === "hold")).toMatchObject({ plugin: "default", decision: "allow" });

    const gated = await records.wait((r) => r.kind === "shadow" && r.plugin === "gate", "shadow record of the worker plugin");
    expect(gated).toMatchObject({ decision: "deny", reason: "no bash" });
    const ghost = await records.wait((r) => r.kind === "shadow" && r.plugin === "ghost", "shadow record of the unreachable plugin");
    expect(ghost).toMatchObject({ decision: "none", cause: "unavailable" });
    // No shadow call is an ordinary invocation.
    expect(records.items.filter((r) => r.kind === "invocation")).toEqual([]);

    const line = await cliLines.wait((l) => l.includes("judge would have denied"), "hookd tail line for judge");
    expect(line).toMatch(/^\S+ shadow +pre-tool +judge would have denied \S+ \[tester\/s1 t1s1 hold\] "judge would block this"$/);
    await cliLines.wait((l) => l.includes("ghost would have given no answer (unavailable); no failure policy applied"), "hookd tail line for ghost");
    expect(cliLines.items.some((l) => / decision /.test(l))).toBe(false); // --kind shadow

    const file = readAudit(auditPath);
    expect(file.find((r) => r.kind === "shadow" && r.plugin === "judge")).toMatchObject({ decision: "deny", verdict: "would have denied", outcome: "answered", point: "pre-tool" });
    expect(file.find((r) => r.kind === "shadow" && r.plugin === "ghost")).toMatchObject({ outcome: "fault", cause: "unavailable" });

    const { address } = await daemon.waitForLog((l) => l.msg === "metrics serving");
    const body = await (await fetch(`http://${String(address)}/metrics`)).text();
    expect(body).toContain('hookd_shadow_calls_total{plugin="judge",point="pre-tool",outcome="answered",decision="deny"} 1');
    expect(body).toContain('hookd_shadow_calls_total{plugin="gate",point="pre-tool",outcome="answered",decision="deny"} 1');
    expect(body).toContain('hookd_shadow_faults_total{plugin="ghost",point="pre-tool",cause="unavailable"} 1');
    expect(body).toMatch(/^hookd_decisions_total\{point="pre-tool",decision="allow"\} 1$/m);
    expect(body).not.toMatch(/^hookd_plugin_calls_total\{/m);
    expect(body).not.toMatch(/^hookd_plugin_failure_policy_total\{/m);
  });

  it("applies to in-process, managed and command plugins too: each would have denied, the enforcing plugin's allow applies", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-shadow-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const allowing = await writePluginModule("allowing", `import { allow, definePlugin } from "@hookd/sdk";\nexport default definePlugin({ name: "allowing", points: { "pre-tool": () => allow() } });\n`);
    const denying = await writePluginModule("denying", `import { deny, definePlugin } from "@hookd/sdk";\nexport default definePlugin({ name: "denying", points: { "pre-tool": () => deny("in-process says no") } });\n`);
    const hooks = join(dir, "hooks.json");
    const answer = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "the hook says no" } });
    await writeFile(hooks, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${answer}'` }] }] } }));
    const auditPath = join(dir, "audit.jsonl");
    const daemon = await startDaemon({
      config: {
        audit: { path: auditPath, fsync: "always" },
        plugins: [
          { name: "allowing", kind: "in-process", module: allowing },
          { name: "denying", kind: "in-process", module: denying, mode: "shadow" },
          { name: "fixture", kind: "managed", command: process.execPath, args: [MANAGED], mode: "shadow", required: true },
          { name: "hooks", kind: "command", hooks, dialect: "claude-code", mode: "shadow" },
        ],
      },
    });
    cleanups.push(async () => {
      await daemon.stop();
    });
    const client = connectHost(daemon.target, { agentId: "tester" });
    cleanups.push(() => client.close());
    const admin = adminClient(daemon.socket);
    cleanups.push(() => closeClient(admin));
    const tailing = new AbortController();
    const records = new Arrivals<pb.AuditRecord>();
    const tailDone = (async () => {
      for await (const { record } of admin.tailAudit({ point: 0, sessionId: "s1", plugin: "" }, { signal: tailing.signal })) if (record !== undefined) records.push(record);
    })().catch(() => undefined);
    cleanups.push(async () => {
      tailing.abort();
      await tailDone;
    });
    // Required: readiness waits until the managed plugin serves, so its call cannot find it starting.
    await daemon.waitForLog((line) => line.msg === "hookd ready");
    await daemon.waitForLog((line) => line.msg === "audit tail opened");
    const result = await client.evaluatePreTool({ session, call: call("c1", "Bash", "deny") });
    expect(result.decision.kind).toBe("allow");
    expect(result.trace.decidedBy).toBe("allowing");
    for (const [plugin, reason] of [
      ["denying", "in-process says no"],
      ["hooks", "the hook says no"],
    ] as const) {
      expect(await records.wait((r) => r.kind === "shadow" && r.plugin === plugin, `shadow record of ${plugin}`)).toMatchObject({ decision: "deny", reason });
    }
    const managed = await records.wait((r) => r.kind === "shadow" && r.plugin === "fixture", "shadow record of the managed plugin");
    expect(managed.decision).toBe("deny");
    expect(managed.reason).toMatch(/^fixture \d+ denies$/);
    expect(records.items.filter((r) => r.kind === "invocation").map((r) => r.plugin)).toEqual(["allowing"]);
    expect(readAudit(auditPath).filter((r) => r.kind === "shadow").map((r) => r.verdict)).toEqual(["would have denied", "would have denied", "would have denied"]);
  });

  it("in the hosted loop, a shadow plugin at every loop and tool point changes nothing about the turn", async () => {
    const shadow = await writePluginModule(
      "meddler",
      `import { block, deny, definePlugin, inject, reject, steer, userMessage } from "@hookd/sdk";
export default definePlugin({
  name: "meddler",
  points: {
    "session-start": () => inject([userMessage("meddler context")]),
    "pre-step": () => reject("meddler rejects every step"),
    "pre-tool": () => deny("meddler denies every call"),
    "post-tool": () => block("meddler blocks every result"),
    "turn-stopping": () => steer([userMessage("meddler steers")]),
  },
});
`,
    );
    const daemon = await startDaemon({ config: { plugins: [{ name: "meddler", kind: "in-process", module: shadow, mode: "shadow" }] } });
    cleanups.push(async () => {
      await daemon.stop();
    });
    const admin = adminClient(daemon.socket);
    cleanups.push(() => closeClient(admin));
    const tailing = new AbortController();
    const records = new Arrivals<pb.AuditRecord>();
    const tailDone = (async () => {
      for await (const { record } of admin.tailAudit({ sessionId: "s-loop" }, { signal: tailing.signal })) if (record !== undefined) records.push(record);
    })().catch(() => undefined);
    cleanups.push(async () => {
      tailing.abort();
      await tailDone;
    });
    await daemon.waitForLog((line) => line.msg === "audit tail opened");

    const agent = openScriptedAgent({
      target: daemon.target,
      agentId: "loop",
      session: { sessionId: "s-loop" },
      script: (prompt, step) => (step === 1 ? { say: "running", calls: [{ callId: "call-1", toolName: "Bash", arguments: { command: "rm -rf /" } }] } : { say: `done: ${prompt}` }),
    });
    cleanups.push(async () => {
      await agent.session.close();
      agent.client.close();
    });
    await agent.session.opened;
    const turn = await agent.prompt("go");
    // Not rejected, not steered: two steps (the call, then the answer), completed.
    expect(turn).toMatchObject({ reason: "completed", steps: 2 });
    expect(agent.dispatched.map((c) => c.callId)).toEqual(["call-1"]);
    expect(toolResults(agent.events)[0]?.result.isError).toBe(false);
    expect(contextTexts(agent.events)).toEqual([]);

    const wouldHave = async (point: string, decision: string): Promise<void> => {
      await records.wait((r) => r.kind === "shadow" && r.plugin === "meddler" && pointLabel(r.point) === point && r.decision === decision, `shadow ${decision} at ${point}`);
    };
    await wouldHave("session-start", "inject");
    await wouldHave("pre-step", "reject");
    await wouldHave("pre-tool", "deny");
    await wouldHave("post-tool", "block");
    await wouldHave("turn-stopping", "steer");
    expect(records.items.filter((r) => r.kind === "decision").every((r) => r.plugin === "default")).toBe(true);
  });
});

/** A record's point as its name. */
function pointLabel(point: pb.Point): string {
  const converted = fromProtoPoint(point, "point");
  return converted.ok ? converted.value : "";
}
