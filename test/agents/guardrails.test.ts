// One rule file guards every agent: the builtin guardrail library (include: builtin:...) in a
// real `hookd serve`, Claude Code, Codex, Gemini CLI, Qwen Code, GitHub Copilot CLI, Factory Droid, OpenCode and pi its hook clients, the fake
// model asking each for the same destructive command, then a protected path with its own tool:
// denied by the same rules (matched by tool kind, not name), and each rule's reason reaches each model.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { startFakeModel, scripted } from "./fake-model/server.js";
import type { FakeModel, Reply } from "./fake-model/server.js";
import { freePort, tempDir } from "./support/agents.js";
import { AGENT_DRIVERS } from "./support/drivers.js";
import type { AgentDriver, DriverPath, DriverRun } from "./support/scenarios.js";

const DESTRUCTIVE = "rm -rf ../victim";
const ENV_CONTENT = "API_KEY=from-the-model\n";

/**
 * Each agent's call of a protected path with its own tool, and the reason the rule gives. Gemini
 * CLI refuses a dotfile path (.env, .git/) itself before its hooks run, so it writes a key file;
 * the fake model's Codex offers no write tool (apply_patch), so it reads a key under ~/.ssh.
 */
function protectedCall(driver: AgentDriver<DriverPath>, cwd: string): { reply: Reply; file: string; reason: string } {
  const write = (name: string, file: string) => ({ reply: { kind: "tool", name, input: { file_path: file, content: ENV_CONTENT } } as const, file, reason: `protected-paths: ${file} is a protected path; writing it is not allowed` });
  switch (driver.dialect) {
    case "claude-code":
      return write("Write", join(cwd, ".env"));
    case "droid":
      // Droid's write tool is `Create` {file_path, content}.
      return write("Create", join(cwd, ".env"));
    case "gemini":
      return write("write_file", join(cwd, "server.pem"));
    case "copilot-cli": {
      // Copilot's write tool is `create` {path, file_text}.
      const file = join(cwd, ".env");
      return { reply: { kind: "tool", name: "create", input: { path: file, file_text: ENV_CONTENT } }, file, reason: `protected-paths: ${file} is a protected path; writing it is not allowed` };
    }
    case "opencode":
    case "pi": {
      const file = join(cwd, ".env");
      const input = driver.dialect === "pi" ? { path: file, content: ENV_CONTENT } : { filePath: file, content: ENV_CONTENT };
      return { reply: { kind: "tool", name: "write", input }, file, reason: `protected-paths: ${file} is a protected path; writing it is not allowed` };
    }
    case "codex": {
      const file = join(homedir(), ".ssh", "id_ed25519.png");
      return { reply: { kind: "tool", name: "view_image", input: { path: file } }, file, reason: "protected-paths: id_ed25519.png is a protected path; reading it is not allowed" };
    }
    default:
      return write("write_file", join(cwd, ".env"));
  }
}

let daemon: DaemonProcess | undefined;
let hookUrl = "";

beforeAll(async () => {
  const port = await freePort();
  daemon = await startDaemon({
    config: { http: { listen: `127.0.0.1:${port}` }, plugins: [{ name: "guardrails", kind: "rules", include: ["builtin:destructive-shell", "builtin:protected-paths"] }] },
  });
  hookUrl = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
});

describe.each(AGENT_DRIVERS)("the guardrail library guards $name", (driver) => {
  let model: FakeModel | undefined;
  let run: DriverRun;
  let root = "";
  let cwd = "";

  beforeAll(async () => {
    root = await tempDir(`${driver.dialect}-guarded`);
    cwd = join(root, "project");
    mkdirSync(join(root, "victim"), { recursive: true });
    mkdirSync(cwd);
    writeFileSync(join(root, "victim", "keep.txt"), "still here\n");
    model = await startFakeModel(scripted([{ kind: "shell", command: DESTRUCTIVE }, protectedCall(driver, cwd).reply]));
    const home = await tempDir(`${driver.dialect}-home`);
    // An agent with forwarders takes the C one; an in-process one its plugin, over gRPC.
    const path = driver.paths.includes("c-forwarder") ? "c-forwarder" : driver.paths[0] ?? "c-forwarder";
    run = await driver.run({ path, home, cwd, modelUrl: model.url, hookUrl, hookdTarget: daemon?.target, prompt: "Clean up, then set the API key. Tell me DONE." });
  }, 180_000);

  afterAll(async () => {
    await model?.close();
  });

  const toolResults = (): string[] => (model?.requests ?? []).flatMap((r) => r.conversation?.toolResults ?? []);

  it("runs the turn to its end", () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
  });

  it("does not run the recursive delete outside the project, and the model receives the rule's reason", () => {
    expect(existsSync(join(root, "victim", "keep.txt"))).toBe(true);
    expect(toolResults().some((text) => text.includes(`destructive-shell: a recursive delete outside the project (${cwd}) is not allowed`))).toBe(true);
  });

  it("does not touch the protected path (a rule matching the tool by kind), and the model receives the rule's reason", () => {
    const { file, reason } = protectedCall(driver, cwd);
    if (driver.dialect !== "codex") expect(existsSync(file)).toBe(false);
    expect(toolResults().some((text) => text.includes(reason))).toBe(true);
  });
});
