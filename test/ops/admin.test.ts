// HookAdmin and the operator commands against a real daemon: status, plugins, reload, the admin
// service limited to its own socket, server reflection and health through `buf curl`, and
// `hookd check` on good and bad configs.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, Workdir, adminClient, closeClient, pluginEntry, runCli, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

const DAEMON_VERSION = (JSON.parse(readFileSync(join(ROOT, "daemon/package.json"), "utf8")) as { version: string }).version;

const run = promisify(execFile);
const BUF = join(ROOT, "node_modules/.bin/buf");

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work?.cleanup();
  work = undefined;
});

async function bufCurl(socket: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(BUF, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", "--unix-socket", socket, ...args], { timeout: 30_000 });
  return stdout;
}

describe("HookAdmin and the operator commands", () => {
  it("status, plugins and reload work through --socket and HOOKD_SOCKET", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    const config = work.writeConfig({ listeners: [{ unix: socket }], plugins: [pluginEntry("policy")] });
    daemon = await startDaemon({ configFile: config, awaitServing: false });
    await daemon.waitLog("hookd ready");

    const status = await runCli(["status", "--socket", socket]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`version\\s+${DAEMON_VERSION.replaceAll(".", "\\.")}`));
    expect(status.stdout).toContain(`pid                ${daemon.child.pid}`);
    expect(status.stdout).toContain(`unix://${socket}`);
    expect(status.stdout).toContain(config);
    expect(status.stdout).toMatch(/config generation\s+0/);

    const plugins = await runCli(["plugins"], { HOOKD_SOCKET: socket });
    expect(plugins.code).toBe(0);
    expect(plugins.stdout).toMatch(/^PLUGIN\s+KIND\s+HEALTH\s+CALLS\s+FAILURES\s+P50\s+P99\s+RESTARTS\s+POINTS\s+TARGET/);
    expect(plugins.stdout).toMatch(/policy\s+in-process\s+serving\s+0\s+0\s+0µs\s+0µs\s+0\s+pre-tool/);

    work.writeConfig({ listeners: [{ unix: socket }], plugins: [pluginEntry("policy"), pluginEntry("tagger")] });
    const reload = await runCli(["reload", "--socket", socket]);
    expect(reload.stdout).toBe("config reloaded (generation 1)\n");
    expect(reload.code).toBe(0);
    expect((await runCli(["plugins", "--socket", socket])).stdout).toMatch(/tagger\s+in-process\s+serving/);

    work.writeConfig({ listeners: [{ unix: socket }], plugins: [{ name: "broken", kind: "remote" }] });
    const refused = await runCli(["reload", "--socket", socket]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("reload refused");
    expect(refused.stderr).toContain("plugins[0].target");
    expect((await runCli(["status", "--socket", socket])).stdout).toMatch(/config generation\s+1/);
  });

  it("serves HookAdmin only on its own socket when config.admin is set", async () => {
    work = new Workdir();
    const socket = work.file("agents.sock");
    const adminSocket = work.file("admin.sock");
    daemon = await startDaemon({ configFile: work.writeConfig({ listeners: [{ unix: socket }], admin: { unix: adminSocket }, plugins: [] }), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const onAdmin = adminClient(adminSocket);
    const onAgents = adminClient(socket);
    try {
      expect((await onAdmin.getStatus({}, { timeoutMs: 5_000 })).listeners).toEqual([`unix://${socket}`, `unix://${adminSocket}`]);
      await expect(onAgents.getStatus({}, { timeoutMs: 5_000 })).rejects.toMatchObject({ code: 12 }); // UNIMPLEMENTED
    } finally {
      closeClient(onAdmin);
      closeClient(onAgents);
    }
    const agentServices = await bufCurl(socket, "--list-services", "http://localhost");
    expect(agentServices).toContain("hookd.v1.HookHost");
    expect(agentServices).not.toContain("hookd.v1.HookAdmin");
    const adminServices = await bufCurl(adminSocket, "--list-services", "http://localhost");
    expect(adminServices).toContain("hookd.v1.HookAdmin");
    expect(adminServices).not.toContain("hookd.v1.HookHost");
  });

  it("answers server reflection with the real descriptors, so buf curl lists and calls services", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({ configFile: work.writeConfig({ listeners: [{ unix: socket }], plugins: [pluginEntry("policy")] }), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const methods = (await bufCurl(socket, "--list-methods", "http://localhost")).trim().split("\n");
    expect(methods).toEqual(
      expect.arrayContaining([
        "grpc.health.v1.Health/Check",
        "hookd.v1.HookAdmin/GetStatus",
        "hookd.v1.HookAdmin/TailAudit",
        "hookd.v1.HookHost/Session",
        "hookd.v1.HookHost/EvaluatePreTool",
      ]),
    );
    expect(JSON.parse(await bufCurl(socket, "http://localhost/grpc.health.v1.Health/Check"))).toEqual({ status: "SERVING" });
    expect(JSON.parse(await bufCurl(socket, "-d", '{"service":"hookd.v1.HookHost"}', "http://localhost/grpc.health.v1.Health/Check"))).toEqual({ status: "SERVING" });
    const denied = JSON.parse(
      await bufCurl(
        socket,
        "-d",
        JSON.stringify({ event: { session: { sessionId: "s", agentId: "curl" }, call: { callId: "c", rootCallId: "c", toolName: "Bash", argumentsJson: "{}", sessionId: "s", turn: 1, step: 1 } } }),
        "http://localhost/hookd.v1.HookHost/EvaluatePreTool",
      ),
    ) as { decision: { deny?: { reason: string } } };
    expect(denied.decision.deny?.reason).toBe("no bash");
  });
});

describe("hookd check", () => {
  it("reports every mistake of a config with its path and exits non-zero", async () => {
    work = new Workdir();
    const config = work.writeConfig(
      [
        "listeners: []",
        "plugins:",
        "  - name: far",
        "    kind: remote",
        "defaults:",
        "  deadlineMs: -5",
        "",
      ].join("\n"),
    );
    const { code, stderr } = await runCli(["check", "--config", config]);
    expect(code).toBe(1);
    expect(stderr).toContain("3 problems");
    expect(stderr).toContain("listeners: at least one listener");
    expect(stderr).toMatch(/plugins\[0\]\.target: /);
    expect(stderr).toMatch(/defaults\.deadlineMs: /);
  });

  it("loads each plugin and prints what runs at each point, in order", async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [pluginEntry("tagger", { points: { "pre-tool": { priority: 5 } } }), pluginEntry("policy", { points: { "pre-tool": { priority: -1, deadlineMs: 750 } } })],
    });
    const { code, stdout, stderr } = await runCli(["check", "--config", config]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/POINT\s+#\s+PLUGIN\s+KIND\s+PRIORITY\s+DEADLINE\s+ON FAILURE/);
    expect(stdout).toMatch(/pre-tool\s+1\s+policy\s+in-process\s+-1\s+750ms\s+fail-closed\n/);
    expect(stdout).toMatch(/pre-tool\s+2\s+tagger\s+in-process\s+5\s+2000ms\s+fail-closed\n/);
    expect(stdout).toContain("ok\n");
  });

  it("lists shadow plugins apart from the order they never join", async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [pluginEntry("tagger", { mode: "shadow", points: { "pre-tool": { priority: -5 } } }), pluginEntry("policy", { points: { "pre-tool": { priority: 1 } } })],
    });
    const { code, stdout, stderr } = await runCli(["check", "--config", config]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/pre-tool\s+1\s+policy\s+in-process\s+1\s+2000ms\s+fail-closed\n/);
    expect(stdout).toMatch(/pre-tool\s+shadow\s+tagger\s+in-process\s+-5\s+2000ms\s+contained\n/);
    expect(stdout).not.toMatch(/pre-tool\s+2\s+/);
  });

  it("names the plugins whose allow bypasses the agents' own permission rules", async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [pluginEntry("tagger", { bypassAgentPermissions: true }), pluginEntry("policy")],
    });
    const { code, stdout } = await runCli(["check", "--config", config]);
    expect(code).toBe(0);
    expect(stdout).toContain("bypassAgentPermissions (an allow skips the agent's own permission rules over its hooks): tagger\n");
    const none = await runCli(["check", "--config", work.writeConfig({ listeners: [{ unix: work.file("hookd.sock") }], plugins: [pluginEntry("policy")] })]);
    expect(none.stdout).not.toContain("bypassAgentPermissions");
  });

  it("fails when a plugin cannot be loaded, naming it", async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [pluginEntry("policy"), { name: "ghost", kind: "in-process", module: work.file("missing.mjs") }],
    });
    const { code, stderr } = await runCli(["check", "--config", config]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/plugins\[1\] \(ghost\): .*missing\.mjs/);
  });
});
