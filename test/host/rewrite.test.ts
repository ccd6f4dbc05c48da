// The rewrite point through a real daemon: an in-process rewriter that answers slowly, a remote
// one (servePlugin over a Unix socket) and a worker one, in priority order; a pre-tool policy
// that denies on the effective arguments; an unreachable fail-closed rewriter. The hosted loop
// and the evaluate API give the same effective calls, and the audit file holds both versions.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectHost, definePlugin, patch, servePlugin, snapshotJson } from "@hookd/sdk";
import type { HostClient, PluginServer, SessionInfo, ToolCall } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { openScriptedAgent, toolResults } from "../support/scripted-agent.js";

// Slow on purpose: the later, faster plugins must still see its output (a chain never overlaps).
const CONFINE = `
import { definePlugin, patch, pass } from "@hookd/sdk";
export default definePlugin({
  name: "confine",
  sideEffectFree: true,
  points: {
    rewrite: {
      priority: 1,
      handler: async (e) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return typeof e.call.arguments.path === "string" ? patch({ path: "/safe/" + e.call.arguments.path }) : pass();
      },
    },
    "pre-tool": (e) => (e.call.arguments.path === "/safe/secret" ? { kind: "deny", reason: "no secrets: " + e.call.argumentsJson } : pass()),
  },
});
`;
const WORKER = `
import { definePlugin, patch } from "@hookd/sdk";
export default definePlugin({ name: "isolated", points: { rewrite: { priority: 3, handler: (e) => patch({ seenByWorker: e.call.arguments.tag ?? "nothing" }) } } });
`;

const BIG = "9223372036854775807"; // 2^63-1
let dir: string;
let daemon: DaemonProcess;
let tagger: PluginServer;
let client: HostClient;
const session: SessionInfo = { sessionId: "eval-rw", agentId: "rita", cwd: "/" };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-rewrite-"));
  const socket = join(dir, "tagger.sock");
  tagger = await servePlugin(
    definePlugin({ name: "tagger", sideEffectFree: true, points: { rewrite: { priority: 2, handler: (e) => patch({ tag: `after ${String((e.call.arguments as { path?: unknown }).path)}` }) } } }),
    { socketPath: socket },
  );
  const plugins = [
    { name: "confine", kind: "in-process", module: await writePluginModule("confine", CONFINE) },
    { name: "tagger", kind: "remote", target: `unix://${socket}` },
    { name: "isolated", kind: "worker", module: await writePluginModule("isolated", WORKER) },
    // Never reachable, subscribed by its config for the Slow tool only: fail-closed by default.
    { name: "down", kind: "remote", target: `unix://${join(dir, "nobody.sock")}`, points: { rewrite: { tools: ["Slow"], deadlineMs: 300 } } },
  ];
  daemon = await startDaemon({ config: { plugins, audit: { path: join(dir, "audit.jsonl"), fsync: "always" } } });
  client = connectHost(daemon.target, { agentId: "rita" });
}, 30_000);

afterAll(async () => {
  client?.close();
  await daemon?.stop();
  await tagger?.close();
  await rm(dir, { recursive: true, force: true });
});

