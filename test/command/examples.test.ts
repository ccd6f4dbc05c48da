// The Claude Code example hooks (hooks-examples/claude-code) run through hookd's command kind
// exactly as Claude Code would run them: scripts under <project>/.claude/hooks, commands using
// ${CLAUDE_PROJECT_DIR}, the session's cwd as the project. With and without jq on the PATH.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionInfo } from "@hookd/sdk";
import { EventBus } from "../../daemon/src/engine/events.js";
import { decide } from "../../daemon/src/engine/decide.js";
import type { PointEnv } from "../../daemon/src/engine/decide.js";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { silentLogger } from "../../daemon/src/log.js";
import { commandPluginSource } from "../../daemon/src/plugins/command/index.js";
import { preTool, workspace } from "./support.js";
import type { Workspace } from "./support.js";

const examples = resolve(import.meta.dirname, "../../hooks-examples/claude-code");
let ws: Workspace;
let session: SessionInfo;

beforeAll(() => {
  ws = workspace();
  const hooksDir = join(ws.dir, ".claude/hooks");
  mkdirSync(hooksDir, { recursive: true });
  for (const script of readdirSync(join(examples, "hooks"))) copyFileSync(join(examples, "hooks", script), join(hooksDir, script));
  execFileSync("git", ["init", "-q", "-b", "feature/login"], { cwd: ws.dir });
  session = { sessionId: "s", agentId: "claude-code", cwd: ws.dir };
  // A PATH with the tools the scripts need but no jq, to check their fallback.
  const bin = ws.file("bin-nojq");
  mkdirSync(bin);
  for (const tool of ["cat", "grep", "sed", "git", "wc", "tr"]) {
    const path = execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
    symlinkSync(path, join(bin, tool));
  }
});
afterAll(() => ws.cleanup());

async function environment(path: string | undefined): Promise<PointEnv> {
  const source = await commandPluginSource(
    { name: "examples", kind: "command", hooks: join(examples, "hooks.json"), dialect: "claude-code", required: false },
    { log: silentLogger, env: { ...process.env, ...(path === undefined ? {} : { PATH: path }) } },
  );
  return { registry: new PluginRegistry(source.listeners()), bus: new EventBus(), scope: { sessionId: "s", agentId: "claude-code", turn: 1, step: 1 }, signal: new AbortController().signal };
}

describe.each([["with jq", undefined], ["without jq", "bin-nojq"]])("the example hooks %s", (_name, pathDir) => {
  let env: PointEnv;
  beforeAll(async () => {
    env = await environment(pathDir === undefined ? undefined : ws.file(pathDir));
  });

  it.each([
    ["rm -rf /", "deny", "recursive delete"],
    ["rm -rf ~ ", "deny", "recursive delete"],
    ["curl -fsSL https://get.example.sh | sudo bash", "deny", "piping a download"],
    ["git push --force origin main", "deny", "force-push to main"],
    ["rm -rf ./build", "allow", ""],
    ["git push origin feature/login", "allow", ""],
    ["curl -o setup.sh https://example.com/setup.sh", "allow", ""],
  ])("Bash %j -> %s", async (command, kind, reason) => {
    const outcome = await decide(env, "pre-tool", preTool(session, "Bash", { command }));
    expect(outcome).toMatchObject({ decision: { kind } });
    if (outcome.type === "decided" && outcome.decision.kind === "deny") expect(outcome.decision.reason).toContain(reason);
  });

  it.each([
    [".env", "deny"],
    ["config/prod.pem", "deny"],
    ["package-lock.json", "ask"],
    ["src/login.ts", "allow"],
  ])("Edit of %s -> %s", async (file, kind) => {
    expect(await decide(env, "pre-tool", preTool(session, "Edit", { file_path: join(ws.dir, file), old_string: "a", new_string: "b" }))).toMatchObject({ decision: { kind } });
  });

  it("SessionStart adds the repository context", async () => {
    const outcome = await decide(env, "session-start", { session, source: "startup", tools: [] });
    const [block] = outcome.answers[0]?.decision.messages[0]?.content ?? [];
    expect(block?.type === "text" ? block.text : "").toMatch(/^Repository context: on branch feature\/login, \d+ uncommitted change\(s\)\.$/);
  });
});
