// @hookd/sdk/testing in-process: the event builders' defaults and overrides, callHandler's
// validated answers and errors, and where the daemon is looked for.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HookdError, definePlugin, deny, isDeeplyFrozen, pass } from "../src/index.js";
import { DAEMON_ENV, DEFAULT_SESSION, callHandler, events, locateDaemon, matches, toolCall, toolCallFromJson, toolFailure } from "../src/testing/index.js";

describe("event builders", () => {
  it("give a sealed, frozen call with fresh ids, turn 1, step 1 and the session's id", () => {
    const event = events.preTool("Bash", { command: "ls" }, { session: { sessionId: "s9" } });
    expect(event.session).toEqual({ ...DEFAULT_SESSION, sessionId: "s9" });
    expect(event.call).toMatchObject({ toolName: "Bash", arguments: { command: "ls" }, argumentsJson: '{"command":"ls"}', sessionId: "s9", turn: 1, step: 1 });
    expect(event.call.callId).toMatch(/^call-[0-9a-f-]{36}$/);
    expect(event.call.rootCallId).toBe(event.call.callId);
    expect(events.preTool("Bash").call.callId).not.toBe(event.call.callId);
    expect(isDeeplyFrozen(event)).toBe(true);
  });

  it("take every id, turn and step from the caller", () => {
    const call = toolCall("Read", {}, { callId: "c2", rootCallId: "c1", parentCallId: "c1", turn: 3, step: 7 });
    expect(call).toEqual({ callId: "c2", rootCallId: "c1", parentCallId: "c1", toolName: "Read", arguments: {}, argumentsJson: "{}", sessionId: DEFAULT_SESSION.sessionId, turn: 3, step: 7 });
    expect(() => toolCall("Read", {}, { turn: -1 })).toThrow(/turn: expected a non-negative integer/);
    expect(() => toolCall("", {})).toThrow(/toolName/);
  });

  it("keep the agent's JSON text losslessly", () => {
    const call = toolCallFromJson("Bash", '{"n": 9223372036854775807}');
    expect(call.argumentsJson).toBe('{"n":9223372036854775807}');
    expect(String((call.arguments as { n: unknown }).n)).toBe("9223372036854775807");
  });

  it("build every other point's event with defaults", () => {
    expect(events.preStep(["hello", "again"]).messages.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "hello" }]],
      ["user", [{ type: "text", text: "again" }]],
    ]);
    expect(events.turnStopping({ lastAssistantMessage: "done" })).toMatchObject({ turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0, lastAssistantMessage: { role: "assistant" } });
    expect(events.postTool("Read", {}, toolFailure("nope")).result).toMatchObject({ isError: true, message: "nope" });
    expect(events.approval("Bash", {}, { reason: "sure?" })).toMatchObject({ reason: "sure?", askedBy: "asker" });
    expect(events.sessionEnd()).toMatchObject({ reason: "closed", turns: 1 });
    expect(events.turnEnd({ outcome: "blocked" })).toMatchObject({ outcome: "blocked", steps: 1 });
    expect(events.agentEvent("PreCompact", { trigger: "auto" })).toMatchObject({ dialect: "claude-code", eventName: "PreCompact", payload: { trigger: "auto" } });
  });
});

