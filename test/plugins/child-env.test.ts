// Children of the daemon get its environment without what its service manager meant for the
// daemon alone: a real `hookd serve` started with NOTIFY_SOCKET, WATCHDOG_* and LISTEN_* set
// runs a managed plugin and a command hook that each write their environment to a file; neither
// has any of those variables, and both have the daemon's other variables.
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectHost, snapshotJson } from "@hookd/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/plugins/managed-plugin.mjs", import.meta.url));
const DAEMON_ONLY = ["NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The variable names in the `env` output moved whole to `path`, once it is there (bounded). */
async function namesIn(path: string, timeoutMs = 10_000): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const text = await readFile(path, "utf8");
  expect(text).toMatch(/ENV-END\n$/);
  return text.split("\n").map((line) => line.split("=")[0] ?? "");
}

describe("the environment of the daemon's children", () => {
  it("has no service-manager variables, in managed plugins and command hooks", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-env-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const managedEnv = join(dir, "managed.env");
    const hookEnv = join(dir, "hook.env");
    const hook = join(dir, "hook.sh");
    await writeFile(hook, `#!/bin/sh\nenv > "${hookEnv}.tmp"\necho ENV-END >> "${hookEnv}.tmp"\nmv "${hookEnv}.tmp" "${hookEnv}"\nexit 0\n`);
    await chmod(hook, 0o755);
    await writeFile(join(dir, "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook }] }] } }));
    const daemon = await startDaemon({
      config: {
        plugins: [
          {
            name: "fixture",
            kind: "managed",
            command: "/bin/sh",
            args: ["-c", `env > "$OUT.tmp"; echo ENV-END >> "$OUT.tmp"; mv "$OUT.tmp" "$OUT"; exec "$NODE" "$FIXTURE"`],
            env: { OUT: managedEnv, NODE: process.execPath, FIXTURE },
          },
          { name: "cc-hooks", kind: "command", hooks: join(dir, "settings.json"), dialect: "claude-code" },
        ],
      },
      env: {
        XDG_RUNTIME_DIR: dir,
        NOTIFY_SOCKET: join(dir, "no-manager.sock"),
        WATCHDOG_PID: "1",
        WATCHDOG_USEC: "600000000",
        LISTEN_FDS: "1",
        LISTEN_PID: "1",
        LISTEN_FDNAMES: "agents",
        HOOKD_TEST_INHERITED: "yes",
      },
    });
    cleanups.push(async () => void (await daemon.stop()));
    const client = connectHost(daemon.target, { agentId: "env" });
    cleanups.push(async () => client.close());
    const args = snapshotJson({ command: "ls" });
    const call = { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s1", turn: 1, step: 1 };
    await client.evaluatePreTool({ session: { sessionId: "s1", agentId: "env", cwd: dir }, call });

    for (const path of [managedEnv, hookEnv]) {
      const names = await namesIn(path);
      expect(names).toContain("HOOKD_TEST_INHERITED");
      for (const name of DAEMON_ONLY) expect(names, `${name} in ${path}`).not.toContain(name);
    }
  });
});
