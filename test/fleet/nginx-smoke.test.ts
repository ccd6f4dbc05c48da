import { connectHost } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, type DaemonProcess } from "../support/daemon-process.js";
import { startNginx, type Nginx } from "./support/nginx.js";

let daemons: DaemonProcess[] = [];
let nginx: Nginx;
beforeAll(async () => {
  daemons = await Promise.all([startDaemon(), startDaemon()]);
  nginx = await startNginx({ upstreams: daemons.map((d) => d.socket) });
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all(daemons.map((d) => d.stop()));
});

describe("nginx in front of two daemons", () => {
  it("spreads evaluate calls over both", async () => {
    const client = connectHost(nginx.address, { agentId: "a", evaluateTransport: "unary" });
    const session = { sessionId: "s1", agentId: "", cwd: "/w", parentSessionId: "", agentType: "" };
    for (let i = 0; i < 6; i++) await client.evaluateAgentEvent({ session, dialect: "claude-code", eventName: "X", payload: {} });
    client.close();
    const upstreams = new Set((await nginx.accessLog()).map((line) => line.split(" ")[0]));
    expect(upstreams.size).toBe(2);
  });
});
