// Both halves of the Gemini dialect under a REAL `hookd serve`: the daemon runs a Gemini CLI hooks
// file as a plugin (`kind: command`, `dialect: gemini`: a shell script that denies `rm -rf` with
// Gemini's JSON), and the real Gemini CLI 0.61 sends its BeforeTool through
// `hookd hook --dialect gemini --socket` to the daemon's HTTP endpoint. The destructive command
// never runs and the model receives the script's reason. Needs `npm run build`.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { agentBin } from "../agents/support/agents.js";
import { startFakeGeminiApi } from "../support/fake-gemini-api.js";

const FORWARDER = join(REPO, "daemon/dist/forward/main.js");
let daemon: DaemonProcess;
let dir: string;
let hooksSocket: string;

/** The pinned Gemini CLI, from the real-agent lane's cache (scripts/setup-agents.sh installs it on first use). */
const geminiBin = (): string => agentBin("gemini");

beforeAll(async () => {
  if (!existsSync(FORWARDER)) throw new Error(`${FORWARDER} is missing: run npm run build`);
  dir = mkdtempSync(join(tmpdir(), "hookd-gemini-"));
  const script = join(dir, "no-rm.sh");
  writeFileSync(script, `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"decision":"deny","reason":"the gemini hooks file refuses rm -rf"}'; fi\n`);
  chmodSync(script, 0o755);
  const hooks = join(dir, "gemini-settings.json");
  writeFileSync(hooks, JSON.stringify({ hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: script, timeout: 5000 }] }] } }));
  hooksSocket = join(dir, "hooks.sock");
  daemon = await startDaemon({ config: { http: { listen: hooksSocket }, plugins: [{ name: "gemini-hooks", kind: "command", dialect: "gemini", hooks }] } });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("the real Gemini CLI -> hookd hook --dialect gemini -> hookd serve -> a dialect-gemini command plugin: rm -rf refused", async () => {
  const victim = join(dir, "victim");
  mkdirSync(victim);
  writeFileSync(join(victim, "keep.txt"), "precious");
  const api = await startFakeGeminiApi([[{ functionCall: { name: "run_shell_command", args: { command: `rm -rf ${victim}`, description: "clean" } } }]]);
  const home = join(dir, "home");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  const command = `${process.execPath} ${FORWARDER} --dialect gemini --socket ${hooksSocket}`;
  writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: "command", command }] }] }, security: { auth: { selectedType: "gemini-api-key" } } }));
  const env = { PATH: process.env.PATH ?? "", HOME: home, GEMINI_API_KEY: "fake", GOOGLE_GEMINI_BASE_URL: api.url, GEMINI_CLI_TRUST_WORKSPACE: "true", NO_COLOR: "1" };
  const run = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
    const child = spawn(geminiBin(), ["-p", "clean up", "--yolo"], { cwd: home, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });
  await api.close();
  expect(run.code, run.stderr).toBe(0);
  expect(existsSync(join(victim, "keep.txt"))).toBe(true);
  expect(api.functionResponses().some((text) => text.includes("the gemini hooks file refuses rm -rf"))).toBe(true);
}, 120_000);
