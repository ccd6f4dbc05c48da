// A remote plugin reached over TLS and mTLS (servePlugin with server credentials; the daemon's
// remote target with tls.ca, tls.cert/key, tls.serverName), through a real daemon process and
// certificates made by openssl at test time. A plugin the daemon cannot authenticate, or one that
// refuses the daemon's client certificate, is unavailable: its failure policy decides.
import { ServerCredentials } from "@grpc/grpc-js";
import { allow, connectHost, definePlugin, deny, servePlugin } from "@hookd/sdk";
import type { HostClient, PluginServer } from "@hookd/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess, LogLine } from "../support/daemon-process.js";
import { makePki } from "./certs.js";
import type { CertPair, TestPki } from "./certs.js";
import { preTool, sessionOf } from "./support.js";

// Denies with a reason only the plugin itself can produce; allows the rest.
const commandOf = (args: unknown): string =>
  typeof args === "object" && args !== null && "command" in args && typeof args.command === "string" ? args.command : "";
const guard = definePlugin({
  name: "tls-guard",
  points: { "pre-tool": (e) => (commandOf(e.call.arguments).startsWith("rm") ? deny(`plugin saw ${commandOf(e.call.arguments)}`) : allow()) },
});

let pki: TestPki;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  pki = await makePki();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await pki?.remove();
});

