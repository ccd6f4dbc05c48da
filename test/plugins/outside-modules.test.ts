// Plugin modules outside the project, as deploy/hookd.yaml ships them (/etc/hookd/plugins/): in a
// fresh temporary directory with no node_modules anywhere above it, they import "@hookd/sdk" and
// one of its subpaths, and a real daemon loads them in-process and in its worker pool (the
// daemon's resolve hook, daemon/src/plugins/sdk-resolution.ts), and a reload (SIGHUP) after
// their files changed runs their new code (module-version.ts) while an unchanged one is kept.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, ToolCall } from "@hookd/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A plugin denying `tool` with `reason`; it also proves a subpath of the SDK resolves. */
const pluginSource = (name: string, tool: string, reason: string): string => `
import { definePlugin, deny, pass } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
if (typeof signalOf !== "function") throw new Error("@hookd/sdk/internal did not resolve");
export default definePlugin({
  name: ${JSON.stringify(name)},
  points: { "pre-tool": (event) => (event.call.toolName === ${JSON.stringify(tool)} ? deny(${JSON.stringify(reason)}) : pass()) },
});
`;

function call(toolName: string): ToolCall {
  const args = snapshotJson({ path: "/etc/passwd" });
  return { callId: `c-${toolName}`, rootCallId: `c-${toolName}`, toolName, arguments: args.value, argumentsJson: args.text, sessionId: "s1", turn: 1, step: 1 };
}

interface Setup {
  readonly daemon: DaemonProcess;
  readonly client: HostClient;
  readonly dir: string;
  readonly reasonFor: (tool: string) => Promise<string | undefined>;
}

async function daemonWithOutsidePlugins(): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), "hookd-etc-plugins-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (let up = dir; up !== dirname(up); up = dirname(up)) expect(existsSync(join(up, "node_modules"))).toBe(false);
  await writeFile(join(dir, "main.mjs"), pluginSource("main", "Main", "main thread v1"));
  await writeFile(join(dir, "isolated.mjs"), pluginSource("isolated", "Isolated", "worker v1"));
  await writeFile(join(dir, "steady.mjs"), pluginSource("steady", "Steady", "steady v1"));
  const plugins = [
    { name: "main", kind: "in-process", module: join(dir, "main.mjs"), required: true },
    { name: "isolated", kind: "worker", module: join(dir, "isolated.mjs"), required: true },
    { name: "steady", kind: "in-process", module: join(dir, "steady.mjs") },
  ];
  const daemon = await startDaemon({ config: { plugins } });
  const client = connectHost(daemon.target, { agentId: "ops" });
  cleanups.push(async () => {
    client.close();
    await daemon.stop();
  });
  const reasonFor = async (tool: string): Promise<string | undefined> => {
    const { decision } = await client.evaluatePreTool({ session: { sessionId: "s1", agentId: "ops", cwd: "/" }, call: call(tool) });
    return decision.kind === "deny" ? decision.reason : undefined;
  };
  return { daemon, client, dir, reasonFor };
}

describe("plugin modules outside the project", () => {
  it("resolve @hookd/sdk to the daemon's copy, in-process and in a worker", async () => {
    const { reasonFor } = await daemonWithOutsidePlugins();
    expect(await reasonFor("Main")).toBe("main thread v1");
    expect(await reasonFor("Isolated")).toBe("worker v1");
    expect(await reasonFor("Other")).toBeUndefined();
  });

  it("run their changed code after a reload, and keep an unchanged one", async () => {
    const { daemon, dir, reasonFor } = await daemonWithOutsidePlugins();
    expect(await reasonFor("Main")).toBe("main thread v1");
    expect(await reasonFor("Isolated")).toBe("worker v1");
    await writeFile(join(dir, "main.mjs"), pluginSource("main", "Main", "main thread v2"));
    await writeFile(join(dir, "isolated.mjs"), pluginSource("isolated", "Isolated", "worker v2"));
    daemon.child.kill("SIGHUP");
    const reloaded = await daemon.waitForLog((line) => line.msg === "config reloaded");
    expect(reloaded).toMatchObject({ kept: ["steady"], loaded: ["main", "isolated"], retired: ["main", "isolated"] });
    const changed = daemon.logs.filter((line) => line.msg.startsWith("plugin module changed on disk")).map((line) => line.plugin);
    expect(changed).toEqual(["main", "isolated"]);
    expect(await reasonFor("Main")).toBe("main thread v2");
    expect(await reasonFor("Isolated")).toBe("worker v2");
    expect(await reasonFor("Steady")).toBe("steady v1");
  });
});
