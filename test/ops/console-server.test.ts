// The console server without a browser: a real HTTP server on loopback fed by a real audit trail.
// The token file, a missing page bundle, the replay of recent records after a reconnect (with
// the gap it could not cover), a page that stops reading being cut off rather than buffered, and
// a fail-open decision reaching the page with the cause of the failure it passed over.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConsoleServer } from "../../daemon/src/console/server.js";
import type { ConsoleOptions, ConsoleServer } from "../../daemon/src/console/server.js";
import { MAX_UNSENT_BYTES, RECENT_RECORDS } from "../../daemon/src/console/stream.js";
import { snapshotJson } from "@hookd/sdk";
import { EventBus } from "../../daemon/src/engine/events.js";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { listener } from "../../daemon/test/fixtures/listeners.js";
import { evaluateServiceOver } from "../../daemon/test/support/evaluate-service.js";
import { silentLogger } from "../../daemon/src/log.js";
import { AuditTrail } from "../../daemon/src/ops/audit.js";
import { EngineMetrics } from "../../daemon/src/ops/metrics.js";
import { CLI } from "./support.js";

const TOKEN = "server-test-token-0123456789";
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookd-console-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(overrides: Partial<ConsoleOptions> = {}): Promise<{ server: ConsoleServer; audit: AuditTrail }> {
  const audit = new AuditTrail(undefined, silentLogger);
  const server = await startConsoleServer({
    listen: "127.0.0.1:0",
    token: TOKEN,
    audit,
    log: silentLogger,
    metrics: new EngineMetrics(),
    registry: () => PluginRegistry.EMPTY,
    plugins: () => [],
    status: () => ({ version: "test", startedAt: 0, agentsConnected: 0, sessionsOpen: 0, listeners: [], configPath: undefined, configGeneration: 0, instanceId: "test-1", configVersion: "0123456789ab" }),
    // The bundle `npm run build` made beside the built CLI the ops tests run.
    assetDir: join(CLI, "../console-ui"),
    ...overrides,
  });
  cleanups.push(() => server.close(), () => audit.close());
  return { server, audit };
}

/** Writes one decision record with a reason of `reasonBytes` bytes through the audit trail. */
function publish(audit: AuditTrail, sessionId: string, reasonBytes = 8): void {
  audit.observe({ type: "decision", scope: { sessionId, agentId: "a", turn: 1, step: 1 }, point: "pre-tool", decision: "deny", decidedBy: "p", reason: "r".repeat(reasonBytes), durationUs: 5 });
}

/** Reads an SSE response until `done(text)` holds. */
async function readEvents(url: string, headers: Record<string, string>, done: (text: string) => boolean): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (done(text)) break;
  }
  controller.abort();
  return text;
}

describe("console server", () => {
  it("takes its token from tokenFile, and refuses a token file too short to be a secret", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "token"), `${TOKEN}\n`);
    const { server } = await start({ token: undefined, tokenFile: join(dir, "token") });
    expect((await fetch(`http://${server.address}/api/snapshot`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await fetch(`http://${server.address}/api/snapshot`)).status).toBe(401);
    writeFileSync(join(dir, "short"), "short\n");
    await expect(start({ token: undefined, tokenFile: join(dir, "short") })).rejects.toThrow(/console\.tokenFile: a console token of at least 16 characters/);
  });

  it("refuses to start without the built page, naming the build step", async () => {
    await expect(start({ assetDir: tempDir() })).rejects.toThrow(/the page is not built .*npm run build/);
  });

  it("replays what a reconnecting page missed from the recent records, and says what it could not", async () => {
    const { server, audit } = await start();
    const extra = 5;
    for (let i = 1; i <= RECENT_RECORDS + extra; i++) publish(audit, `s${i}`);
    const last = RECENT_RECORDS + extra;
    const text = await readEvents(`http://${server.address}/api/events`, { authorization: `Bearer ${TOKEN}`, "last-event-id": "1" }, (t) => t.includes(`id: ${last}\n`));
    // Kept: records extra+1 .. last; the page saw 1, so 2 .. extra were lost.
    expect(text).toMatch(new RegExp(`^event: gap\ndata: ${extra - 1}\n\n`));
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: RECENT_RECORDS }, (_, i) => extra + 1 + i));
  });

  it("shows a fail-open decision with the cause of the failure it passed over", async () => {
    const { server, audit } = await start();
    const bus = new EventBus();
    bus.subscribe(audit.observe);
    // A wire plugin under fail-open that answers garbage: its call faults and counts as a pass.
    const down = { ...listener("pre-tool", "down", () => undefined, { kind: "remote", failurePolicy: "fail-open" }), call: async () => ({ kind: "bogus" }) };
    const { evaluate } = evaluateServiceOver(new PluginRegistry([down]), { bus });
    const args = snapshotJson({});
    const call = { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s1", turn: 1, step: 1 };
    await evaluate.evaluate("pre-tool", { session: { sessionId: "s1", agentId: "a", cwd: "/" }, call }, { signal: new AbortController().signal });
    const text = await readEvents(`http://${server.address}/api/events`, { authorization: `Bearer ${TOKEN}` }, (t) => t.includes('"kind":"decision"'));
    const records = [...text.matchAll(/^data: (\{.*\})$/gm)].map((m) => JSON.parse(m[1] ?? "{}") as Record<string, unknown>);
    // The page's decision table shows each record's cause in a column of its own.
    expect(records.find((r) => r.kind === "decision")).toMatchObject({ point: "pre-tool", plugin: "default", decision: "allow", cause: "invalid_answer" });
  });

  it("ends the stream of a page that stops reading instead of buffering without bound", async () => {
    const { server, audit } = await start();
    const [host, port] = [server.address.slice(0, server.address.lastIndexOf(":")), Number(server.address.slice(server.address.lastIndexOf(":") + 1))];
    const socket = connect({ host, port });
    cleanups.push(() => socket.destroy());
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(`GET /api/events HTTP/1.1\r\nhost: ${server.address}\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`);
    // The response has started once its headers arrive; then the page stops reading.
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.pause();
    const recordBytes = 64 * 1024;
    const published = 4 * Math.ceil(MAX_UNSENT_BYTES / recordBytes) + 64;
    for (let i = 0; i < published; i++) publish(audit, `big${i}`, recordBytes);
    // Reading again: what arrives is the start of the stream, then its end (the last chunk of a chunked body).
    let received = 0;
    let tail = "";
    socket.resume();
    await new Promise<void>((resolve) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
        tail = (tail + chunk.toString("latin1")).slice(-16);
        if (tail.endsWith("\r\n0\r\n\r\n")) resolve();
      });
    });
    expect(received).toBeLessThan(published * recordBytes);
  });
});
