// @hookd/sdk/testing's startTestDaemon against real processes: a daemon that dies before serving
// and a plugin the daemon cannot start both fail the call with what the daemon said, and a
// hosted session runs through the returned client. (The happy path is what every example's test
// does: hooks-examples/typescript/test.)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, deny, pass } from "@hookd/sdk";
import { events, startTestDaemon } from "@hookd/sdk/testing";
import { CLI } from "../support/daemon-process.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const plugin = definePlugin({ name: "harnessed", points: { "pre-tool": (e) => (e.call.toolName === "Bash" ? deny("no shell") : pass()) } });

describe("startTestDaemon", () => {
  it("reports a daemon that exits before serving, with its output", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-harness-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const fake = join(dir, "fake-hookd.mjs");
    await writeFile(fake, 'process.stderr.write("config: listeners[0]: boom\\n"); process.exit(3);\n');
    await expect(startTestDaemon(plugin, { daemon: fake })).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/hookd exited \(3\) before serving[\s\S]*listeners\[0\]: boom/) as unknown,
    });
  });

  it("reports a managed plugin the daemon cannot start (it is required)", async () => {
    const error = (await startTestDaemon({ name: "gone", command: process.execPath, args: ["-e", "process.exit(4)"] }, { daemon: CLI, startTimeoutMs: 60_000 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^startTestDaemon: hookd exited \(\d+\) before serving/);
    expect(error.message).toContain("gone");
  });

  it("answers through its evaluate calls and its client until closed", async () => {
    const daemon = await startTestDaemon(plugin, { daemon: CLI, points: { "pre-tool": { deadlineMs: 5_000 } } });
    cleanups.push(() => daemon.close());
    expect((await daemon.evaluatePreTool(events.preTool("Bash", { command: "ls" }))).decision).toEqual({ kind: "deny", reason: "no shell" });
    expect((await daemon.client.evaluatePreTool(events.preTool("Read", { path: "/" }))).decision).toEqual({ kind: "allow" });
    await daemon.close();
    await expect(daemon.evaluatePreTool(events.preTool("Bash"))).rejects.toThrow(/closed/);
  });
});
