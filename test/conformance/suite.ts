// Conformance: ONE scenario table (rows.ts) run against a list of plugin FLAVOURS (FLAVOURS
// below): language × how it is written (its language's hookd SDK, or raw generated gRPC stubs
// and nothing else) × the transport the daemon calls it over (the Attach stream, or one unary
// RPC per event). Each is started by a real `hookd serve` as a managed plugin
// (test/conformance/plugins) and driven through the agent SDK's evaluate API. Whatever a plugin
// is written in and with, its answers (and its faults: hangs, crashes, garbage, another point's
// answer, invalid combinations, forged sources) must become the same typed decisions with the
// same trace, and ListPlugins must show the transport in use.
//
// Flavours today: the TypeScript, Python and Go SDKs, each over the stream (their default) and
// unary (the manifest asks for unary); raw TypeScript (@grpc/grpc-js + the generated
// descriptors, no @hookd/sdk), raw Python (grpcio) and raw Go (grpc-go) unary: they have no
// Attach, the daemon finds UNIMPLEMENTED and calls them unary; and raw Python over the stream,
// the same plugin serving Attach by hand ($HOOKD_CONFORMANCE_TRANSPORT=stream).
//
// Every flavour the daemon calls over the stream also runs the stream-contract rows
// (stream-contract.ts): calls answered out of order, the agent's cancel reaching the plugin, and
// for the raw stream plugin an answer sent twice and the plugin ending its stream.
//
// Per flavour two daemons run: one with the plugin's points configured fail-closed, one
// fail-open (the config's per-point failurePolicy overrides the manifest, which says fail-closed),
// both with a small per-call deadline so a hang costs DEADLINE_MS (approval's is long: it has no
// hang row, and the stream-contract rows wait there on steps of the test's own). Two more run the
// same plugin configured without points and told to exit before it serves (the unreachable rows). Every
// evaluation runs in a session of its own, so the daemon's audit log (written before the answer)
// shows exactly that evaluation's plugin invocation: its outcome and, for a fault, the cause,
// whatever the failure policy made of it. Session-end, turn-end and agent-event answer nothing: the plugins
// record what they received in a directory of the test's before answering, and the row reads it.
//
// The plugins subscribe to the points the test names ($HOOKD_CONFORMANCE_POINTS): those of
// SERVED_POINTS the built SDK knows, since a daemon refuses a manifest naming a point it does not.
//
// Prerequisites (`npm run test:conformance` does them): `npm run build` (the daemon and the SDK
// the TypeScript plugin imports) and `npm run setup:polyglot` (.venv with grpcio; Go). A missing
// prerequisite fails that flavour's tests; nothing is skipped.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { POINTS, assistantMessage, connectHost, parseJson, toolCall } from "@hookd/sdk";
import type { DecisionTrace, FailurePolicy, HostClient, JsonValue, PointName, RewriteEvaluation, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { REPO, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { TOOL_OUTPUT, UNREACHABLE_INPUT, UNREACHABLE_ROWS, ROWS, argumentsOf, claimed, pluginName } from "./rows.js";
import type { AgentEventRow, RecordedRow, RewriteOutcome, Row, UnreachableRow } from "./rows.js";
import { streamContractRows } from "./stream-contract.js";

/** The per-call deadline the daemon gives the conformance plugin at every point but approval. */
const DEADLINE_MS = 500;
/** Approval's: the stream-contract rows wait there for a record to appear, then for an abort. */
const APPROVAL_DEADLINE_MS = 30_000;
/** How long a crashed plugin may take to be restarted and answer again. */
const RESTART_WITHIN_MS = 20_000;
const AGENT = "conformance-agent";
/** Relative to the daemon's config file, in the daemon's temp dir. */
const AUDIT_FILE = "audit.jsonl";
const PLUGINS = join(REPO, "test/conformance/plugins");

// ---- the flavours -----------------------------------------------------------------------------

interface PluginCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * One plugin the whole table runs against. Adding a flavour is one entry in FLAVOURS:
 *
 *   { lang: "python", style: "sdk", transport: "stream", prepare: () => ({ command, args, env }) }
 *
 * - lang: names the plugin (`conformance-<lang>`, rows.ts pluginName) and what its messages say
 *   ("… by <lang>"); two flavours of one language answer identically.
 * - style: "sdk" (written with the language's hookd SDK) or "raw" (generated gRPC stubs only).
 * - transport: what ListPlugins must show the daemon calling it over ("unary" for a plugin
 *   without Attach, or whose manifest asks for unary).
 * - prepare(): checks prerequisites, throwing with what to run when one is missing (a missing
 *   toolchain fails, never skips), builds what must be built (always with an explicit output
 *   path), and returns the command the daemon runs as a managed plugin.
 *
 * The plugin follows the scenario contract of test/conformance/plugins/python/conformance_plugin.py
 * (its docstring): the scenarios, $HOOKD_CONFORMANCE_POINTS / _FAILURE_POLICY / _RECORDS /
 * _UNREACHABLE, the manifest, the records of notifications.
 */
export interface Flavour {
  readonly lang: "typescript" | "python" | "go";
  readonly style: "sdk" | "raw";
  /** What the daemon must end up calling the plugin over. */
  readonly transport: "stream" | "unary";
  prepare(): PluginCommand;
}

function need(path: string, what: string): void {
  if (!existsSync(path)) throw new Error(`conformance: ${path} is missing: ${what}`);
}

const BUILT_SDK = "the TypeScript plugins import the built @hookd/sdk (or its generated code); run `npm run build`";

const typescriptSdk = (transport: Flavour["transport"]): Flavour => ({
  lang: "typescript",
  style: "sdk",
  transport,
  prepare: () => {
    need(join(REPO, "sdk/dist/index.js"), BUILT_SDK);
    return { command: process.execPath, args: [join(PLUGINS, "typescript/conformance-plugin.mjs")], env: { HOOKD_CONFORMANCE_TRANSPORT: transport } };
  },
});

/**
 * The Go SDK's plugin (test/conformance/plugins/go-sdk, built on sdk-go), over both transports:
 * the Attach stream (the SDK's default) and unary (its manifest asks for unary).
 */
const goSdk = (transport: Flavour["transport"]): Flavour => ({
  lang: "go",
  style: "sdk",
  transport,
  prepare: () => {
    const dir = join(PLUGINS, "go-sdk");
    const binary = join(dir, "bin/conformance-plugin");
    try {
      execFileSync("go", ["build", "-o", binary, "."], { cwd: dir, stdio: "pipe" });
    } catch (error) {
      const detail = (error as { code?: string; stderr?: Buffer }).code === "ENOENT" ? "go is not installed (or not on PATH)" : String((error as { stderr?: Buffer }).stderr ?? error);
      throw new Error(`conformance: cannot build the Go SDK plugin in ${dir}: ${detail}`, { cause: error });
    }
    return { command: binary, args: [], env: { HOOKD_CONFORMANCE_TRANSPORT: transport } };
  },
});

// ---- the Python SDK plugin (sdk-python, hookd_plugin): the whole table over each transport ----
const pythonSdk = (transport: Flavour["transport"]): Flavour => ({
  lang: "python",
  style: "sdk",
  transport,
  prepare: () => {
    const python = join(REPO, ".venv/bin/python");
    need(python, "the Python SDK plugin runs in the repository's venv, where sdk-python is installed; run `npm run setup:polyglot`");
    execFileSync(python, ["-c", "import hookd_plugin.testing"], { stdio: "pipe" });
    const env = { HOOKD_CONFORMANCE_TRANSPORT: transport, PYTHONUNBUFFERED: "1" };
    return { command: python, args: [join(PLUGINS, "python-sdk/conformance_sdk_plugin.py")], env };
  },
});

/**
 * The raw-stub Python plugin (grpcio and the generated _pb2, no SDK): unary it has no Attach, as
 * a plugin written before streams; over the stream it serves Attach by hand
 * (plugins/python/conformance_attach.py) and its manifest asks for the stream.
 */
const pythonRaw = (transport: Flavour["transport"]): Flavour => ({
  lang: "python",
  style: "raw",
  transport,
  prepare: () => {
    const python = join(REPO, ".venv/bin/python");
    need(python, "the Python plugin runs in the repository's venv; run `npm run setup:polyglot`");
    const env = { PYTHONPATH: join(REPO, "sdk-python/src"), PYTHONUNBUFFERED: "1", HOOKD_CONFORMANCE_TRANSPORT: transport };
    // grpcio, the health service and the generated stubs must import, or every row would fail obscurely.
    execFileSync(python, ["-c", "import grpc, grpc_health.v1.health, hookd_plugin.stubs"], { env: { ...process.env, ...env }, stdio: "pipe" });
    return { command: python, args: [join(PLUGINS, "python/conformance_plugin.py")], env };
  },
});

export const FLAVOURS: readonly Flavour[] = [
  typescriptSdk("stream"),
  typescriptSdk("unary"),
  pythonSdk("stream"),
  pythonSdk("unary"),
  goSdk("stream"),
  goSdk("unary"),
  {
    lang: "typescript",
    style: "raw",
    transport: "unary",
    prepare: () => {
      need(join(REPO, "sdk/dist/gen/hookd/v1/plugin_pb.js"), BUILT_SDK);
      return { command: process.execPath, args: [join(PLUGINS, "typescript-raw/conformance-plugin.mjs")], env: {} };
    },
  },
  pythonRaw("unary"),
  pythonRaw("stream"),
  {
    lang: "go",
    style: "raw",
    transport: "unary",
    prepare: () => {
      const dir = join(PLUGINS, "go");
      const binary = join(dir, "bin/conformance-plugin");
      try {
        execFileSync("go", ["build", "-o", binary, "."], { cwd: dir, stdio: "pipe" });
      } catch (error) {
        const detail = (error as { code?: string; stderr?: Buffer }).code === "ENOENT" ? "go is not installed (or not on PATH)" : String((error as { stderr?: Buffer }).stderr ?? error);
        throw new Error(`conformance: cannot build the Go plugin in ${dir}: ${detail}`, { cause: error });
      }
      return { command: binary, args: [], env: {} };
    },
  },
];

const title = (row: Row): string => `${row.point} ${JSON.stringify(row.input)} (${row.policy})`;

/** Every point the conformance plugins serve, in firing order. */
const SERVED_POINTS = ["pre-step", "rewrite", "pre-tool", "approval", "post-tool", "turn-stopping", "turn-end", "session-end", "agent-event"] as const;
const KNOWN_POINTS: readonly string[] = POINTS;
const SUBSCRIBED: readonly PointName[] = SERVED_POINTS.filter((point): point is (typeof SERVED_POINTS)[number] & PointName => KNOWN_POINTS.includes(point));
const RECORDS_DIR = "records";

// ---- driving the daemon ----------------------------------------------------------------------

/** What the audit log says about a plugin invocation. */
interface AuditedInvocation {
  readonly plugin: string;
  readonly point: string;
  /** answered, passed, fault or error. */
  readonly outcome: string;
  /** The fault's cause; "" when the plugin answered. */
  readonly cause: string;
  /** The daemon's detail (not compared: it is there so a failing row shows what happened). */
  readonly reason: string;
}

interface Observed {
  readonly decision: unknown;
  /** Undefined at a notification whose evaluation carries no trace. */
  readonly decidedBy: string | undefined;
  /** "" when the trace names no cause. */
  readonly failureCause: string;
  readonly result?: ToolResult;
  /** The plugin invocations the audit log recorded for the evaluation's session. */
  readonly invocations: readonly AuditedInvocation[];
}

interface Target {
  readonly daemon: DaemonProcess;
  readonly client: HostClient;
}

/**
 * Message ids are the daemon's bookkeeping ("assigned when empty"), not part of a decision: they
 * are left out on both sides. Only arrays and plain objects are walked (matchers stay intact).
 */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.entries(value).map(([key, inner]): [string, unknown] => [key, withoutIds(inner)]);
  const isMessage = "role" in value && "source" in value && "content" in value;
  return Object.fromEntries(isMessage ? entries.filter(([key]) => key !== "id") : entries);
}

/** The effective call (what runs, what policy sees, the agent's original, who rewrote it) or the refusal. */
function rewriteOutcome(evaluation: RewriteEvaluation): RewriteOutcome {
  const { outcome } = evaluation;
  if (outcome.kind === "deny") return { kind: "deny", reason: outcome.reason };
  const call = outcome.call;
  // The text is what dispatch and the audit read: it must hold the same value, digit for digit.
  expect(parseJson(call.argumentsJson)).toEqual(call.arguments);
  return { kind: "call", arguments: call.arguments, originalArgumentsJson: call.originalArgumentsJson ?? null, rewrittenBy: call.rewrittenBy ?? [] };
}

class Agent {
  #sessions = 0;

  constructor(
    readonly client: HostClient,
    readonly lang: string,
    readonly auditPath: string,
    readonly recordsDir: string,
    /** The daemon's socket, where HookAdmin answers too. */
    readonly target: string,
  ) {}

  /** A fresh session: its audit records are this evaluation's alone. */
  session(lineage: { readonly parentSessionId: string; readonly agentType: string } | undefined = undefined): SessionInfo {
    return { sessionId: `conformance-${this.lang}-${++this.#sessions}`, agentId: AGENT, cwd: "/", ...lineage };
  }

  call(session: SessionInfo, args: Readonly<Record<string, JsonValue>>): ToolCall {
    return toolCall("Bash", args, { callId: "call-1", sessionId: session.sessionId });
  }

  /** The plugin invocations audited for `session` (records are written before the daemon answers). */
  invocations(session: SessionInfo): AuditedInvocation[] {
    const text = existsSync(this.auditPath) ? readFileSync(this.auditPath, "utf8") : "";
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.kind === "invocation" && record.sessionId === session.sessionId)
      .map((record) => ({
        plugin: String(record.plugin),
        point: String(record.point),
        outcome: String(record.outcome),
        cause: String(record.cause),
        reason: String(record.reason),
      }));
  }

  /** What the plugin recorded it received at a notification point; undefined when nothing. */
  recorded(point: RecordedRow["point"] | AgentEventRow["point"], session: SessionInfo): unknown {
    const path = join(this.recordsDir, `${point}.${session.sessionId}.json`);
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as unknown) : undefined;
  }

  async evaluate(row: Row): Promise<Observed> {
    const subagent = (row.point === "session-end" || row.point === "agent-event") && row.subagent === true;
    const session = this.session(subagent ? { parentSessionId: "conformance-parent", agentType: "conformance-subagent" } : undefined);
    const observe = (decision: unknown, trace: DecisionTrace | undefined, result?: ToolResult): Observed => ({
      decision: withoutIds(decision),
      decidedBy: trace?.decidedBy,
      failureCause: trace?.failureCause ?? "",
      ...(result === undefined ? {} : { result: withoutIds(result) as ToolResult }),
      invocations: this.invocations(session),
    });
    switch (row.point) {
      case "pre-tool": {
        const options = row.agentResolvesAsk === true ? { agentResolvesAsk: true } : {};
        const { decision, trace } = await this.client.evaluatePreTool({ session, call: this.call(session, argumentsOf(row)) }, options);
        return observe(decision, trace);
      }
      case "post-tool": {
        const { decision, trace, result } = await this.client.evaluatePostTool({ session, call: this.call(session, argumentsOf(row)), result: TOOL_OUTPUT });
        return observe(decision, trace, result);
      }
      case "pre-step": {
        const { decision, trace } = await this.client.evaluatePreStep({ session, turn: 1, step: 1, messages: claimed(row.input) });
        return observe(decision, trace);
      }
      case "rewrite": {
        const evaluation = await this.client.evaluateRewrite({ session, call: this.call(session, argumentsOf(row)) });
        return observe(rewriteOutcome(evaluation), evaluation.trace);
      }
      case "approval": {
        const event = { session, call: this.call(session, argumentsOf(row)), reason: "conformance: may this run?", askedBy: "conformance-asker" };
        const { decision, trace } = await this.client.evaluateApproval(event);
        return observe(decision, trace);
      }
      case "turn-stopping": {
        const event = { session, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0, lastAssistantMessage: assistantMessage(row.input) };
        const { decision, trace } = await this.client.evaluateTurnStopping(event);
        return observe(decision, trace);
      }
      case "session-end": {
        const { reason, detail, turns } = row.decision(this.lang);
        await this.client.evaluateSessionEnd({ session, reason, detail, turns } as Parameters<HostClient["evaluateSessionEnd"]>[0]);
        return observe(this.recorded(row.point, session), undefined);
      }
      case "turn-end": {
        const { turn, outcome, detail, steps } = row.decision(this.lang);
        await this.client.evaluateTurnEnd({ session, turn, outcome, detail, steps } as Parameters<HostClient["evaluateTurnEnd"]>[0]);
        return observe(this.recorded(row.point, session), undefined);
      }
      case "agent-event": {
        await this.client.evaluateAgentEvent({ session, dialect: row.dialect, eventName: row.input, payload: parseJson(row.payloadJson) });
        return observe(this.recorded(row.point, session), undefined);
      }
    }
  }

  /** An unreachable row: a pre-tool or pre-step evaluation that no plugin can answer. */
  async evaluateUnreachable(row: UnreachableRow): Promise<Observed> {
    const session = this.session();
    const { decision, trace } =
      row.point === "pre-tool"
        ? await this.client.evaluatePreTool({ session, call: this.call(session, { scenario: UNREACHABLE_INPUT }) })
        : await this.client.evaluatePreStep({ session, turn: 1, step: 1, messages: claimed(UNREACHABLE_INPUT) });
    return { decision: withoutIds(decision), decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "", invocations: this.invocations(session) };
  }

  /**
   * Polls with "allow" calls until the plugin itself answers (after a restart), bounded by
   * RESTART_WITHIN_MS. Resolves with the number of calls it took.
   */
  async untilAnswering(plugin: string): Promise<number> {
    const until = performance.now() + RESTART_WITHIN_MS;
    let last: unknown;
    for (let attempt = 1; performance.now() < until; attempt++) {
      const session = this.session();
      const { decision, trace } = await this.client.evaluatePreTool({ session, call: this.call(session, { scenario: "allow" }) });
      if (decision.kind === "allow" && trace.decidedBy === plugin && trace.failureCause === undefined) return attempt;
      last = { decision, trace };
      await delay(50); // the poll interval; each failed attempt is answered fast while the plugin is down
    }
    throw new Error(`${plugin} did not answer again within ${RESTART_WITHIN_MS} ms; last evaluation: ${JSON.stringify(last)}`);
  }
}

