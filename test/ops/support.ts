// Helpers for the ops tests around the shared daemon start (../support/daemon-process.ts): a
// temporary directory for configs, typed HookHost / HookAdmin clients, the CLI run to completion,
// and a datagram receiver standing in for systemd's NOTIFY_SOCKET. Nothing here sleeps to
// synchronize: every wait is for a line, a message or an exit, with a bounded timeout.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { stringify } from "yaml";
import { CLI, LineFollower, REPO, cleanEnv } from "../support/daemon-process.js";

export { CLI, LineFollower, parseLog, startDaemon } from "../support/daemon-process.js";
export type { LogLine, RunningDaemon } from "../support/daemon-process.js";

export const ROOT = REPO;
export const FIXTURES = join(ROOT, "test/ops/fixtures");

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the ops tests`);

/** A temporary directory with helpers to write a config; removed by `cleanup`. */
export class Workdir {
  readonly path = mkdtempSync(join(tmpdir(), "hookd-ops-"));

  file(name: string): string {
    return join(this.path, name);
  }

  /** Writes `config` as YAML (objects) or as given (strings); returns the path. */
  writeConfig(config: unknown, name = "hookd.yaml"): string {
    const path = this.file(name);
    writeFileSync(path, typeof config === "string" ? config : stringify(config));
    return path;
  }

  read(name: string): string {
    return readFileSync(this.file(name), "utf8");
  }

  cleanup(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

export function pluginEntry(name: "policy" | "tagger", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, kind: "in-process", module: join(FIXTURES, `${name}.mjs`), ...extra };
}

export type HostClient = TypedClient<typeof pb.HookHost>;
export type AdminClient = TypedClient<typeof pb.HookAdmin>;

export function hostClient(socket: string): HostClient {
  return createClient(pb.HookHost, `unix://${socket}`);
}

export function adminClient(socket: string): AdminClient {
  return createClient(pb.HookAdmin, `unix://${socket}`);
}

export { closeClient, pb };

/** One pre-tool evaluate call; resolves with the decision's case and reason. */
export async function preTool(
  client: HostClient,
  call: { sessionId: string; callId: string; toolName: string; args?: Record<string, unknown>; agentId?: string },
  timeoutMs = 15_000,
): Promise<{ decision: string; reason: string; decidedBy: string }> {
  const response = await client.evaluatePreTool(
    {
      event: {
        session: { sessionId: call.sessionId, agentId: call.agentId ?? "ops-test" },
        call: {
          callId: call.callId,
          rootCallId: call.callId,
          toolName: call.toolName,
          argumentsJson: JSON.stringify(call.args ?? {}),
          sessionId: call.sessionId,
          turn: 1,
          step: 1,
        },
      },
    },
    { timeoutMs, waitForReady: true },
  );
  const decision = response.decision?.decision;
  const reason = decision?.case === "deny" ? decision.value.reason : "";
  return { decision: decision?.case ?? "none", reason, decidedBy: response.trace?.decidedBy ?? "" };
}

/** Audit records of a JSON-lines file. */
export function readAudit(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A Unix datagram socket standing in for systemd's NOTIFY_SOCKET (python3: Node cannot bind
 * one). Each received datagram becomes one line of `messages` (newlines shown as "|"); the pid
 * the kernel vouches for as its sender (SCM_CREDENTIALS, as systemd checks NotifyAccess=main)
 * is in `senders`, one per message.
 */
export async function notifyReceiver(path: string): Promise<{ messages: LineFollower; senders: number[]; close: () => void }> {
  const script = [
    "import socket, struct, sys",
    "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)",
    "s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)",
    "s.bind(sys.argv[1])",
    "print('bound', flush=True)",
    "while True:",
    "    data, ancillary, _, _ = s.recvmsg(65536, socket.CMSG_SPACE(12))",
    "    pid = next((struct.unpack('iII', d)[0] for (level, kind, d) in ancillary if kind == socket.SCM_CREDENTIALS), 0)",
    "    print(str(pid) + '\\t' + data.decode().replace('\\n', '|'), flush=True)",
  ].join("\n");
  const child = spawn("python3", ["-c", script, path], { stdio: ["ignore", "pipe", "inherit"] });
  const messages = new LineFollower();
  const senders: number[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const tab = line.indexOf("\t");
    if (tab >= 0) senders.push(Number(line.slice(0, tab)));
    messages.push(tab >= 0 ? line.slice(tab + 1) : line);
  });
  await messages.wait((line) => line === "bound", 10_000, "the notify receiver to bind");
  return { messages, senders, close: () => void child.kill("SIGKILL") };
}

export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const candidate = join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Runs `hookd <args>` to completion. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...cleanEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hookd ${args.join(" ")} did not finish within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}
