// Conformance: ONE scenario table run against the same plugin written in TypeScript, Python and Go
// (test/conformance/plugins), each started by a real `hookd serve` as a managed plugin, and driven
// through the agent SDK's evaluate API. Whatever language a plugin is written in, its answers
// (and its faults: hangs, crashes, garbage, another point's answer, invalid combinations) must
// become the same typed decisions with the same trace.
//
// Per language two daemons run: one with the plugin's points configured fail-closed, one
// fail-open (the config's per-point failurePolicy overrides the manifest, which says fail-closed),
// both with a small per-call deadline so a hang costs DEADLINE_MS. A row names its point, its
// input, the failure policy (which daemon), and the expected decision, decider and failure cause.
// Every evaluation runs in a session of its own, so the daemon's audit log (written before the
// answer) shows exactly that evaluation's plugin invocation: its outcome and, for a fault, the
// cause, whatever the failure policy made of it.
//
// Prerequisites (`npm run test:conformance` does them): `npm run build` (the daemon and the SDK
// the TypeScript plugin imports) and `npm run setup:polyglot` (.venv with grpcio; Go). A missing
// prerequisite fails the language's tests; nothing is skipped.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { connectHost, pluginMessage, snapshotJson, text, userMessage } from "@hookd/sdk";
import type {
  AgentMessage,
  DecisionTrace,
  FailurePolicy,
  HostClient,
  PostToolDecision,
  PreStepDecision,
  PreToolDecision,
  SessionInfo,
  ToolCall,
  ToolResult,
} from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

/** The per-call deadline the daemon gives the conformance plugin at every point. */
const DEADLINE_MS = 500;
/** How long a crashed plugin may take to be restarted and answer again. */
const RESTART_WITHIN_MS = 20_000;
const AGENT = "conformance-agent";
/** Relative to the daemon's config file, in the daemon's temp dir. */
const AUDIT_FILE = "audit.jsonl";
const PLUGINS = join(REPO, "test/conformance/plugins");

// ---- the languages ---------------------------------------------------------------------------

interface PluginCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

interface Language {
  readonly lang: "typescript" | "python" | "go";
  /** Throws, saying what to run, when a prerequisite is missing; builds what must be built. */
  prepare(): PluginCommand;
}

function need(path: string, what: string): void {
  if (!existsSync(path)) throw new Error(`conformance: ${path} is missing: ${what}`);
}