function call(callId: string, toolName: string, args: object): ToolCall {
  const snapshot = snapshotJson(args);
  return { callId, rootCallId: callId, toolName, arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

const EFFECTIVE = `{"path":"/safe/a.txt","big":${BIG},"tag":"after /safe/a.txt","seenByWorker":"after /safe/a.txt"}`;

describe("rewrite through the daemon", () => {
  it("rewrites in priority order across plugin kinds, denies on the effective arguments, and fails closed; the hosted loop and evaluate agree", async () => {
    const hosted = openScriptedAgent({
      target: daemon.target,
      agentId: "rita",
      session: { sessionId: "hosted-rw" },
      script: (_prompt, step) =>
        step === 1
          ? {
              say: "",
              calls: [
                { callId: "c1", toolName: "Bash", argumentsJson: `{"path":"a.txt","big":${BIG}}` },
                { callId: "c2", toolName: "Bash", arguments: { path: "secret" } },
                { callId: "c3", toolName: "Slow", arguments: { path: "b" } },
              ],
            }
          : { say: "done" },
    });
    await hosted.prompt("go");
    await hosted.session.close();
    hosted.client.close();
    const [ran, denied, closed] = toolResults(hosted.events);

    // 1. Three kinds, in priority order, each on the previous one's output; 2^63-1 intact.
    expect(ran?.call).toMatchObject({ argumentsJson: EFFECTIVE, originalArgumentsJson: `{"path":"a.txt","big":${BIG}}`, rewrittenBy: ["confine", "tagger", "isolated"] });
    expect(hosted.dispatched.map((c) => c.callId)).toEqual(["c1"]);
    expect(hosted.dispatched[0]?.argumentsJson).toBe(EFFECTIVE); // dispatch reads the effective arguments
    expect(ran?.result).toMatchObject({ isError: false, value: { echoed: { path: "/safe/a.txt", big: 9223372036854775807n } } });

    // 2. A later pre-tool plugin denies, and its denial is about the effective arguments.
    expect(denied?.result).toMatchObject({ isError: true, code: "denied" });
    expect(denied?.result.isError && denied.result.message).toContain('no secrets: {"path":"/safe/secret"');
    expect(denied?.call.rewrittenBy).toEqual(["confine", "tagger", "isolated"]);

    // 3. An unreachable fail-closed rewriter denies naming itself; the call keeps the agent's arguments.
    expect(closed?.result).toMatchObject({ isError: true, code: "denied" });
    expect(closed?.result.isError && closed.result.message).toContain("plugin down at rewrite");
    expect(closed?.call.argumentsJson).toBe('{"path":"b"}');
    expect(closed?.call.rewrittenBy).toBeUndefined();
    expect(closed?.trace).toMatchObject({ decidedBy: "down", failureCause: "unavailable" });

    // Evaluate parity: the same effective calls, the same decisions.
    const rewritten = await client.evaluateRewrite({ session, call: call("c1", "Bash", { path: "a.txt", big: 9223372036854775807n }) });
    expect(rewritten.outcome.kind).toBe("call");
    const effective = rewritten.outcome.kind === "call" ? rewritten.outcome.call : undefined;
    expect(effective).toMatchObject({ argumentsJson: ran?.call.argumentsJson, originalArgumentsJson: ran?.call.originalArgumentsJson, rewrittenBy: ran?.call.rewrittenBy });
    expect(rewritten.trace.decidedBy).toBe("confine,tagger,isolated");
    expect(effective && (await client.evaluatePreTool({ session, call: effective })).decision).toEqual({ kind: "allow" });

    const secret = await client.evaluateRewrite({ session, call: call("c2", "Bash", { path: "secret" }) });
    const secretCall = secret.outcome.kind === "call" ? secret.outcome.call : undefined;
    expect(secretCall && (await client.evaluatePreTool({ session, call: secretCall })).decision).toEqual({
      kind: "deny",
      reason: denied?.result.isError ? denied.result.message : "",
    });

    const down = await client.evaluateRewrite({ session, call: call("c3", "Slow", { path: "b" }) });
    expect(down.outcome).toMatchObject({ kind: "deny" });
    expect(down.outcome.kind === "deny" && down.outcome.reason).toBe(closed?.result.isError ? closed.result.message : "");
    expect(down.trace).toMatchObject({ decidedBy: "down", failureCause: "unavailable" });

    // The audit: the rewrite decision of each call, with both versions and the rewriters in order.
    const records = (await readFile(join(dir, "audit.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const rewriteOf = (sessionId: string, callId: string) => records.filter((r) => r.kind === "decision" && r.point === "rewrite" && r.sessionId === sessionId && r.callId === callId);
    expect(rewriteOf("hosted-rw", "c1")).toMatchObject([
      { decision: "rewrite", plugin: "confine,tagger,isolated", argumentsJson: EFFECTIVE, originalArgumentsJson: `{"path":"a.txt","big":${BIG}}`, rewrittenBy: ["confine", "tagger", "isolated"] },
    ]);
    expect(rewriteOf("hosted-rw", "c3")).toMatchObject([{ decision: "deny", plugin: "down", cause: "unavailable", argumentsJson: '{"path":"b"}' }]);
    expect(rewriteOf("eval-rw", "c1")).toMatchObject([{ decision: "rewrite", argumentsJson: EFFECTIVE }]);
  }, 30_000);
});
