// The stream-contract rows of the conformance table: what docs/streams.md promises of
// HookPlugin.Attach, held for every flavour the daemon calls over the stream. Calls in flight
// together answered in the reverse order (each gets its own answer), and the agent's cancel
// reaching the plugin as a cancel frame; for the raw stream plugin alone, an answer sent twice
// (refused, counted, the stream goes on) and the plugin ending its stream (the calls in flight
// fail as unavailable, later calls are answered). The scenarios are the plugins' (their
// docstring), at approval, the point whose deadline suite.ts makes long for them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { status } from "@grpc/grpc-js";
import type { EvaluateOptions, FailurePolicy, HostClient, JsonValue, SessionInfo, ToolCall } from "@hookd/sdk";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { expect, it } from "vitest";
import { someText } from "./rows.js";

/** What the rows need of the test's agent (suite.ts's Agent). */
export interface StreamDriver {
  readonly client: HostClient;
  /** Where the plugin writes its records. */
  readonly recordsDir: string;
  /** The daemon's socket, where HookAdmin answers too. */
  readonly target: string;
  session(): SessionInfo;
  call(session: SessionInfo, args: Readonly<Record<string, JsonValue>>): ToolCall;
  invocations(session: SessionInfo): readonly { readonly plugin: string; readonly outcome: string; readonly cause: string }[];
  untilAnswering(plugin: string): Promise<number>;
}

export interface StreamContractOptions {
  readonly lang: string;
  readonly style: "sdk" | "raw";
  readonly plugin: string;
  readonly driver: (policy: FailurePolicy) => StreamDriver;
  /** Tells the ListPlugins row that an answer was refused on purpose at the daemon of `policy`. */
  readonly refusedOnPurpose: (policy: FailurePolicy) => void;
}

/** How long the plugin may take to write a record it owes. */
const RECORD_WITHIN_MS = 20_000;

let pairs = 0;
/** Pairs two calls in the plugin (the arguments' "pair"); unique in the test process. */
const nextPair = (): string => `pair-${process.pid}-${++pairs}`;

function approval(driver: StreamDriver, session: SessionInfo, args: Readonly<Record<string, JsonValue>>, options?: EvaluateOptions): ReturnType<HostClient["evaluateApproval"]> {
  const event = { session, call: driver.call(session, args), reason: "conformance: may this run?", askedBy: "conformance-asker" };
  return driver.client.evaluateApproval(event, options);
}

/** The decision, who decided and why, and what the audit log says of the plugin's invocation. */
async function observe(driver: StreamDriver, session: SessionInfo, answer: ReturnType<HostClient["evaluateApproval"]>): Promise<unknown> {
  const { decision, trace } = await answer;
  const invocations = driver.invocations(session).map(({ plugin, outcome, cause }) => ({ plugin, outcome, cause }));
  return { decision, decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "", invocations };
}

function answeredBy(plugin: string, decision: unknown): unknown {
  return { decision, decidedBy: plugin, failureCause: "", invocations: [{ plugin, outcome: "answered", cause: "" }] };
}

/** A record the plugin writes whole (renamed into place); polled like waitForFile. */
async function recorded(driver: StreamDriver, name: string, session: SessionInfo): Promise<unknown> {
  const path = join(driver.recordsDir, `${name}.${session.sessionId}.json`);
  const until = performance.now() + RECORD_WITHIN_MS;
  while (!existsSync(path)) {
    if (performance.now() > until) throw new Error(`the plugin wrote no ${path} within ${RECORD_WITHIN_MS} ms`);
    await delay(20);
  }
  return JSON.parse(readFileSync(path, "utf8")) as unknown;
}

async function pluginStatus(driver: StreamDriver, plugin: string): Promise<{ readonly transport: string; readonly refusedAnswers: bigint }> {
  const admin = createClient(pb.HookAdmin, driver.target);
  try {
    const { plugins } = await admin.listPlugins({}, { timeoutMs: 10_000 });
    const found = plugins.find((p) => p.name === plugin);
    if (found === undefined) throw new Error(`ListPlugins does not list ${plugin}`);
    return { transport: found.transport, refusedAnswers: found.refusedAnswers };
  } finally {
    closeClient(admin);
  }
}

