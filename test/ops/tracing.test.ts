// OpenTelemetry traces of a real daemon, received by a real OpenTelemetry Collector (otlp
// receiver, file exporter): an agent's W3C traceparent becomes the parent of a span per decision,
// each plugin call is a child span, the remote plugin receives the child span's traceparent in
// its call metadata (and a plugin served with the TypeScript SDK finds it as ctx.traceparent, over
// either transport), and the audit records carry the trace id. A call without a traceparent
// starts a new trace.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { connectHost, definePlugin, deny, servePlugin, snapshotJson } from "@hookd/sdk";
import type { PluginServer, ServeTransport } from "@hookd/sdk";
import { createClient, pb } from "@hookd/sdk/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFakePlugin } from "../../daemon/test/fixtures/fake-plugin.js";
import type { FakePlugin } from "../../daemon/test/fixtures/fake-plugin.js";
import type { Collector, ReceivedSpan } from "../support/otel-collector.js";
import { setupCollector, startCollector } from "../support/otel-collector.js";
import { Workdir, closeClient, pluginEntry, readAudit, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

const AGENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const AGENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${AGENT_TRACE}-${AGENT_SPAN}-01`;
// The hosted session's stream and the HTTP hook request carry traces of their own.
const SESSION_TRACE = "a1a2a3a4a5a6a7a8a9aaabacadaeaf00";
const SESSION_SPAN = "b1b2b3b4b5b6b7b8";
const HTTP_TRACE = "c1c2c3c4c5c6c7c8c9cacbcccdcecf00";
const HTTP_SPAN = "d1d2d3d4d5d6d7d8";
const STREAM_TRACE = "e1e2e3e4e5e6e7e8e9eaebecedeeef00";
const STREAM_SPAN = "f1f2f3f4f5f6f7f8";

let work: Workdir;
let collector: Collector;
let daemon: RunningDaemon | undefined;
let plugin: FakePlugin | undefined;
let streamer: FakePlugin | undefined;
/** The `traceparent` metadata of every call the remote plugin received, by "<session> <tool>". */
const seen = new Map<string, string>();
/** AttachCall.traceparent of every call the streaming plugin received, by tool name. */
const seenOnStream = new Map<string, string>();
/** ctx.traceparent as the servePlugin plugins' handlers saw it, by session. */
const seenBySdk = new Map<string, string>();
const sdkPlugins: PluginServer[] = [];

/** A plugin served with the TypeScript SDK that denies `tool` and records the context it was handed. */
function sdkPlugin(name: string, tool: string, transport: ServeTransport): Promise<PluginServer> {
  const definition = definePlugin({
    name,
    version: "1.0.0",
    points: {
      "pre-tool": {
        tools: [tool],
        priority: -5,
        handler: (event, ctx) => {
          seenBySdk.set(event.session.sessionId, ctx.traceparent ?? "(none)");
          return deny(`${name} denies ${tool}`);
        },
      },
    },
  });
  return servePlugin(definition, { address: `unix://${work.file(`${name}.sock`)}`, transport });
}

beforeAll(async () => {
  const binary = setupCollector();
  work = new Workdir();
  collector = await startCollector(binary, work.path);
  // Typed handlers on the generated service: the test sees the traceparent metadata as it is on the wire.
  plugin = await serveFakePlugin(`unix://${work.file("recorder.sock")}`, {
    manifest: {
      name: "recorder",
      version: "1.0.0",
      subscriptions: [
        { point: pb.Point.PRE_TOOL, priority: -10, failurePolicy: pb.FailurePolicy.FAIL_CLOSED },
        { point: pb.Point.SESSION_START, failurePolicy: pb.FailurePolicy.FAIL_OPEN },
      ],
    },
    handlers: {
      sessionStart: async (request, call) => {
        seen.set(`session-start ${request.event?.session?.sessionId ?? ""}`, String(call.metadata.get("traceparent")[0] ?? ""));
        return { decision: { decision: { case: "pass", value: {} } } };
      },
      preTool: async (request, call): Promise<MessageInitShape<typeof pb.PreToolResponseSchema>> => {
        const tool = request.event?.call?.toolName ?? "";
        seen.set(`${request.event?.session?.sessionId ?? ""} ${tool}`, String(call.metadata.get("traceparent")[0] ?? ""));
        if (tool === "Bash") return { decision: { decision: { case: "deny", value: { reason: "recorder denies Bash" } } } };
        return { decision: { decision: { case: "pass", value: {} } } };
      },
    },
  });

  // A plugin that prefers the Attach stream: every call arrives as an AttachCall frame.
  streamer = await serveFakePlugin(`unix://${work.file("streamer.sock")}`, {
    manifest: {
      name: "streamer",
      version: "1.0.0",
      transport: pb.PluginTransport.STREAM,
      subscriptions: [{ point: pb.Point.PRE_TOOL, tools: ["Grep"], priority: -5, failurePolicy: pb.FailurePolicy.FAIL_CLOSED }],
    },
    handlers: {
      attach: async (requests, stream) => {
        for await (const request of requests) {
          const frame = request.frame;
          if (frame.case !== "call" || frame.value.request.case !== "preTool") continue;
          seenOnStream.set(frame.value.request.value.event?.call?.toolName ?? "", frame.value.traceparent);
          await stream.send({ callId: frame.value.callId, reply: { case: "preTool", value: { decision: { decision: { case: "deny", value: { reason: "streamer denies Grep" } } } } } });
        }
      },
    },
  });
  sdkPlugins.push(await sdkPlugin("sdk-stream", "Glob", "stream"), await sdkPlugin("sdk-unary", "LS", "unary"));
}, 900_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  await collector?.stop();
  plugin?.close();
  streamer?.close();
  await Promise.all(sdkPlugins.map((server) => server.close()));
  work?.cleanup();
});

