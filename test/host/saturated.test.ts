// A daemon saturated from outside: a load generator in its own process floods it with evaluate
// calls from two agents (a real managed plugin process answers them) and fills its listener with
// connections that never send a byte. A new client still gets its HTTP/2 handshake and its health
// check answered SERVING, its evaluate is answered or refused RESOURCE_EXHAUSTED (never
// UNAVAILABLE), and the flood itself sees no UNAVAILABLE from the live daemon.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import { afterEach, describe, expect, it } from "vitest";
import { REPO, cleanEnv, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const GENERATOR = join(REPO, "test/support/overload-generator.mjs");
const MANAGED = join(REPO, "test/fixtures/plugins/managed-plugin.mjs");
const SERVING = 1;

let daemon: DaemonProcess | undefined;
let generator: ChildProcess | undefined;

afterEach(async () => {
  generator?.kill("SIGKILL");
  generator = undefined;
  await daemon?.stop();
  daemon = undefined;
});

/** Starts the generator; resolves once it says "ready", with a function that stops it and returns its tallies. */
async function startGenerator(options: Record<string, unknown>): Promise<() => Promise<Record<string, number>>> {
  const child = spawn(process.execPath, [GENERATOR, JSON.stringify(options)], { cwd: REPO, env: cleanEnv(), stdio: ["ignore", "pipe", "inherit"] });
  generator = child;
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the generator was not ready in time: ${out}`)), 30_000);
    child.stdout?.on("data", () => {
      if (!out.includes("ready\n")) return;
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => reject(new Error(`the generator exited (${code}): ${out}`)));
  });
  return async () => {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    await exited;
    return JSON.parse(out.split("\n").filter((line) => line.startsWith("{")).pop() ?? "{}") as Record<string, number>;
  };
}

describe("a saturated daemon", () => {
  it("answers a new client's handshake and health check, and refuses calls rather than connections", async () => {
    daemon = await startDaemon({
      config: {
        plugins: [{ name: "fixture", kind: "managed", command: process.execPath, args: [MANAGED], required: true }],
        // Half-open connections outnumber the listener's places and stay for the whole test.
        limits: { maxConnectionsPerListener: 32, handshakeTimeoutMs: 120_000 },
      },
    });
    const stop = await startGenerator({ socket: daemon.socket, agents: 2, inflight: 64, halfOpen: 40 });

    const health = createClient(pb.health.Health, daemon.target);
    const host = createClient(pb.HookHost, daemon.target);
    try {
      expect((await health.check({ service: "" }, { timeoutMs: 20_000 })).status).toBe(SERVING);
      const answer = await host
        .evaluatePreTool(
          {
            event: {
              session: { sessionId: "new-s", agentId: "newcomer", cwd: "/" },
              call: { callId: "n-1", rootCallId: "n-1", toolName: "Bash", argumentsJson: '{"command":"ls"}', sessionId: "new-s", turn: 1, step: 1 },
            },
          },
          { metadata: { "x-hookd-agent": "newcomer" }, timeoutMs: 20_000 },
        )
        .then(
          (response) => response.decision?.decision.case ?? "none",
          (error: unknown) => (error instanceof StatusError ? error.codeName : String(error)),
        );
      expect(["allow", "RESOURCE_EXHAUSTED"]).toContain(answer);
    } finally {
      closeClient(health);
      closeClient(host);
    }
    const tallies = await stop();
    expect(tallies.ok).toBeGreaterThan(0);
    expect({ unavailable: tallies.unavailable, other: tallies.other }).toEqual({ unavailable: 0, other: 0 });
    expect(daemon.child.exitCode).toBeNull();
  });
});
