// A global limit per agent across instances, done where all traffic passes: nginx's limit_req
// keyed on the x-hookd-agent header the SDK sends (docs/fleet.md), in front of two instances.
// Over the limit nginx answers RESOURCE_EXHAUSTED itself, the call never reaches hookd; another
// agent has its own allowance. 1 call a minute with a burst of 2: 3 calls pass, on any machine load.
import { status } from "@grpc/grpc-js";
import { connectHost } from "@hookd/sdk";
import type { SessionInfo } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, type DaemonProcess } from "../support/daemon-process.js";
import { startNginx, type Nginx } from "./support/nginx.js";

let daemons: DaemonProcess[] = [];
let nginx: Nginx;
beforeAll(async () => {
  daemons = await Promise.all([startDaemon(), startDaemon()]);
  nginx = await startNginx({ upstreams: daemons.map((d) => d.socket), rateLimit: { rate: "1r/m", burst: 2 } });
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all(daemons.map((d) => d.stop()));
});

const session: SessionInfo = { sessionId: "s", agentId: "", cwd: "/w", parentSessionId: "", agentType: "" };

async function attempt(agentId: string, calls: number): Promise<(number | "ok")[]> {
  // Retries off: each call is one request to nginx, so the limit's count is the calls'.
  const client = connectHost(nginx.address, { agentId, evaluateTransport: "unary", evaluateRetry: false });
  const outcomes: (number | "ok")[] = [];
  try {
    for (let i = 0; i < calls; i++) {
      try {
        await client.evaluateAgentEvent({ session, dialect: "claude-code", eventName: `E${i}`, payload: {} }, { timeoutMs: 20_000 });
        outcomes.push("ok");
      } catch (error) {
        outcomes.push((error as { code?: number }).code ?? -1);
        expect(String((error as Error).message)).toContain("rate limited by the balancer");
      }
    }
  } finally {
    client.close();
  }
  return outcomes;
}

describe("a global per-agent limit in nginx", () => {
  it("refuses an agent's calls over the limit with RESOURCE_EXHAUSTED, whichever instance would have served them", async () => {
    const E = status.RESOURCE_EXHAUSTED;
    expect(await attempt("agent-a", 6)).toEqual(["ok", "ok", "ok", E, E, E]);
    expect(await attempt("agent-b", 4)).toEqual(["ok", "ok", "ok", E]);
    // The refused calls never reached hookd: nginx logged them with no upstream.
    const served = (await nginx.accessLog()).filter((line) => !line.startsWith("- "));
    expect(served).toHaveLength(6);
    expect(new Set(served.map((line) => line.split(" ")[0])).size).toBe(2);
  });
});