const LANGUAGES: readonly Language[] = [
  {
    lang: "typescript",
    prepare: () => {
      need(join(REPO, "sdk/dist/index.js"), "the TypeScript plugin imports the built @hookd/sdk; run `npm run build`");
      return { command: process.execPath, args: [join(PLUGINS, "typescript/conformance-plugin.mjs")], env: {} };
    },
  },
  {
    lang: "python",
    prepare: () => {
      const python = join(REPO, ".venv/bin/python");
      need(python, "the Python plugin runs in the repository's venv; run `npm run setup:polyglot`");
      const env = { PYTHONPATH: join(REPO, "hooks-examples/python"), PYTHONUNBUFFERED: "1" };
      // grpcio, the health service and the generated stubs must import, or every row would fail obscurely.
      execFileSync(python, ["-c", "import grpc, grpc_health.v1.health, hookd.v1.plugin_pb2"], { env: { ...process.env, ...env }, stdio: "pipe" });
      return { command: python, args: [join(PLUGINS, "python/conformance_plugin.py")], env };
    },
  },
  {
    lang: "go",
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

const pluginName = (lang: string): string => `conformance-${lang}`;

// ---- the table -------------------------------------------------------------------------------

/** Non-empty text: the failure-policy refusals word their reason as the daemon likes. */
const someText = expect.stringMatching(/\S/) as unknown as string;

const TOOL_OUTPUT: ToolResult = { isError: false, value: "tool output", content: [text("tool output")], contexts: [] };

interface RowBase {
  /** The scenario (tool points) or the first message's text (pre-step). */
  readonly input: string;
  readonly policy: FailurePolicy;
  /** Who the trace must name: the plugin, or "default" when every plugin passed (fail-open counts as a pass). */
  readonly decidedBy: "plugin" | "default";
  /** The trace's failure cause; absent when the plugin answered. */
  readonly cause?: string;
  /** The call kills the plugin: afterwards the restarted plugin must answer again. */
  readonly restart?: true;
}
interface PreToolRow extends RowBase {
  readonly point: "pre-tool";
  readonly agentResolvesAsk?: true;
  decision(lang: string): PreToolDecision;
}
interface PostToolRow extends RowBase {
  readonly point: "post-tool";
  decision(lang: string): PostToolDecision;
  /** The result as the model should see it after the decision. */
  result(lang: string): ToolResult;
}
interface PreStepRow extends RowBase {
  readonly point: "pre-step";
  decision(lang: string): PreStepDecision;
}
type Row = PreToolRow | PostToolRow | PreStepRow;

const contextFrom = (lang: string): AgentMessage => pluginMessage(pluginName(lang), `conformance: context from ${lang}`);
const claimed = (input: string): AgentMessage[] => [userMessage(input)];
/** A result with at least these fields. */
const resultWith = (fields: Readonly<Record<string, unknown>>): ToolResult => expect.objectContaining(fields) as ToolResult;
/** A refusal turns the result into a failure; its wording is the daemon's. */
const refusedResult = resultWith({ isError: true });

const ROWS: readonly Row[] = [
  // pre-tool: the plugin decides
  { point: "pre-tool", input: "allow", policy: "fail-closed", decidedBy: "plugin", decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "deny", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "deny", reason: `conformance: denied by ${l}` }) },
  { point: "pre-tool", input: "ask", policy: "fail-closed", decidedBy: "plugin", agentResolvesAsk: true, decision: (l) => ({ kind: "ask", reason: `conformance: asked by ${l}` }) },
  { point: "pre-tool", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "allow" }) },
  // pre-tool: faults, under both policies
  { point: "pre-tool", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "hang", policy: "fail-open", decidedBy: "default", cause: "deadline_exceeded", decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "crash", policy: "fail-closed", decidedBy: "plugin", cause: "crashed", restart: true, decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "crash", policy: "fail-open", decidedBy: "default", cause: "crashed", restart: true, decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "garbage", policy: "fail-open", decidedBy: "default", cause: "invalid_answer", decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "wrong-variant", policy: "fail-open", decidedBy: "default", cause: "wrong_point", decision: () => ({ kind: "allow" }) },
  // post-tool: the plugin decides
  {
    point: "post-tool", input: "block", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "block", feedback: `conformance: blocked by ${l}` }),
    result: (l) => resultWith({ isError: true, code: "blocked", content: [text(`conformance: blocked by ${l}`)] }),
  },
  {
    point: "post-tool", input: "replace", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", content: [text(`conformance: replaced by ${l}`)] }),
    result: (l) => ({ ...TOOL_OUTPUT, content: [text(`conformance: replaced by ${l}`)] }),
  },
  {
    point: "post-tool", input: "value", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", value: { replacedBy: l } }),
    result: (l) => resultWith({ isError: false, value: { replacedBy: l } }),
  },
  {
    point: "post-tool", input: "context", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", additionalContexts: [contextFrom(l)] }),
    result: (l) => ({ ...TOOL_OUTPUT, contexts: [contextFrom(l)] }),
  },
  { point: "post-tool", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "accept" }), result: () => TOOL_OUTPUT },
  // post-tool: faults
  { point: "post-tool", input: "invalid", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "invalid", policy: "fail-open", decidedBy: "default", cause: "invalid_answer", decision: () => ({ kind: "accept" }), result: () => TOOL_OUTPUT },
  { point: "post-tool", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "crash", policy: "fail-closed", decidedBy: "plugin", cause: "crashed", restart: true, decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  // pre-step: the plugin decides
  { point: "pre-step", input: "inject the plugin's context", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "enter", messages: [...claimed("inject the plugin's context"), contextFrom(l)] }) },
  { point: "pre-step", input: "reject this step", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "reject", reason: `conformance: rejected by ${l}` }) },
  { point: "pre-step", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "enter", messages: claimed("pass") }) },
  // pre-step: faults
  { point: "pre-step", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: () => ({ kind: "reject", reason: someText }) },
  { point: "pre-step", input: "hang", policy: "fail-open", decidedBy: "default", cause: "deadline_exceeded", decision: () => ({ kind: "enter", messages: claimed("hang") }) },
  { point: "pre-step", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "reject", reason: someText }) },
  { point: "pre-step", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: () => ({ kind: "reject", reason: someText }) },
];

const title = (row: Row): string => `${row.point} ${JSON.stringify(row.input)} (${row.policy})`;

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
  readonly decidedBy: string;
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

class Agent {
  #sessions = 0;

  constructor(
    readonly client: HostClient,
    readonly lang: string,
    readonly auditPath: string,
  ) {}

  /** A fresh session: its audit records are this evaluation's alone. */
  session(): SessionInfo {
    return { sessionId: `conformance-${this.lang}-${++this.#sessions}`, agentId: AGENT, cwd: "/" };
  }