function expected(row: Row, lang: string): Observed {
  const plugin = pluginName(lang);
  const outcome =
    row.cause !== undefined ? "fault" : row.decidedBy === "default" ? "passed" : row.decidedBy === "nobody" ? (expect.toBeOneOf(["answered", "passed"]) as string) : "answered";
  const recorded = row.point === "session-end" || row.point === "turn-end" || row.point === "agent-event" ? row.decision(lang) : undefined;
  const decision = recorded !== undefined ? { point: row.point, sessionId: expect.any(String) as string, agentId: AGENT, ...recorded } : row.decision(lang);
  // An agent event the plugin's matchers do not match: it is never called, nothing is audited.
  if (row.point === "agent-event" && recorded === undefined) return { decision: undefined, decidedBy: undefined, failureCause: "", invocations: [] };
  return {
    decision: withoutIds(decision),
    decidedBy: row.decidedBy === "plugin" ? plugin : row.decidedBy === "default" ? "default" : undefined,
    // host.proto, DecisionTrace.failure_cause: the row's cause under either policy. Fail-closed,
    // the failing plugin refused; fail-open, it counted as having passed, and with no other
    // plugin to decide the default decided, naming its failure.
    failureCause: row.cause ?? "",
    ...(row.point === "post-tool" ? { result: withoutIds(row.result(lang)) as ToolResult } : {}),
    invocations: [
      { plugin, point: row.point, outcome, cause: row.cause ?? "", reason: expect.any(String) as string },
      // An ask the agent resolves is first offered to the approval plugins; this one passes on it.
      ...(row.point === "pre-tool" && row.agentResolvesAsk === true ? [{ plugin, point: "approval" as const, outcome: "passed", cause: "", reason: expect.any(String) as string }] : []),
    ],
  };
}

