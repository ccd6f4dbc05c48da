// Retries of evaluate calls (sdk/src/agent/evaluate-retry.ts) against a fake HookHost on a
// temporary Unix socket that refuses a set number of times: RESOURCE_EXHAUSTED and UNAVAILABLE are
// tried again until answered, at most maxAttempts times; other statuses and `evaluateRetry: false`
// are not; a retry never starts past the call's deadline; a bad policy is refused at connect.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server, status } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { StatusError, connectHost } from "../src/index.js";
import type { ConnectOptions, HostClient, SessionInfo, ToolCall } from "../src/index.js";
import { addService, bindServer, pb } from "../src/internal.js";
import { withRetries } from "../src/agent/evaluate-retry.js";

const SESSION: SessionInfo = { sessionId: "s1", agentId: "agent-7", cwd: "/work" };
const CALL: ToolCall = { callId: "c1", rootCallId: "c1", toolName: "echo", arguments: {}, argumentsJson: "{}", sessionId: "s1", turn: 1, step: 1 };
const ALLOW = { decision: { decision: { case: "allow" as const, value: {} } }, trace: { decidedBy: "policy", failureCause: "", durationUs: 1n } };

let dir: string;
let server: Server;
let client: HostClient | undefined;
let attempts: number;

/** Serves a pre-tool that fails with `failures` in turn, then allows; connects a client with `options`. */
async function serve(failures: readonly StatusError[], options: ConnectOptions = {}): Promise<HostClient> {
  addService(server, pb.HookHost, {
    async evaluatePreTool() {
      const failure = failures[attempts++];
      if (failure !== undefined) throw failure;
      return ALLOW;
    },
  });
  const address = `unix://${join(dir, "host.sock")}`;
  await bindServer(server, address);
  client = connectHost(address, { evaluateTransport: "unary", ...options });
  return client;
}

const refused = (): StatusError => new StatusError(status.RESOURCE_EXHAUSTED, "hookd has 8 evaluate calls in flight, its adaptive limit of 8; retry later");

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-agent-retry-"));
  server = new Server();
  attempts = 0;
});

afterEach(async () => {
  client?.close();
  client = undefined;
  server.forceShutdown();
  await rm(dir, { recursive: true, force: true });
});

describe("evaluate retries", () => {
  test("a call refused RESOURCE_EXHAUSTED, then failed UNAVAILABLE, is tried again until answered", async () => {
    const host = await serve([refused(), new StatusError(status.UNAVAILABLE, "not now"), refused()]);
    await expect(host.evaluatePreTool({ session: SESSION, call: CALL })).resolves.toMatchObject({ decision: { kind: "allow" } });
    expect(attempts).toBe(4);
  });

  test("stops after maxAttempts and answers the last refusal", async () => {
    const host = await serve(Array.from({ length: 10 }, refused), { evaluateRetry: { maxAttempts: 3, initialBackoffMs: 1 } });
    await expect(host.evaluatePreTool({ session: SESSION, call: CALL })).rejects.toMatchObject({ codeName: "RESOURCE_EXHAUSTED", details: refused().details });
    expect(attempts).toBe(3);
  });

  test("does not retry other statuses, nor anything with evaluateRetry: false", async () => {
    const host = await serve([new StatusError(status.PERMISSION_DENIED, "not yours")]);
    await expect(host.evaluatePreTool({ session: SESSION, call: CALL })).rejects.toMatchObject({ codeName: "PERMISSION_DENIED" });
    expect(attempts).toBe(1);
    host.close();
    server.forceShutdown();
    server = new Server();
    attempts = 0;
    const off = await serve([refused()], { evaluateRetry: false });
    await expect(off.evaluatePreTool({ session: SESSION, call: CALL })).rejects.toMatchObject({ codeName: "RESOURCE_EXHAUSTED" });
    expect(attempts).toBe(1);
  });

  test("refuses a bad policy at connect", () => {
    expect(() => connectHost("unix:///tmp/none.sock", { evaluateRetry: { maxAttempts: 0 } })).toThrow("connectHost: evaluateRetry.maxAttempts must be an integer >= 1, got 0");
    expect(() => connectHost("unix:///tmp/none.sock", { evaluateRetry: { initialBackoffMs: -1 } })).toThrow("connectHost: evaluateRetry.initialBackoffMs must be an integer >= 0, got -1");
  });
});

describe("withRetries", () => {
  const policy = { maxAttempts: 10, initialBackoffMs: 1_000, maxBackoffMs: 1_000 };
  const refusing = (tried: { n: number; left: (number | undefined)[] }) => (options: { timeoutMs?: number | undefined }) => {
    tried.n++;
    tried.left.push(options.timeoutMs);
    return Promise.reject<never>(refused());
  };

  test("never starts a retry whose wait would pass the call's deadline", async () => {
    const tried = { n: 0, left: [] as (number | undefined)[] };
    // The wait drawn is 990 ms of a deadline of 500 ms: the refusal is the answer, at once.
    await expect(withRetries(policy, { timeoutMs: 500 }, refusing(tried), () => 0.99)).rejects.toMatchObject({ codeName: "RESOURCE_EXHAUSTED" });
    expect(tried.n).toBe(1);
  });

  test("gives each attempt what is left of the deadline", async () => {
    const tried = { n: 0, left: [] as (number | undefined)[] };
    await expect(withRetries({ ...policy, maxAttempts: 3 }, { timeoutMs: 60_000 }, refusing(tried), () => 0)).rejects.toMatchObject({ codeName: "RESOURCE_EXHAUSTED" });
    expect(tried.n).toBe(3);
    const [first = NaN, second = NaN, third = NaN] = tried.left as number[];
    expect(first).toBeLessThanOrEqual(60_000);
    expect(second).toBeLessThanOrEqual(first);
    expect(third).toBeLessThanOrEqual(second);
  });

  test("does not retry a call aborted meanwhile, and stops waiting when it is aborted during the wait", async () => {
    const aborted = new AbortController();
    let tries = 0;
    const abortingAttempt = (): Promise<never> => {
      tries++;
      queueMicrotask(() => aborted.abort());
      return Promise.reject(refused());
    };
    await expect(withRetries(policy, { signal: aborted.signal }, abortingAttempt, () => 0.99)).rejects.toMatchObject({ codeName: "RESOURCE_EXHAUSTED" });
    expect(tries).toBe(1);

    // Aborted once the refusal has been seen, during the 990 ms wait: the next attempt answers CANCELLED at once.
    const waiting = new AbortController();
    tries = 0;
    const attempt = (options: { signal?: AbortSignal | undefined }): Promise<never> => {
      tries++;
      if (options.signal?.aborted === true) return Promise.reject(new StatusError(status.CANCELLED, "the agent changed its mind"));
      setImmediate(() => waiting.abort());
      return Promise.reject(refused());
    };
    await expect(withRetries(policy, { signal: waiting.signal }, attempt, () => 0.99)).rejects.toMatchObject({ codeName: "CANCELLED" });
    expect(tries).toBe(2);
  });
});