  call(session: SessionInfo, scenario: string): ToolCall {
    const args = snapshotJson({ scenario });
    return { callId: "call-1", rootCallId: "call-1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 };
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

  async evaluate(row: Row): Promise<Observed> {
    const session = this.session();
    const observe = (decision: unknown, trace: DecisionTrace, result?: ToolResult): Observed => ({
      decision: withoutIds(decision),
      decidedBy: trace.decidedBy,
      failureCause: trace.failureCause ?? "",
      ...(result === undefined ? {} : { result: withoutIds(result) as ToolResult }),
      invocations: this.invocations(session),
    });
    switch (row.point) {
      case "pre-tool": {
        const options = row.agentResolvesAsk === true ? { agentResolvesAsk: true } : {};
        const { decision, trace } = await this.client.evaluatePreTool({ session, call: this.call(session, row.input) }, options);
        return observe(decision, trace);
      }
      case "post-tool": {
        const { decision, trace, result } = await this.client.evaluatePostTool({ session, call: this.call(session, row.input), result: TOOL_OUTPUT });
        return observe(decision, trace, result);
      }
      case "pre-step": {
        const { decision, trace } = await this.client.evaluatePreStep({ session, turn: 1, step: 1, messages: claimed(row.input) });
        return observe(decision, trace);
      }
    }
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
      const { decision, trace } = await this.client.evaluatePreTool({ session, call: this.call(session, "allow") });
      if (decision.kind === "allow" && trace.decidedBy === plugin && trace.failureCause === undefined) return attempt;
      last = { decision, trace };
      await delay(50); // the poll interval; each failed attempt is answered fast while the plugin is down
    }
    throw new Error(`${plugin} did not answer again within ${RESTART_WITHIN_MS} ms; last evaluation: ${JSON.stringify(last)}`);
  }
}

function expected(row: Row, lang: string): Observed {
  const plugin = pluginName(lang);
  const outcome = row.cause !== undefined ? "fault" : row.decidedBy === "default" ? "passed" : "answered";
  // host.proto: failure_cause is "set when the decision came from a failure policy". Fail-closed
  // refusals are exactly that. Under fail-open the plugin counts as having passed and the default
  // decides, so the trace may name the cause or not; the audit record must name it either way.
  const failureCause = row.policy === "fail-open" && row.cause !== undefined ? (expect.toBeOneOf(["", row.cause]) as string) : (row.cause ?? "");
  return {
    decision: withoutIds(row.decision(lang)),
    decidedBy: row.decidedBy === "plugin" ? plugin : "default",
    failureCause,
    ...(row.point === "post-tool" ? { result: withoutIds(row.result(lang)) as ToolResult } : {}),
    invocations: [{ plugin, point: row.point, outcome, cause: row.cause ?? "", reason: expect.any(String) as string }],
  };
}

function daemonConfig(lang: Language["lang"], plugin: PluginCommand, policy: FailurePolicy): Record<string, unknown> {
  const override = { deadlineMs: DEADLINE_MS, failurePolicy: policy };
  return {
    audit: { path: AUDIT_FILE, fsync: "never" },
    plugins: [
      {
        name: pluginName(lang),
        kind: "managed",
        command: plugin.command,
        args: plugin.args,
        env: plugin.env,
        required: true,
        startTimeoutMs: 30_000,
        // Fault rows follow each other; ejection (its own behaviour) must not turn their causes into "ejected".
        health: { ejectAfterFailures: 1_000, initialBackoffMs: 50, maxBackoffMs: 1_000 },
        points: { "pre-step": override, "pre-tool": override, "post-tool": override },
      },
    ],
  };
}

// ---- the suite -------------------------------------------------------------------------------

describe.each(LANGUAGES)("conformance: $lang plugin through a real daemon", (language) => {
  const { lang } = language;
  const plugin = pluginName(lang);
  const targets = new Map<FailurePolicy, Target>();
  /** The daemons' runtime dir (XDG_RUNTIME_DIR), where they put the managed plugin's socket. */
  let runtimeDir: string | undefined;
  const agents = new Map<FailurePolicy, Agent>();
  const agent = (policy: FailurePolicy): Agent => {
    const found = agents.get(policy);
    if (found === undefined) throw new Error(`no ${policy} daemon for ${lang} (did beforeAll fail?)`);
    return found;
  };

  beforeAll(async () => {
    const command = language.prepare();
    runtimeDir = await mkdtemp(join(tmpdir(), "hookd-conf-"));
    const policies: readonly FailurePolicy[] = ["fail-closed", "fail-open"];
    // allSettled: a daemon that did start is recorded (and stopped by afterAll) even when the other fails.
    const started = await Promise.allSettled(
      policies.map(async (policy) => {
        const daemon = await startDaemon({ config: daemonConfig(lang, command, policy), env: { XDG_RUNTIME_DIR: runtimeDir }, timeoutMs: 60_000 });
        const client = connectHost(daemon.target, { agentId: AGENT });
        targets.set(policy, { daemon, client });
        const ready = new Agent(client, lang, join(daemon.dir, AUDIT_FILE));
        await ready.untilAnswering(plugin);
        agents.set(policy, ready);
      }),
    );
    const failed = started.find((outcome) => outcome.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  });

  afterAll(async () => {
    for (const { daemon, client } of targets.values()) {
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

  it("a plugin that never answers is cut at its deadline by the daemon", async () => {
    const driver = agent("fail-closed");
    const session = driver.session();
    // The daemon answers with the deadline fault long before the agent's own 30 s timeout would
    // fail the call; how long the hung call cost is the benchmark's business.
    const { decision, trace } = await driver.client.evaluatePreTool({ session, call: driver.call(session, "hang") }, { timeoutMs: 30_000 });
    expect({ kind: decision.kind, decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "" }).toEqual({ kind: "deny", decidedBy: plugin, failureCause: "deadline_exceeded" });
    // The hung call left the plugin usable.
    expect(await driver.untilAnswering(plugin)).toBe(1);
  });
});