function expectedUnreachable(row: UnreachableRow, lang: string): Observed {
  const plugin = pluginName(lang);
  return {
    decision: row.decision,
    decidedBy: row.decidedBy === "plugin" ? plugin : "default",
    failureCause: "unavailable",
    invocations: [{ plugin, point: row.point, outcome: "fault", cause: "unavailable", reason: expect.any(String) as string }],
  };
}

const HEALTH = { ejectAfterFailures: 1_000, initialBackoffMs: 50, maxBackoffMs: 1_000 };

function daemonConfig(lang: Flavour["lang"], plugin: PluginCommand, policy: FailurePolicy, recordsDir: string): Record<string, unknown> {
  const override = (point: PointName) => ({ deadlineMs: point === "approval" ? APPROVAL_DEADLINE_MS : DEADLINE_MS, failurePolicy: policy });
  return {
    audit: { path: AUDIT_FILE, fsync: "never" },
    plugins: [
      {
        name: pluginName(lang),
        kind: "managed",
        command: plugin.command,
        args: plugin.args,
        env: { ...plugin.env, HOOKD_CONFORMANCE_POINTS: SUBSCRIBED.join(","), HOOKD_CONFORMANCE_RECORDS: recordsDir },
        required: true,
        startTimeoutMs: 30_000,
        // Fault rows follow each other; ejection (its own behaviour) must not turn their causes into "ejected".
        health: HEALTH,
        points: Object.fromEntries(SUBSCRIBED.map((point) => [point, override(point)])),
      },
    ],
  };
}

