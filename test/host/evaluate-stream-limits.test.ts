// The Evaluate stream under the daemon's limits, through a real `hookd serve`: its requests count
// against limits.maxInflightPerAgent and limits.maxInflight together with unary calls, a refused
// request is answered RESOURCE_EXHAUSTED (the unary status, naming the limit) while the stream
// stays open, a freed slot serves the stream again; and a drain ends the stream with UNAVAILABLE.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { snapshotJson } from "@hookd/sdk";
import { StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLDING_PLUGIN, startDaemon, waitForFile, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { RawEvaluateStream, callError } from "../support/evaluate-stream.js";

let daemon: DaemonProcess;
let host: TypedClient<typeof pb.HookHost>;
let log: string;
let release: string;

beforeAll(async () => {
  const module = await writePluginModule("holding", HOLDING_PLUGIN);
  log = join(module, "..", "plugin.log");
  release = join(module, "..", "release");
  await writeFile(log, "");
  daemon = await startDaemon({
    config: { plugins: [{ name: "holding", kind: "in-process", module }], defaults: { pointBudgetMs: 60_000 }, limits: { maxInflightPerAgent: 2, maxInflight: 3 } },
    env: { HOOKD_TEST_LOG: log, HOOKD_TEST_RELEASE: release },
  });
  host = createClient(pb.HookHost, daemon.target);
});

afterAll(async () => {
  await writeFile(release, "");
  if (host !== undefined) closeClient(host);
  await daemon?.stop();
});

function preToolRequest(agent: string, callId: string, command: string) {
  const args = snapshotJson({ command });
  const session = { sessionId: `${agent}-s`, agentId: agent, cwd: "/" };
  return create(pb.EvaluatePreToolRequestSchema, {
    event: { session, call: { callId, rootCallId: callId, toolName: "Bash", argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 } },
  });
}

const streamed = (agent: string, callId: string, command: string): pb.EvaluateRequest["request"] => ({ case: "preTool", value: preToolRequest(agent, callId, command) });
const unary = (agent: string, callId: string, command: string) => host.evaluatePreTool(preToolRequest(agent, callId, command), { metadata: { "x-hookd-agent": agent } });

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(StatusError);
  return { code: (error as StatusError).codeName, message: (error as StatusError).details };
}

describe("the Evaluate stream under the in-flight caps", () => {
  it("counts stream requests with unary calls against both caps, refuses beyond them for that id alone, and serves again once freed", async () => {
    const ann = new RawEvaluateStream(host, { "x-hookd-agent": "ann" });
    const held = [ann.answer(1n), ann.answer(2n)];
    await ann.send(1n, streamed("ann", "a1", "hold"));
    await ann.send(2n, streamed("ann", "a2", "hold"));
    await waitForFile(log, "started ann a1");
    await waitForFile(log, "started ann a2");

    const perAgent = { code: "RESOURCE_EXHAUSTED", message: 'agent "ann" has 2 evaluate calls in flight (limits.maxInflightPerAgent = 2)' };
    expect(callError(await ann.ask(3n, streamed("ann", "a3", "ls")))).toEqual(perAgent);
    // The stream's requests hold ann's slots for her unary calls too.
    expect(await refusal(unary("ann", "a4", "ls"))).toEqual(perAgent);

    // bob takes the daemon's last slot with a unary call; his stream request is then over the daemon-wide cap.
    const bobHeld = unary("bob", "b1", "hold");
    await waitForFile(log, "started bob b1");
    const bob = new RawEvaluateStream(host, { "x-hookd-agent": "bob" });
    expect(callError(await bob.ask(1n, streamed("bob", "b2", "ls")))).toEqual({
      code: "RESOURCE_EXHAUSTED",
      message: "hookd has 3 evaluate calls in flight from all agents (limits.maxInflight = 3); retry later",
    });

    await writeFile(release, "");
    expect((await Promise.all(held)).map((answer) => answer.reply.case)).toEqual(["preTool", "preTool"]);
    await expect(bobHeld).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
    // The same streams, still open, are served once the slots are free.
    expect((await ann.ask(4n, streamed("ann", "a5", "ls"))).reply.case).toBe("preTool");
    expect((await bob.ask(2n, streamed("bob", "b3", "ls"))).reply.case).toBe("preTool");
    ann.end();
    bob.end();
    await expect(ann.ended).resolves.toBeUndefined();
    await expect(bob.ended).resolves.toBeUndefined();
  });

  it("on a drain, ends the stream with UNAVAILABLE (retryable) as it ends hosted-loop streams, abandoning the request in flight", async () => {
    await rm(release, { force: true });
    const stream = new RawEvaluateStream(host, { "x-hookd-agent": "cid" });
    await stream.send(1n, streamed("cid", "c1", "hold"));
    await waitForFile(log, "started cid c1");
    const stopped = daemon.stop();
    await expect(stream.ended).resolves.toMatchObject({ codeName: "UNAVAILABLE", details: "hookd is shutting down; reconnect" });
    expect(stream.received).toEqual([]);
    expect(await stopped).toEqual({ code: 0, signal: null });
    expect(daemon.logs.some((line) => line.msg === "hookd stopped")).toBe(true);
  });
});