const attr = (span: ReceivedSpan | undefined, key: string) => span?.attributes[key];

describe("tracing over OTLP", () => {
  it("exports a span per decision with a child per plugin call, under the agent's traceparent, to a real collector", async () => {
    const socket = work.file("hookd.sock");
    const audit = work.file("audit.jsonl");
    daemon = await startDaemon({
      configFile: work.writeConfig({
        listeners: [{ unix: socket }],
        plugins: [
          { name: "recorder", kind: "remote", target: `unix://${work.file("recorder.sock")}` },
          { name: "streamer", kind: "remote", target: `unix://${work.file("streamer.sock")}` },
          { name: "sdk-stream", kind: "remote", target: `unix://${work.file("sdk-stream.sock")}` },
          { name: "sdk-unary", kind: "remote", target: `unix://${work.file("sdk-unary.sock")}` },
          pluginEntry("policy"),
        ],
        audit: { path: audit, fsync: "always" },
        http: { listen: "127.0.0.1:0" },
        tracing: { otlp: { endpoint: collector.endpoint, headers: { "x-test": "1" } }, serviceName: "hookd-test" },
      }),
      awaitServing: false,
    });
    const { address: httpAddress } = await daemon.waitLog("http hooks serving");
    await daemon.waitLog("hookd ready");
    const client = createClient(pb.HookHost, `unix://${socket}`);
    const evaluate = (sessionId: string, toolName: string, metadata: Record<string, string>) =>
      client.evaluatePreTool(
        {
          event: {
            session: { sessionId, agentId: "trace-agent" },
            call: { callId: `${sessionId}-1`, rootCallId: `${sessionId}-1`, toolName, argumentsJson: "{}", sessionId, turn: 1, step: 1 },
          },
        },
        { timeoutMs: 15_000, waitForReady: true, metadata },
      );
    try {
      expect((await evaluate("traced", "Bash", { traceparent: TRACEPARENT })).decision?.decision.case).toBe("deny");
      expect((await evaluate("traced-read", "Read", { traceparent: TRACEPARENT })).decision?.decision.case).toBe("allow");
      expect((await evaluate("untraced", "Read", {})).decision?.decision.case).toBe("allow");
      expect((await evaluate("streamed", "Grep", { traceparent: TRACEPARENT })).decision?.decision.case).toBe("deny");
      expect((await evaluate("sdk-streamed", "Glob", { traceparent: TRACEPARENT })).decision?.decision.case).toBe("deny");
      expect((await evaluate("sdk-unary", "LS", { traceparent: TRACEPARENT })).decision?.decision.case).toBe("deny");

      // A hosted session: its stream's traceparent parents session-start's span.
      const stream = client.session({ metadata: { "x-hookd-agent": "trace-agent", traceparent: `00-${SESSION_TRACE}-${SESSION_SPAN}-01` } });
      await stream.send({ frame: { case: "open", value: { sessionId: "hosted" } } });
      const responses = stream.responses[Symbol.asyncIterator]();
      for (let next = await responses.next(); next.done !== true && next.value.frame.case !== "opened"; next = await responses.next());
      stream.cancel();

      // Claude Code's HTTP hook, with the W3C header.
      const hook = await fetch(`${String(httpAddress)}/hooks/PreToolUse`, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: `00-${HTTP_TRACE}-${HTTP_SPAN}-01` },
        body: JSON.stringify({ session_id: "over-http", hook_event_name: "PreToolUse", cwd: "/tmp", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" }),
      });
      expect(hook.status).toBe(200);
      expect(JSON.stringify(await hook.json())).toContain("recorder denies Bash");

      // The SDK's agent client over the Evaluate stream: the stream's traceparent parents every request's decision.
      const agent = connectHost(`unix://${socket}`, { agentId: "trace-agent", traceparent: `00-${STREAM_TRACE}-${STREAM_SPAN}-01` });
      try {
        for (const sessionId of ["on-stream-1", "on-stream-2"]) {
          const args = snapshotJson({ command: "ls" });
          const call = { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId, turn: 1, step: 1 };
          expect((await agent.evaluatePreTool({ session: { sessionId, agentId: "trace-agent", cwd: "/" }, call })).decision.kind).toBe("deny");
        }
      } finally {
        agent.close();
      }
    } finally {
      closeClient(client);
    }
    // A graceful stop exports what the batch processor holds; the collector's stop flushes its file.
    expect((await daemon.stop("SIGTERM")).code).toBe(0);
    daemon = undefined;
    await collector.stop();
    const spans = collector.spans();

    const decisions = spans.filter((s) => s.name === "hookd pre-tool");
    const bySession = (session: string) => decisions.find((s) => attr(s, "hookd.session") === session);
    const children = (parent: ReceivedSpan | undefined) => spans.filter((s) => parent !== undefined && s.parentSpanId === parent.spanId && s.traceId === parent.traceId);

    // The denied call: a decision span under the agent's span, one child (the remote plugin decided first).
    const denied = bySession("traced");
    expect(denied).toMatchObject({ traceId: AGENT_TRACE, parentSpanId: AGENT_SPAN, kind: 1 });
    expect(denied?.attributes).toMatchObject({ "hookd.point": "pre-tool", "hookd.agent": "trace-agent", "hookd.outcome": "deny", "hookd.decided_by": "recorder", "hookd.reason": "recorder denies Bash" });
    expect(denied?.resource).toMatchObject({ "service.name": "hookd-test" });
    const deniedCalls = children(denied);
    expect(deniedCalls.map((s) => s.name)).toEqual(["hookd.plugin recorder"]);
    expect(deniedCalls[0]).toMatchObject({ kind: 3 });
    expect(deniedCalls[0]?.attributes).toMatchObject({ "hookd.plugin": "recorder", "hookd.point": "pre-tool", "hookd.plugin.kind": "remote", "hookd.outcome": "answered", "hookd.decision": "deny", "hookd.shadow": false });
    // The remote plugin was told its own call's span as the parent.
    expect(seen.get("traced Bash")).toBe(`00-${AGENT_TRACE}-${deniedCalls[0]?.spanId}-01`);

    // The allowed call: the remote plugin passed, the in-process one allowed, two children in order.
    const allowed = bySession("traced-read");
    expect(allowed).toMatchObject({ traceId: AGENT_TRACE, parentSpanId: AGENT_SPAN });
    expect(attr(allowed, "hookd.outcome")).toBe("allow");
    const allowedCalls = children(allowed);
    expect(allowedCalls.map((s) => [s.attributes["hookd.plugin"], s.attributes["hookd.plugin.kind"], s.attributes["hookd.outcome"]]).sort()).toEqual([
      ["policy", "in-process", "answered"],
      ["recorder", "remote", "passed"],
    ]);

    // No traceparent: a new trace, the decision span its root.
    const fresh = bySession("untraced");
    expect(fresh?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh?.traceId).not.toBe(AGENT_TRACE);
    expect(fresh?.parentSpanId).toBe("");
    expect(children(fresh)).toHaveLength(2);
    expect(seen.get("untraced Read")).toMatch(new RegExp(`^00-${fresh?.traceId}-[0-9a-f]{16}-01$`));

    // Over the Attach stream the traceparent travels in the call frame.
    const streamed = bySession("streamed");
    expect(streamed).toMatchObject({ traceId: AGENT_TRACE, parentSpanId: AGENT_SPAN });
    expect(streamed?.attributes).toMatchObject({ "hookd.outcome": "deny", "hookd.decided_by": "streamer" });
    const streamedCall = children(streamed).find((s) => s.attributes["hookd.plugin"] === "streamer");
    expect(streamedCall?.attributes).toMatchObject({ "hookd.plugin.kind": "remote", "hookd.outcome": "answered", "hookd.decision": "deny" });
    expect(seenOnStream.get("Grep")).toBe(`00-${AGENT_TRACE}-${streamedCall?.spanId}-01`);

    // A plugin served with the TypeScript SDK is handed its call span's context as ctx.traceparent,
    // from the Attach frame (its default transport) and from the unary call's metadata.
    for (const [session, plugin] of [
      ["sdk-streamed", "sdk-stream"],
      ["sdk-unary", "sdk-unary"],
    ] as const) {
      const decision = bySession(session);
      expect(decision, session).toMatchObject({ traceId: AGENT_TRACE, parentSpanId: AGENT_SPAN });
      const pluginCall = children(decision).find((s) => s.attributes["hookd.plugin"] === plugin);
      expect(pluginCall?.attributes, session).toMatchObject({ "hookd.outcome": "answered", "hookd.decision": "deny" });
      expect(seenBySdk.get(session), session).toBe(`00-${AGENT_TRACE}-${pluginCall?.spanId}-01`);
    }

    // The hosted session's session-start, under its stream's trace.
    const started = spans.find((s) => s.name === "hookd session-start" && s.attributes["hookd.session"] === "hosted");
    expect(started).toMatchObject({ traceId: SESSION_TRACE, parentSpanId: SESSION_SPAN });
    expect(started?.attributes).toMatchObject({ "hookd.agent": "trace-agent", "hookd.outcome": "notified" });
    const startCall = children(started)[0];
    expect(startCall?.attributes).toMatchObject({ "hookd.plugin": "recorder", "hookd.outcome": "passed" });
    expect(seen.get("session-start hosted")).toBe(`00-${SESSION_TRACE}-${startCall?.spanId}-01`);

    // The HTTP hook's pre-tool decision (rewrite has no plugin here, so no span), under the request's traceparent.
    const overHttp = decisions.filter((s) => s.attributes["hookd.session"] === "over-http");
    expect(overHttp).toHaveLength(1);
    expect(overHttp[0]).toMatchObject({ traceId: HTTP_TRACE, parentSpanId: HTTP_SPAN });
    expect(overHttp[0]?.attributes).toMatchObject({ "hookd.outcome": "deny", "hookd.decided_by": "recorder" });
    expect(seen.get("over-http Bash")).toBe(`00-${HTTP_TRACE}-${children(overHttp[0])[0]?.spanId}-01`);

    // Each request on the Evaluate stream: a decision span under the stream's traceparent.
    for (const sessionId of ["on-stream-1", "on-stream-2"]) {
      expect(bySession(sessionId), sessionId).toMatchObject({ traceId: STREAM_TRACE, parentSpanId: STREAM_SPAN });
      expect(seen.get(`${sessionId} Bash`)).toBe(`00-${STREAM_TRACE}-${children(bySession(sessionId))[0]?.spanId}-01`);
    }

    // The audit trail names each record's trace.
    const records = readAudit(audit);
    const traced = records.filter((r) => r.sessionId === "traced");
    expect(traced.map((r) => r.kind).sort()).toEqual(["decision", "invocation"]);
    for (const record of traced) expect(record.traceId).toBe(AGENT_TRACE);
    for (const record of records.filter((r) => r.sessionId === "untraced")) expect(record.traceId).toBe(fresh?.traceId);
  });

  it("keeps deciding when the collector is gone, and stops cleanly with a warning about the spans it could not export", async () => {
    const socket = work.file("dead.sock");
    daemon = await startDaemon({
      configFile: work.writeConfig(
        {
          listeners: [{ unix: socket }],
          plugins: [pluginEntry("policy")],
          // Port 1 on loopback: nothing listens there.
          tracing: { otlp: { endpoint: "http://127.0.0.1:1" } },
        },
        "dead.yaml",
      ),
      awaitServing: false,
    });
    await daemon.waitLog("hookd ready");
    const client = createClient(pb.HookHost, `unix://${socket}`);
    try {
      for (const [callId, toolName, kind] of [["1", "Bash", "deny"], ["2", "Read", "allow"]] as const) {
        const answer = await client.evaluatePreTool(
          { event: { session: { sessionId: "dead", agentId: "a" }, call: { callId, rootCallId: callId, toolName, argumentsJson: "{}", sessionId: "dead", turn: 1, step: 1 } } },
          { timeoutMs: 15_000, waitForReady: true, metadata: { traceparent: TRACEPARENT } },
        );
        expect(answer.decision?.decision.case).toBe(kind);
      }
    } finally {
      closeClient(client);
    }
    const stopping = daemon;
    daemon = undefined;
    expect(await stopping.stop("SIGTERM")).toMatchObject({ code: 0 });
    const warned = stopping.stdout.lines.some((line) => line.includes("tracing: the last spans"));
    expect(warned).toBe(true);
  });
});
