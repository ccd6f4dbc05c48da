// A Claude Code `http` hook as the agent sends it: one POST of the hook's JSON per event, on a new
// connection each time (no keep-alive agent), and the answer read to its end. Also one forwarder
// process per event (a command hook's cost), and what those spawned processes cost in CPU.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import type { Agent } from "node:http";
import { CWD } from "./messages.js";

/** A PreToolUse body as Claude Code posts it for a harmless Bash call. */
export const PRE_TOOL_USE_BODY = JSON.stringify({
  session_id: "bench-session",
  transcript_path: "/tmp/bench-session.jsonl",
  cwd: CWD,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls -la src && git status --short", description: "List files and show the working tree status" },
  tool_use_id: "toolu_01BenchCall000000000000",
});

export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * One POST to `url`: on its own connection (`agent: false` closes it after the answer), or on
 * `agent`'s kept-alive connection, as Claude Code sends hooks that come close together.
 */
export function postHook(url: URL, body: string, agent: Agent | false = false): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: "/hooks", method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export interface ProcessAnswer {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command args` with `stdin`, as an agent runs a command hook, to its exit. */
export function runOnce(command: string, args: readonly string[], stdin: string): Promise<ProcessAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.on("error", () => {}); // a process that exits without reading stdin
    child.stdin.end(stdin);
  });
}

/**
 * CPU time of this process's waited-for children (cutime + cstime of /proc/self/stat), in
 * milliseconds: the forwarder processes the bench itself runs. Clock-tick resolution.
 */
export function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** The permissionDecision of a PreToolUse answer, or why there is none. */
export function permissionDecision(text: string): string {
  try {
    const answer = JSON.parse(text) as { hookSpecificOutput?: { permissionDecision?: unknown } };
    const decision = answer.hookSpecificOutput?.permissionDecision;
    return typeof decision === "string" ? decision : `no permissionDecision in ${text}`;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
}
