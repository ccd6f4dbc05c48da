// Claude Code driven as the Agent SDK drives it: `claude -p --input-format stream-json
// --permission-prompt-tool stdio`, one user message on stdin, and the test as the host that
// answers each permission prompt (a `can_use_tool` control request) when it chooses to, after
// sending its own control requests (set_model, register_repo_root, ...). What only a host
// drives: a prompt left waiting (Notification permission_prompt), a model switch, an added directory.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { agentBin, agentEnv } from "./agents.js";
import type { AgentRun } from "./agents.js";

export interface PermissionPrompt {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
}

type Line = {
  type?: string;
  request_id?: string;
  request?: { subtype?: string; tool_name?: string; input?: Record<string, unknown> };
  response?: { subtype?: string; request_id?: string; error?: string };
};

/** Runs one prompt; `answer` decides each permission prompt (allow runs the call as asked). */
export async function runClaudeHosted(options: {
  home: string;
  cwd: string;
  modelUrl: string;
  hooks: Record<string, unknown>;
  prompt: string;
  answer: (prompt: PermissionPrompt) => Promise<"allow" | "deny">;
  /** A denial also interrupts the turn (`interrupt: true`), as a host's "deny and stop" does. */
  interruptOnDeny?: boolean;
  /** Control requests (`{ subtype, ... }`) sent before the prompt, in order. */
  controls?: readonly Record<string, unknown>[];
  timeoutMs?: number;
}): Promise<AgentRun & { readonly prompts: readonly PermissionPrompt[]; readonly controlResponses: readonly NonNullable<Line["response"]>[] }> {
  const settings = join(options.home, "hookd-settings.json");
  await writeFile(settings, JSON.stringify({ hooks: options.hooks }));
  const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-prompt-tool", "stdio", "--settings", settings, "--model", "claude-sonnet-4-5"];
  const env = agentEnv(options.home, { ANTHROPIC_BASE_URL: options.modelUrl, ANTHROPIC_API_KEY: "dummy", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1" });
  const child = spawn(agentBin("claude"), args, { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const prompts: PermissionPrompt[] = [];
  const controlResponses: NonNullable<Line["response"]>[] = [];
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
  createInterface({ input: child.stdout }).on("line", (text) => {
    stdout += `${text}\n`;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      return;
    }
    if (line.type === "result") child.stdin.end();
    if (line.type === "control_response" && line.response !== undefined) controlResponses.push(line.response);
    const request = line.request;
    if (line.type !== "control_request" || request?.subtype !== "can_use_tool") return;
    const prompt = { toolName: request.tool_name ?? "", input: request.input ?? {} };
    prompts.push(prompt);
    void options.answer(prompt).then((behavior) =>
      send({
        type: "control_response",
        response: { subtype: "success", request_id: line.request_id, response: behavior === "allow" ? { behavior, updatedInput: prompt.input } : { behavior, message: "the host refused", ...(options.interruptOnDeny === true ? { interrupt: true } : {}) } },
      }),
    );
  });
  (options.controls ?? []).forEach((request, i) => send({ type: "control_request", request_id: `hookd-test-${i}`, request }));
  send({ type: "user", message: { role: "user", content: options.prompt }, parent_tool_use_id: null, session_id: "" });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  clearTimeout(timer);
  return { code, stdout, stderr, prompts, controlResponses };
}