/** Serves the guard on 127.0.0.1:<free port> with `server`'s certificate; `clientCa` makes it require client certificates. */
async function tlsPlugin(server: CertPair, clientCa?: string): Promise<PluginServer> {
  const creds = ServerCredentials.createSsl(
    clientCa === undefined ? null : await pki.read(clientCa),
    [{ cert_chain: await pki.read(server.cert), private_key: await pki.read(server.key) }],
    clientCa !== undefined,
  );
  const plugin = await servePlugin(guard, { address: "127.0.0.1:0", credentials: creds, onError: () => {} });
  cleanups.push(() => plugin.close());
  expect(plugin.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  return plugin;
}

async function daemonWith(name: string, target: string, tls: Record<string, string> | undefined): Promise<{ daemon: DaemonProcess; client: HostClient }> {
  const daemon = await startDaemon({
    config: {
      plugins: [
        {
          name,
          kind: "remote",
          target,
          ...(tls === undefined ? {} : { tls }),
          // Named here so the point is subscribed even when the plugin is never described.
          points: { "pre-tool": { failurePolicy: "fail-closed", deadlineMs: 2_000 } },
          health: { initialBackoffMs: 100, maxBackoffMs: 1_000 },
        },
      ],
    },
  });
  const client = connectHost(daemon.target, { agentId: "tls-tester" });
  cleanups.push(async () => {
    client.close();
    await daemon.stop(); // before the plugin closes (cleanups run in reverse)
  });
  return { daemon, client };
}

const pluginLog = (name: string, msg: string) => (line: LogLine) => line.msg === msg && line["plugin"] === name;

/** The plugin, once described over the secured channel, decides (both ways). */
async function expectDecides(daemon: DaemonProcess, client: HostClient, name: string): Promise<void> {
  await daemon.waitForLog(pluginLog(name, "plugin described"));
  const denied = await client.evaluatePreTool({ session: sessionOf("r1"), call: preTool("r1", "c1", "rm -rf /") });
  expect(denied.decision).toEqual({ kind: "deny", reason: "plugin saw rm -rf /" });
  expect(denied.trace).toMatchObject({ decidedBy: name });
  expect(denied.trace.failureCause).toBeUndefined();
  const allowed = await client.evaluatePreTool({ session: sessionOf("r1"), call: preTool("r1", "c2", "ls") });
  expect(allowed.decision).toEqual({ kind: "allow" });
  expect(allowed.trace).toMatchObject({ decidedBy: name });
  expect(allowed.trace.failureCause).toBeUndefined();
}

/**
 * The daemon tried the plugin and could not establish the channel; then its fail-closed policy
 * answers ("ls", which the plugin would allow, is denied) with failureCause "unavailable".
 */
async function expectUnavailable(daemon: DaemonProcess, client: HostClient, name: string): Promise<LogLine> {
  // Whichever comes first: a refused channel, or (wrongly) a described plugin.
  const change = await daemon.waitForLog(
    (line) => pluginLog(name, "plugin described")(line) || (pluginLog(name, "plugin health changed")(line) && line["health"] === "unavailable"),
  );
  expect(change.msg).toBe("plugin health changed");
  expect(daemon.logs.some(pluginLog(name, "plugin described"))).toBe(false);
  for (const callId of ["c1", "c2"]) {
    const result = await client.evaluatePreTool({ session: sessionOf("r2"), call: preTool("r2", callId, "ls") });
    expect(result.decision.kind).toBe("deny");
    expect(result.trace).toMatchObject({ decidedBy: name, failureCause: "unavailable" });
  }
  expect(daemon.child.exitCode).toBeNull();
  return change;
}

describe("remote plugin over TLS", () => {
  it("decides through a TLS channel verified with tls.ca", async () => {
    const plugin = await tlsPlugin(pki.server);
    const { daemon, client } = await daemonWith("tls-plugin", plugin.address, { ca: pki.ca });
    await expectDecides(daemon, client, "tls-plugin");
  });

  it("decides through a TLS channel reached by name (localhost)", async () => {
    const plugin = await tlsPlugin(pki.server);
    const { daemon, client } = await daemonWith("tls-by-name", plugin.address.replace("127.0.0.1", "localhost"), { ca: pki.ca });
    await expectDecides(daemon, client, "tls-by-name");
  });

  it("treats a plugin whose certificate comes from an untrusted CA as unavailable", async () => {
    const plugin = await tlsPlugin(pki.rogueServer);
    const { daemon, client } = await daemonWith("rogue-plugin", plugin.address, { ca: pki.ca });
    const change = await expectUnavailable(daemon, client, "rogue-plugin");
    expect(String(change["reason"])).toMatch(/certificate|issuer|verify|handshake|ssl|tls/i);
  });

  it("treats a TLS plugin as unavailable when the daemon is configured for plaintext", async () => {
    const plugin = await tlsPlugin(pki.server);
    const { daemon, client } = await daemonWith("plaintext-to-tls", plugin.address, undefined);
    await expectUnavailable(daemon, client, "plaintext-to-tls");
  });
});

describe("remote plugin over mTLS", () => {
  it("decides when the daemon presents tls.cert/key from the plugin's client CA (with serverName)", async () => {
    const plugin = await tlsPlugin(pki.server, pki.ca);
    const { daemon, client } = await daemonWith("mtls-plugin", plugin.address, { ca: pki.ca, cert: pki.client.cert, key: pki.client.key, serverName: "localhost" });
    await expectDecides(daemon, client, "mtls-plugin");
  });

  it("is unavailable when the daemon presents no client certificate", async () => {
    const plugin = await tlsPlugin(pki.server, pki.ca);
    const { daemon, client } = await daemonWith("mtls-no-cert", plugin.address, { ca: pki.ca });
    await expectUnavailable(daemon, client, "mtls-no-cert");
  });

  it("is unavailable when the daemon's client certificate comes from another CA", async () => {
    const plugin = await tlsPlugin(pki.server, pki.ca);
    const { daemon, client } = await daemonWith("mtls-rogue-client", plugin.address, { ca: pki.ca, cert: pki.rogueClient.cert, key: pki.rogueClient.key });
    await expectUnavailable(daemon, client, "mtls-rogue-client");
  });

  it("is unavailable when serverName names a host the plugin's certificate does not cover", async () => {
    const plugin = await tlsPlugin(pki.server, pki.ca);
    const { daemon, client } = await daemonWith("mtls-wrong-name", plugin.address, { ca: pki.ca, cert: pki.client.cert, key: pki.client.key, serverName: "plugin.example" });
    await expectUnavailable(daemon, client, "mtls-wrong-name");
  });
});