/** Registers the rows in the flavour's describe block. */
export function streamContractRows(options: StreamContractOptions): void {
  const { lang, plugin } = options;

  it("stream: two calls in flight, answered in the reverse order, each get their own answer", async () => {
    const driver = options.driver("fail-closed");
    const pair = nextPair();
    const slow = driver.session();
    const fast = driver.session();
    // Sent slow first; the plugin answers fast only once slow is in flight, and slow only after fast.
    const slowAnswer = approval(driver, slow, { scenario: "slow", pair });
    const fastAnswer = approval(driver, fast, { scenario: "fast", pair });
    expect(await Promise.all([observe(driver, slow, slowAnswer), observe(driver, fast, fastAnswer)])).toEqual([
      answeredBy(plugin, { kind: "reject", reason: `conformance: slow, answered after fast by ${lang}` }),
      answeredBy(plugin, { kind: "reject", reason: `conformance: fast, answered before slow by ${lang}` }),
    ]);
  });

  it("stream: the agent's cancel reaches the plugin as a cancel frame, and the agent gets CANCELLED", async () => {
    const driver = options.driver("fail-closed");
    const session = driver.session();
    const controller = new AbortController();
    const pending = approval(driver, session, { scenario: "await-cancel" }, { signal: controller.signal });
    const base = { point: "approval", sessionId: session.sessionId, agentId: session.agentId, parentSessionId: "", agentType: "" };
    expect(await recorded(driver, "received", session)).toEqual(base);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: status.CANCELLED });
    // "cancelled", not "deadline": the plugin saw the daemon give up on the call long before its deadline.
    expect(await recorded(driver, "cancel", session)).toEqual({ ...base, reason: "cancelled" });
    expect(await driver.untilAnswering(plugin)).toBe(1);
  });

  // An SDK answers every call once and owns its stream's lifetime: neither row can be written
  // with one, so they hold the daemon's side against the raw plugin alone.
  if (options.style !== "raw") return;

  it("stream: a call answered twice: the first answer counts, the second is refused and counted, and the stream goes on", async () => {
    const driver = options.driver("fail-closed");
    const before = await pluginStatus(driver, plugin);
    const twice = driver.session();
    expect(await observe(driver, twice, approval(driver, twice, { scenario: "answer-twice" }))).toEqual(answeredBy(plugin, { kind: "reject", reason: `conformance: first answer by ${lang}` }));
    // The next call's answer follows the refused one on the same stream: once it is here, the
    // refusal has been counted.
    const next = driver.session();
    expect(await observe(driver, next, approval(driver, next, { scenario: "approve" }))).toEqual(answeredBy(plugin, { kind: "approve" }));
    options.refusedOnPurpose("fail-closed");
    const after = await pluginStatus(driver, plugin);
    expect({ transport: after.transport, refused: after.refusedAnswers - before.refusedAnswers }).toEqual({ transport: "stream", refused: 1n });
  });

  it("stream: the plugin ends its stream: the calls in flight fail as unavailable under the failure policy, and a call after that is answered", async () => {
    const driver = options.driver("fail-closed");
    const pair = nextPair();
    const held = driver.session();
    const ending = driver.session();
    // end-stream ends the stream once the held call is in flight: both are on it when it ends.
    const heldAnswer = approval(driver, held, { scenario: "hang", pair });
    const endingAnswer = approval(driver, ending, { scenario: "end-stream", pair });
    const failed = { decision: { kind: "reject", reason: someText }, decidedBy: plugin, failureCause: "unavailable", invocations: [{ plugin, outcome: "fault", cause: "unavailable" }] };
    expect(await Promise.all([observe(driver, held, heldAnswer), observe(driver, ending, endingAnswer)])).toEqual([failed, failed]);
    // docs/streams.md: a call made during the backoff goes unary, a later one reopens the
    // stream; either way the plugin answers it, and the daemon keeps preferring the stream.
    const later = driver.session();
    expect(await observe(driver, later, approval(driver, later, { scenario: "approve" }))).toEqual(answeredBy(plugin, { kind: "approve" }));
    expect((await pluginStatus(driver, plugin)).transport).toBe("stream");
  });
}
