// hookd's side of an in-process agent integration (the OpenCode plugin, the pi extension): one
// gRPC client to hookd over the SDK's evaluate stream, every call under one deadline, and what a
// call that fails stands for: gate events fail closed unless configured open, said once.
import { connectHost } from "@hookd/sdk";
import type { HostClient, SessionInfo } from "@hookd/sdk";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

export interface LinkSettings {
  /** hookd's gRPC target: "unix:///path", "host:port" or a name-resolver target. */
  readonly target: string;
  readonly token?: string;
  /** The longest an agent event waits for hookd; the call is abandoned after it. */
  readonly deadlineMs: number;
  /** A gate event whose call fails lets the agent go on (true) or refuses (false, the default). */
  readonly failOpen: boolean;
}

const DEFAULT_DEADLINE_MS = 10_000;

/** hookd's own default listener: hookd.sock in its runtime directory (the daemon's runtimeDir). */
function defaultTarget(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_RUNTIME_DIR;
  const dir = xdg !== undefined && xdg !== "" ? join(xdg, "hookd") : join(tmpdir(), `hookd-${process.getuid?.() ?? "user"}`);
  return `unix://${join(dir, "hookd.sock")}`;
}

/**
 * The settings from the environment: HOOKD_TARGET, HOOKD_TOKEN, HOOKD_DEADLINE_MS and
 * HOOKD_FAIL_OPEN ("1"/"true" or "0"/"false"). A bad value throws, naming the variable: a typo
 * must not silently turn a gate open.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): LinkSettings {
  const deadline = env.HOOKD_DEADLINE_MS;
  const deadlineMs = deadline === undefined || deadline === "" ? DEFAULT_DEADLINE_MS : Number(deadline);
  if (!Number.isSafeInteger(deadlineMs) || deadlineMs < 1) throw new Error(`hookd: HOOKD_DEADLINE_MS must be a positive whole number of milliseconds, got ${JSON.stringify(deadline)}`);
  const open = env.HOOKD_FAIL_OPEN;
  let failOpen = false;
  if (open === "1" || open === "true") failOpen = true;
  else if (open !== undefined && open !== "" && open !== "0" && open !== "false") throw new Error(`hookd: HOOKD_FAIL_OPEN must be 1, true, 0 or false, got ${JSON.stringify(open)}`);
  const token = env.HOOKD_TOKEN;
  return {
    target: env.HOOKD_TARGET !== undefined && env.HOOKD_TARGET !== "" ? env.HOOKD_TARGET.replace(/^~(?=\/)/, homedir()) : defaultTarget(env),
    ...(token === undefined || token === "" ? {} : { token }),
    deadlineMs,
    failOpen,
  };
}

/** A gate call's outcome: hookd's answer, or (hookd unreachable) refuse with a reason or go on as if hookd had no opinion. */
export type GateOutcome<T> = { readonly kind: "answered"; readonly answer: T } | { readonly kind: "refuse"; readonly reason: string } | { readonly kind: "proceed" };

export interface HookdLink {
  readonly client: HostClient;
  readonly settings: LinkSettings;
  /** The session every event of an agent session carries. */
  session(sessionId: string, cwd: string): SessionInfo;
  /**
   * Runs one evaluate call with the deadline. A failure is said once on `say`, then: for a gate,
   * the fallback the settings pick (`what` names the refused thing); for an observed event, undefined.
   */
  gate<T>(what: string, call: (options: CallOptions) => Promise<T>): Promise<GateOutcome<T>>;
  observe<T>(call: (options: CallOptions) => Promise<T>): Promise<T | undefined>;
  close(): void;
}

/** The options every evaluate call gets: the deadline, and a signal that fires when it passed. */
export interface CallOptions {
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export function openLink(agentId: string, settings: LinkSettings, say: (line: string) => void): HookdLink {
  const client = connectHost(settings.target, { agentId, ...(settings.token === undefined ? {} : { token: settings.token }) });
  let told = false;
  const tell = (error: unknown): string => {
    const why = error instanceof Error ? error.message : String(error);
    if (!told) {
      told = true;
      const mode = settings.failOpen ? "tools run without hookd's checks (HOOKD_FAIL_OPEN is set)" : "tool calls and prompts are refused until it answers (set HOOKD_FAIL_OPEN=1 to let them through)";
      say(`hookd: no answer from hookd at ${settings.target} (${why}); ${mode}`);
    }
    return why;
  };
  // The SDK's deadline covers connecting and retries; the timer is the bound on the agent's wait
  // even if a call ignored it.
  const bounded = async <T>(call: (options: CallOptions) => Promise<T>): Promise<T> => {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error(`no answer within ${settings.deadlineMs} ms`));
      }, settings.deadlineMs);
    });
    try {
      return await Promise.race([call({ timeoutMs: settings.deadlineMs, signal: abort.signal }), late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    client,
    settings,
    session: (sessionId, cwd) => ({ sessionId, agentId, cwd }),
    gate: async (what, call) => {
      try {
        return { kind: "answered", answer: await bounded(call) };
      } catch (error) {
        const why = tell(error);
        return settings.failOpen ? { kind: "proceed" } : { kind: "refuse", reason: `hookd did not answer (${why}), so ${what} was refused (fail-closed)` };
      }
    },
    observe: async (call) => {
      try {
        return await bounded(call);
      } catch (error) {
        tell(error);
        return undefined;
      }
    },
    close: () => client.close(),
  };
}
