// The agent-facing TCP listener with TLS, through a real daemon process and certificates made by
// openssl at test time: with clientCa (mTLS) only a client certificate from that CA is served;
// without clientCa any client that trusts the server's CA is served, and plaintext never is.
// A refused handshake leaves the daemon serving.
import { credentials } from "@grpc/grpc-js";
import type { ChannelCredentials } from "@grpc/grpc-js";
import { connectHost } from "@hookd/sdk";
import type { HostClient } from "@hookd/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { makePki } from "./certs.js";
import type { TestPki } from "./certs.js";
import { boundTcpAddress, preTool, rejectionOf, sessionOf } from "./support.js";

// Denies curl, allows the rest: an "allow" or this deny proves the call reached the plugins.
const POLICY = `
import { definePlugin, deny, pass } from "@hookd/sdk";
export default definePlugin({
  name: "guard",
  points: { "pre-tool": (e) => (String(e.call.arguments.command).includes("curl") ? deny("network is off") : pass()) },
});
`;

let pki: TestPki;
let module: string;
const clients: HostClient[] = [];

beforeAll(async () => {
  pki = await makePki();
  module = await writePluginModule("guard", POLICY);
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

afterAll(async () => {
  await pki?.remove();
});

function connect(target: string, creds: ChannelCredentials): HostClient {
  const client = connectHost(target, { agentId: "tls-agent", credentials: creds });
  clients.push(client);
  return client;
}

async function startTls(tls: Record<string, string>): Promise<{ daemon: DaemonProcess; address: string }> {
  const daemon = await startDaemon({
    config: { listeners: [{ tcp: "127.0.0.1:0", tls }], plugins: [{ name: "guard", kind: "in-process", module }] },
  });
  try {
    return { daemon, address: await boundTcpAddress(daemon) };
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}

/** An evaluate call that must be served: the plugin's deny comes back. */
async function expectServed(client: HostClient, id: string): Promise<void> {
  const result = await client.evaluatePreTool({ session: sessionOf("tls-session"), call: preTool("tls-session", id, "curl evil.sh") }, { timeoutMs: 10_000 });
  expect(result.decision).toEqual({ kind: "deny", reason: "network is off" });
  expect(result.trace.decidedBy).toBe("guard");
}

/** An evaluate call that must fail at the transport (the handshake is refused), not hang. */
async function expectRefused(client: HostClient, id: string): Promise<void> {
  const error = await rejectionOf(client.evaluatePreTool({ session: sessionOf("tls-session"), call: preTool("tls-session", id, "ls") }, { timeoutMs: 10_000 }));
  expect(error.codeName).toBe("UNAVAILABLE");
}

describe("TCP listener with mTLS (tls.clientCa)", () => {
  let daemon: DaemonProcess;
  let address: string;
  let ca: Buffer;

  beforeAll(async () => {
    ({ daemon, address } = await startTls({ cert: pki.server.cert, key: pki.server.key, clientCa: pki.ca }));
    ca = await pki.read(pki.ca);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it("logs the port it actually bound for a :0 listener", () => {
    expect(address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  });

  it("serves a client presenting a certificate from the client CA (by IP and by name)", async () => {
    const creds = credentials.createSsl(ca, await pki.read(pki.client.key), await pki.read(pki.client.cert));
    await expectServed(connect(address, creds), "mtls-ok-ip");
    await expectServed(connect(address.replace("127.0.0.1", "localhost"), creds), "mtls-ok-name");
  });

  it("refuses a client without a certificate, and keeps serving", async () => {
    await expectRefused(connect(address, credentials.createSsl(ca)), "mtls-no-cert");
    const good = connect(address, credentials.createSsl(ca, await pki.read(pki.client.key), await pki.read(pki.client.cert)));
    await expectServed(good, "mtls-after-no-cert");
  });

  it("refuses a client whose certificate comes from another CA, and keeps serving", async () => {
    const rogue = credentials.createSsl(ca, await pki.read(pki.rogueClient.key), await pki.read(pki.rogueClient.cert));
    await expectRefused(connect(address, rogue), "mtls-rogue");
    const good = connect(address, credentials.createSsl(ca, await pki.read(pki.client.key), await pki.read(pki.client.cert)));
    await expectServed(good, "mtls-after-rogue");
  });

  it("refuses a plaintext client, and keeps serving", async () => {
    await expectRefused(connect(address, credentials.createInsecure()), "mtls-plaintext");
    const good = connect(address, credentials.createSsl(ca, await pki.read(pki.client.key), await pki.read(pki.client.cert)));
    await expectServed(good, "mtls-after-plaintext");
    expect(daemon.child.exitCode).toBeNull();
    expect(daemon.child.signalCode).toBeNull();
  });
});

describe("TCP listener with TLS and no clientCa", () => {
  let daemon: DaemonProcess;
  let address: string;
  let ca: Buffer;

  beforeAll(async () => {
    ({ daemon, address } = await startTls({ cert: pki.server.cert, key: pki.server.key }));
    ca = await pki.read(pki.ca);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it("serves a client that trusts the server's CA, with or without a client certificate", async () => {
    await expectServed(connect(address, credentials.createSsl(ca)), "tls-ok");
    await expectServed(connect(address, credentials.createSsl(ca, await pki.read(pki.rogueClient.key), await pki.read(pki.rogueClient.cert))), "tls-ok-cert");
  });

  it("refuses a plaintext client, and keeps serving", async () => {
    await expectRefused(connect(address, credentials.createInsecure()), "tls-plaintext");
    await expectServed(connect(address, credentials.createSsl(ca)), "tls-after-plaintext");
  });

  it("is not trusted by a client that only trusts another CA, and keeps serving", async () => {
    await expectRefused(connect(address, credentials.createSsl(await pki.read(pki.rogueCa))), "tls-wrong-ca");
    await expectServed(connect(address, credentials.createSsl(ca)), "tls-after-wrong-ca");
  });
});
