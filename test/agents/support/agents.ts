// What every real-agent test needs: the agent binaries (installed by scripts/setup-agents.sh at
// pinned versions, never skipped when missing), a free loopback port for hookd's HTTP endpoint,
// the forwarder commands per path, and running an agent process to its end with its output kept.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";

export type Dialect = "claude-code" | "codex" | "gemini" | "qwen-code" | "copilot-cli" | "droid" | "cline" | "opencode" | "pi";
/** How an agent reaches hookd: its own http hooks, the compiled forwarder, or the node one. */
export type HookPath = "http" | "c-forwarder" | "node-forwarder";

let binDir: string | undefined;
/** The .bin directory holding claude, codex, gemini and qwen; installs them on first use. */
export function agentBin(name: "claude" | "codex" | "gemini" | "qwen"): string {
  binDir ??= execFileSync("bash", [join(REPO, "scripts/setup-agents.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
  return join(binDir, name);
}

const ownBinDirs = new Map<string, string>();
/** An agent installed in its own cache directory (`setup-agents.sh <agent>`): its binary; installs it on first use. */
export function ownAgentBin(agent: "droid" | "cline"): string {
  let dir = ownBinDirs.get(agent);
  if (dir === undefined) {
    dir = execFileSync("bash", [join(REPO, "scripts/setup-agents.sh"), agent], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
    ownBinDirs.set(agent, dir);
  }
  return join(dir, agent);
}

export const NODE_FORWARDER = join(REPO, "daemon/dist/forward/main.js");
export const C_FORWARDER = join(REPO, "daemon/dist/forward/hookd-hook");

/** The command line an agent's command hook runs to reach hookd at `url` for `event`. */
export function forwarderCommand(path: Exclude<HookPath, "http">, dialect: Dialect, event: string, url: string): string {
  const exe = path === "c-forwarder" ? C_FORWARDER : NODE_FORWARDER;
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run npm run build (the C forwarder needs a C compiler)`);
  const args = `--dialect ${dialect} --event ${event} --url ${url}`;
  return path === "c-forwarder" ? `${exe} ${args}` : `${process.execPath} ${exe} ${args}`;
}

export { freePort } from "../../support/ports.js";

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `hookd-${prefix}-`));
}

export interface AgentRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /** Sends the agent SIGINT (as Ctrl-C would) once, the first time this holds for its stdout so far. */
  readonly interruptWhen?: (stdout: string) => boolean;
  /** Kills the agent's process group when aborted: for a run the test itself ends (one that waits for a user). */
  readonly signal?: AbortSignal;
}

/**
 * Runs an agent to its exit, stdin closed. After `timeoutMs` its whole process group is killed:
 * an agent that relaunches itself (Gemini CLI) would otherwise outlive the test holding its pipes.
 */
export function runAgent(command: string, args: readonly string[], options: RunOptions): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let interrupted = options.interruptWhen === undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!interrupted && options.interruptWhen?.(stdout) === true) {
        interrupted = true;
        child.kill("SIGINT");
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL"); // the group is gone already
      }
    };
    const timer = setTimeout(killGroup, options.timeoutMs ?? 90_000);
    options.signal?.addEventListener("abort", killGroup, { once: true });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment an agent runs in: no inherited credentials or config, its HOME a temp dir. */
export function agentEnv(home: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    ...extra,
  };
}

/** The JSON objects of an agent's line-delimited output (stream-json, --json); other lines are skipped. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").flatMap((line) => {
    try {
      return line.startsWith("{") ? [JSON.parse(line) as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}