/** The plugin exits before it serves; under fail-closed nothing but its name is configured. */
function unreachableConfig(lang: Flavour["lang"], plugin: PluginCommand, policy: FailurePolicy): Record<string, unknown> {
  return {
    audit: { path: AUDIT_FILE, fsync: "never" },
    plugins: [
      {
        name: pluginName(lang),
        kind: "managed",
        command: plugin.command,
        args: plugin.args,
        env: { ...plugin.env, HOOKD_CONFORMANCE_UNREACHABLE: "1" },
        required: false,
        startTimeoutMs: 5_000,
        health: HEALTH,
        ...(policy === "fail-open" ? { points: { "pre-tool": { failurePolicy: "fail-open" } } } : {}),
      },
    ],
  };
}

// ---- the suite -------------------------------------------------------------------------------

/**
 * The whole table against each of `flavours`. The test files pick them: typescript.test.ts runs
 * the TypeScript flavours (on every Node, as they test the daemon and the SDK on it), and
 * polyglot.test.ts the Python and Go ones (once: those plugins are the same programs whatever
 * Node runs the daemon).
 */
export function runConformance(flavours: readonly Flavour[]): void {
  describe.each(flavours)("conformance: $lang $style plugin over $transport through a real daemon", (flavour) => {
    const { lang, transport } = flavour;
    const plugin = pluginName(lang);
    const targets: Target[] = [];
    /** The daemons' runtime dir (XDG_RUNTIME_DIR), where they put the managed plugin's socket. */
    let runtimeDir: string | undefined;
    const agents = new Map<string, Agent>();
    /** Answers the stream-contract rows had refused on purpose, per daemon. */
    const refused = new Map<FailurePolicy, bigint>();
    const agent = (policy: FailurePolicy, unreachable = false): Agent => {
      const found = agents.get(`${policy}${unreachable ? " unreachable" : ""}`);
      if (found === undefined) throw new Error(`no ${policy} daemon for ${lang} (did beforeAll fail?)`);
      return found;
    };

    beforeAll(async () => {
      const command = flavour.prepare();
      const dir = await mkdtemp(join(tmpdir(), "hookd-conf-"));
      runtimeDir = dir;
      const policies: readonly FailurePolicy[] = ["fail-closed", "fail-open"];
      const start = async (key: string, config: Record<string, unknown>, recordsDir: string): Promise<Agent> => {
        const daemon = await startDaemon({ config, env: { XDG_RUNTIME_DIR: dir }, timeoutMs: 60_000 });
        const client = connectHost(daemon.target, { agentId: AGENT });
        targets.push({ daemon, client });
        const ready = new Agent(client, lang, join(daemon.dir, AUDIT_FILE), recordsDir, daemon.target);
        agents.set(key, ready);
        return ready;
      };
      // allSettled: a daemon that did start is recorded (and stopped by afterAll) even when another fails.
      const started = await Promise.allSettled([
        ...policies.map(async (policy) => {
          const records = join(dir, `${RECORDS_DIR}-${policy}`);
          await mkdir(records);
          const ready = await start(`${policy}-starting`, daemonConfig(lang, command, policy, records), records);
          await ready.untilAnswering(plugin);
          agents.set(policy, ready);
        }),
        ...policies.map((policy) => start(`${policy} unreachable`, unreachableConfig(lang, command, policy), dir)),
      ]);
      const failed = started.find((outcome) => outcome.status === "rejected");
      if (failed !== undefined) throw failed.reason;
    });

    afterAll(async () => {
      for (const { daemon, client } of targets) {
        client.close();
        await daemon.stop();
      }
      if (runtimeDir !== undefined) await rm(runtimeDir, { recursive: true, force: true });
    });

    it.each(ROWS.map((row) => ({ row, name: title(row) })))("$name", async ({ row }) => {
      const driver = agent(row.policy);
      const observed = await driver.evaluate(row);
      if (row.restart === true) {
        // The crashed call got the failure-policy decision; the daemon restarts the process and the
        // next calls are answered by the new one.
        await driver.untilAnswering(plugin);
      }
      expect(observed).toEqual(expected(row, lang));
    });

    it.each(UNREACHABLE_ROWS.map((row) => ({ row, name: `unreachable gate plugin without points: ${row.point} (${row.policy})` })))("$name", async ({ row }) => {
      const observed = await agent(row.policy, true).evaluateUnreachable(row);
      expect(observed).toEqual(expectedUnreachable(row, lang));
    });

    it(`calls the plugin over ${transport}`, async () => {
      for (const policy of ["fail-closed", "fail-open"] as const) {
        const admin = createClient(pb.HookAdmin, agent(policy).target);
        try {
          const { plugins } = await admin.listPlugins({}, { timeoutMs: 10_000 });
          expect(plugins.map((p) => ({ name: p.name, transport: p.transport, refusedAnswers: p.refusedAnswers }))).toEqual([{ name: plugin, transport, refusedAnswers: refused.get(policy) ?? 0n }]);
        } finally {
          closeClient(admin);
        }
      }
    });

    it("a plugin that never answers is cut at its deadline by the daemon", async () => {
      const driver = agent("fail-closed");
      const session = driver.session();
      // The daemon answers with the deadline fault long before the agent's own 30 s timeout would
      // fail the call; how long the hung call cost is the benchmark's business.
      const { decision, trace } = await driver.client.evaluatePreTool({ session, call: driver.call(session, { scenario: "hang" }) }, { timeoutMs: 30_000 });
      expect({ kind: decision.kind, decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "" }).toEqual({ kind: "deny", decidedBy: plugin, failureCause: "deadline_exceeded" });
      // The hung call left the plugin usable.
      expect(await driver.untilAnswering(plugin)).toBe(1);
    });

    if (transport === "stream") {
      streamContractRows({
        lang,
        style: flavour.style,
        plugin,
        driver: (policy) => agent(policy),
        refusedOnPurpose: (policy) => refused.set(policy, (refused.get(policy) ?? 0n) + 1n),
      });
    }
  });
}