describe("callHandler", () => {
  const plugin = definePlugin({
    name: "p",
    points: {
      "pre-tool": { tools: ["Bash"], handler: (e) => (e.call.arguments !== null && (e.call.arguments as { bad?: unknown }).bad === true ? deny("bad") : pass()) },
      "post-tool": () => ({ kind: "accept", content: "not a list" }) as never,
      "pre-step": async (_e, ctx) => ctx.next(),
      "turn-stopping": (_e, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(pass()))),
    },
  });

  it("returns the validated decision", async () => {
    expect(await callHandler(plugin, "pre-tool", events.preTool("Bash", { bad: true }))).toEqual({ kind: "deny", reason: "bad" });
    expect(await callHandler(plugin, "pre-tool", events.preTool("Bash", {}))).toEqual({ kind: "pass" });
  });

  it("refuses an invalid answer as the daemon would, naming the field", async () => {
    const error = await callHandler(plugin, "post-tool", events.postTool("Read")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookdError);
    expect(error).toMatchObject({ code: "invalid_decision", message: expect.stringContaining("content") as unknown });
  });

  it("refuses a point the plugin does not handle", async () => {
    await expect(callHandler(plugin, "rewrite", events.rewrite("Bash"))).rejects.toMatchObject({ code: "invalid_plugin", message: expect.stringContaining("no rewrite handler") as unknown });
  });

  it("gives next() only when the test does", async () => {
    await expect(callHandler(plugin, "pre-step", events.preStep("hi"))).rejects.toThrow(/no next\(\) was given/);
    expect(await callHandler(plugin, "pre-step", events.preStep("hi"), { next: () => Promise.resolve({ kind: "reject", reason: "inner" }) })).toEqual({ kind: "reject", reason: "inner" });
  });

  it("hands the handler the traceparent the test gives, as the daemon's would be", async () => {
    const traced = definePlugin({ name: "traced", points: { "pre-tool": (_e, ctx) => deny(ctx.traceparent ?? "(none)") } });
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect(await callHandler(traced, "pre-tool", events.preTool("Bash"), { traceparent })).toEqual({ kind: "deny", reason: traceparent });
    expect(await callHandler(traced, "pre-tool", events.preTool("Bash"))).toEqual({ kind: "deny", reason: "(none)" });
  });

  it("aborts the handler's signal at timeoutMs, like a deadline", async () => {
    expect(await callHandler(plugin, "turn-stopping", events.turnStopping(), { timeoutMs: 1 })).toEqual({ kind: "pass" });
  });

  it("matches() tells whether the daemon would call it", () => {
    expect(matches(plugin, "pre-tool", events.preTool("Bash"))).toBe(true);
    expect(matches(plugin, "pre-tool", events.preTool("Read"))).toBe(false);
    expect(matches(plugin, "pre-step", events.preStep("x"))).toBe(true);
    expect(matches(plugin, "rewrite", events.rewrite("Bash"))).toBe(false);
  });
});

describe("locateDaemon", () => {
  let dir: string | undefined;
  const saved = process.env[DAEMON_ENV];
  afterEach(async () => {
    if (saved === undefined) delete process.env[DAEMON_ENV];
    else process.env[DAEMON_ENV] = saved;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("runs a cli.js under this node, from the option, then $HOOKD_DAEMON", async () => {
    const root = (dir = await mkdtemp(join(tmpdir(), "hookd-locate-")));
    await writeFile(join(root, "cli.js"), "");
    expect(locateDaemon(join(root, "cli.js"))).toEqual({ command: process.execPath, args: [join(root, "cli.js")] });
    process.env[DAEMON_ENV] = "cli.js";
    expect(locateDaemon(undefined, root)).toEqual({ command: process.execPath, args: [join(root, "cli.js")] });
    expect(() => locateDaemon(join(root, "missing.js"))).toThrow(/missing\.js \(option daemon\) does not exist/);
  });

  it("finds the hookd bin of an installed @hookd/daemon above the working directory", async () => {
    delete process.env[DAEMON_ENV];
    dir = await mkdtemp(join(tmpdir(), "hookd-locate-"));
    const pkg = join(dir, "node_modules/@hookd/daemon");
    await mkdir(join(dir, "project/src"), { recursive: true });
    await mkdir(pkg, { recursive: true });
    await writeFile(join(pkg, "package.json"), JSON.stringify({ name: "@hookd/daemon", bin: { hookd: "./dist/cli.js" } }));
    expect(locateDaemon(undefined, join(dir, "project/src"))).toEqual({ command: process.execPath, args: [join(pkg, "dist/cli.js")] });
  });
});
