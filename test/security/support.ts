// Shared bits of the security tests: the address a daemon's TCP listener actually bound (from its
// "hookd serving" line), a pre-tool call, and a way to capture a rejection for assertions.
import { snapshotJson } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";
import type { DaemonProcess } from "../support/daemon-process.js";

/** The "host:port" the daemon bound for a "127.0.0.1:0" listener, read from "hookd serving". */
export async function boundTcpAddress(daemon: DaemonProcess): Promise<string> {
  const line = await daemon.waitForLog((l) => l.msg === "hookd serving");
  const listeners = line["listeners"];
  if (!Array.isArray(listeners)) throw new Error(`"hookd serving" has no listeners array: ${JSON.stringify(line)}`);
  const tcp = listeners.filter((l): l is string => typeof l === "string" && /^127\.0\.0\.1:\d+$/.test(l));
  if (tcp.length !== 1) throw new Error(`expected one 127.0.0.1 listener, got ${JSON.stringify(listeners)}`);
  const address = tcp[0] as string;
  if (address.endsWith(":0")) throw new Error(`the daemon logged the configured port 0, not the bound port: ${address}`);
  return address;
}

export function preTool(sessionId: string, callId: string, command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId, turn: 1, step: 1 };
}

export const sessionOf = (sessionId: string, agentId = ""): SessionInfo => ({ sessionId, agentId, cwd: "/" });

/** Resolves with what `promise` rejected with; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & { readonly codeName?: string }> {
  const outcome = await promise.then(
    (value) => ({ resolved: true as const, value }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof Error)) throw new Error(`expected an Error rejection, got ${String(outcome.error)}`);
  return outcome.error;
}
