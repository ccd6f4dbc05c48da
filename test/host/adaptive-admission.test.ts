// Adaptive admission in a real daemon (host/admission.ts): once the limit is pinned to its floor
// (the no-load measurement after the first window of calls), a gRPC evaluate over it is refused
// at once with RESOURCE_EXHAUSTED naming limits.adaptive (a hosted session's open too), an HTTP
// hook with 503 and Retry-After;
// and while one agent floods, another still gets calls admitted (its fair share). A plugin that
// holds each "hold" call until the test releases that very call makes the counts exact.
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { preToolAs } from "../support/agent-calls.js";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

/** Holds a call whose command is "hold" until the file release-<callId> (or release-all) exists. */
const HOLD_EACH_PLUGIN = `
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { definePlugin, pass } from "@hookd/sdk";
const dir = process.env.HOOKD_TEST_DIR;
const released = (id) => existsSync(join(dir, "release-" + id)) || existsSync(join(dir, "release-all"));
export default definePlugin({
  name: "hold-each",
  points: {
    "pre-tool": {
      deadlineMs: 60000,
      handler: async (e, ctx) => {
        if (String(e.call.arguments.command ?? "") !== "hold") return pass();
        appendFileSync(join(dir, "started"), e.call.callId + "\\n");
        while (!released(e.call.callId) && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, 10));
        return pass();
      },
    },
  },
});
`;

let daemon: DaemonProcess | undefined;
let dir: string | undefined;
const clients: TypedClient<typeof pb.HookHost>[] = [];

afterEach(async () => {
  if (dir !== undefined) await writeFile(join(dir, "release-all"), "");
  for (const client of clients.splice(0)) closeClient(client);
  await daemon?.stop();
  daemon = undefined;
  dir = undefined;
});

async function start(limits: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<TypedClient<typeof pb.HookHost>> {
  const module = await writePluginModule("hold-each", HOLD_EACH_PLUGIN);
  dir = dirname(module);
  await writeFile(join(dir, "started"), "");
  daemon = await startDaemon({
    config: { plugins: [{ name: "hold-each", kind: "in-process", module }], defaults: { pointBudgetMs: 60_000 }, limits, metrics: { listen: "127.0.0.1:0" }, ...extra },
    env: { HOOKD_TEST_DIR: dir },
  });
  const host = createClient(pb.HookHost, daemon.target);
  clients.push(host);
  return host;
}

const preTool = preToolAs;

/** The call's refusal (code and message), or "admitted" once it is answered. */
function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "admitted",
    (error: unknown) => (error instanceof StatusError ? `${error.codeName}: ${error.details}` : String(error)),
  );
}

/** Waits until the plugin has started the call `callId` (bounded). */
async function started(callId: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await readFile(join(dir ?? "", "started"), "utf8")).split("\n").includes(callId)) {
    if (Date.now() > until) throw new Error(`the plugin never started ${callId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Opens a hosted session: "opened", or the status its stream ended with. */
async function openSession(host: TypedClient<typeof pb.HookHost>, agent: string): Promise<string> {
  const call = host.session({ metadata: { "x-hookd-agent": agent } });
  const responses = call.responses[Symbol.asyncIterator]();
  await call.send({ frame: { case: "open", value: { sessionId: `${agent}-hosted`, source: pb.SessionSource.STARTUP, cwd: "/" } } });
  const answer = await outcome(responses.next());
  call.cancel();
  return answer === "admitted" ? "opened" : answer;
}

async function metrics(): Promise<string> {
  const at = String((await daemon?.waitForLog((line) => line.msg === "metrics serving"))?.address);
  return (await fetch(`http://${at}/metrics`)).text();
}

describe("adaptive admission", () => {
  it("refuses above the adaptive limit at once: RESOURCE_EXHAUSTED naming it over gRPC, 503 with Retry-After over HTTP", async () => {
    const host = await start({ maxInflight: 16, adaptive: { enabled: true, floor: 2 } }, { http: { listen: "127.0.0.1:0" } });
    // A first window of 16 calls; the limit is then pinned to its floor, 2, to measure the no-load latency.
    for (let i = 0; i < 16; i++) await expect(preTool(host, "a", `w-${i}`, "ls")).resolves.toBeDefined();
    const held = [preTool(host, "a", "h-1", "hold"), preTool(host, "a", "h-2", "hold")];
    await started("h-1");
    await started("h-2");
    const expected = "hookd has 2 evaluate calls in flight, its adaptive limit of 2 (pinned to limits.adaptive.floor while it measures the latency of a call with no load; between limits.adaptive.floor = 2 and limits.maxInflight = 16); retry later";
    expect(await outcome(preTool(host, "b", "over", "ls"))).toBe(`RESOURCE_EXHAUSTED: ${expected}`);

    const url = String((await daemon?.waitForLog((line) => line.msg === "http hooks serving"))?.address);
    const body = JSON.stringify({ session_id: "s-http", transcript_path: "/t.jsonl", cwd: "/", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" });
    const response = await fetch(`${url}/hooks`, { method: "POST", headers: { "content-type": "application/json", "x-hookd-agent": "c" }, body });
    expect({ status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() }).toEqual({ status: 503, retryAfter: "1", body: { error: `RESOURCE_EXHAUSTED: ${expected}` } });

    // A new hosted session is refused at its open, the same way.
    expect(await openSession(host, "d")).toBe(`RESOURCE_EXHAUSTED: ${expected}`);

    const text = await metrics();
    expect(text).toContain('hookd_evaluate_refused_total{limit="limits.adaptive"} 3\n');
    expect(text).toContain("hookd_admission_limit 2\n");
    expect(text).toContain("hookd_admission_inflight 2\n");
    await writeFile(join(dir ?? "", "release-all"), "");
    expect(await Promise.all(held.map(outcome))).toEqual(["admitted", "admitted"]);
  });

  it("admits calls of an agent while another floods: the flooding agent is held to its fair share", async () => {
    const host = await start({ maxInflight: 4, adaptive: { enabled: true } });
    const flood = ["f-0", "f-1", "f-2", "f-3"].map((id) => ({ id, answer: outcome(preTool(host, "flood", id, "hold")) }));
    for (const { id } of flood) await started(id);
    // The daemon is full: "quiet" is refused, and from now on counts as an agent that calls.
    expect(await outcome(preTool(host, "quiet", "q-0", "ls"))).toBe("RESOURCE_EXHAUSTED: hookd has 4 evaluate calls in flight from all agents (limits.maxInflight = 4); retry later");
    // One flood call ends; its slot is not the flood's to take again while it holds more than its share.
    await writeFile(join(dir ?? "", "release-f-0"), "");
    expect(await flood[0]?.answer).toBe("admitted");
    expect(await outcome(preTool(host, "flood", "f-4", "hold"))).toBe(
      `RESOURCE_EXHAUSTED: agent "flood" has 3 evaluate calls in flight, its fair share of hookd's adaptive limit of 4 while 2 agents call (limits.adaptive); retry later`,
    );
    const quiet = outcome(preTool(host, "quiet", "q-1", "hold"));
    await started("q-1");
    const text = await metrics();
    expect(text).toContain('hookd_evaluate_refused_total{limit="limits.adaptive.fairShare"} 1\n');
    await writeFile(join(dir ?? "", "release-all"), "");
    expect(await quiet).toBe("admitted");
  });
});
