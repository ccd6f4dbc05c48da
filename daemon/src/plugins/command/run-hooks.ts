// Running the hooks of one firing, for any agent: which hooks a firing selects (matched groups in
// config order, the same hook once), the agent's payload and environment for each, concurrently
// or one after another when a matched group is sequential, and their results read by the agent's
// output contract in config order.
import type { SessionInfo } from "@hookd/sdk";
import type { AgentDialect, Firing, HookGroup, HookResult, HookSpec, PayloadExtras } from "../../agents/contract.js";
import { childEnv } from "../../child-env.js";
import type { ListenerTraits } from "../../engine/listener.js";
import { runHook } from "../../processes/runner.js";
import type { RunResult, RunSpec } from "../../processes/runner.js";

/** Runs a hook warm, or answers undefined when it must be spawned (processes/warm/pool.ts). */
export interface WarmRunner {
  run(spec: RunSpec, hook: HookSpec): Promise<RunResult> | undefined;
}

/** A hook process has no next(); its output comes over a pipe; the engine ends its calls (which kills the processes). */
export const COMMAND_TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: true, settlesItself: false, sendsOnNextTurn: false });

/** Extra time the listener's deadline gives beyond the longest hook timeout, in milliseconds. */
export const DEADLINE_GRACE_MS = 1_000;

const SAFE_PATH = /^[A-Za-z0-9_/.,:@%+=-]+$/;

/**
 * `${VAR}` in a command, for each variable the agent substitutes, becomes its value when that is
 * plain text; otherwise it is left for the shell, which expands it from the environment to the
 * same value.
 */
export function substituteVars(command: string, names: readonly string[], env: Readonly<Record<string, string>>): string {
  let out = command;
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && SAFE_PATH.test(value)) out = out.split(`\${${name}}`).join(value);
  }
  return out;
}

/** The hooks of the groups `matches` keeps, in config order, the same hook once (as the agents do), and whether they run in sequence. */
export function selectHooks(groups: readonly HookGroup[], matches: (group: HookGroup) => boolean): { readonly hooks: HookSpec[]; readonly sequential: boolean } {
  const seen = new Set<string>();
  const hooks: HookSpec[] = [];
  let sequential = false;
  for (const group of groups) {
    if (!matches(group)) continue;
    sequential ||= group.sequential;
    for (const hook of group.hooks) {
      if (seen.has(hook.key)) continue;
      seen.add(hook.key);
      hooks.push(hook);
    }
  }
  return { hooks, sequential };
}

/** The longest time one firing of these groups may take: sequential groups add their hooks' timeouts up. */
export function longestRunMs(groups: readonly HookGroup[]): number {
  const timeouts = groups.flatMap((group) => group.hooks.map((hook) => hook.timeoutMs));
  return groups.some((group) => group.sequential) ? timeouts.reduce((a, b) => a + b, 0) : Math.max(0, ...timeouts);
}

/** How one plugin's hooks run, whichever listener fires them. */
export interface HookRunSetup {
  /** The hooks' base environment (default process.env); the agent's own variables are added per call. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where a hook runs when the session's cwd is unknown (""). */
  readonly fallbackCwd: string;
  /** What the agent told about the session beyond SessionInfo (transcript, permission mode), when known. */
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
  /** Test seam: the runner's spawn hook (process group ids). */
  readonly onSpawn?: (hook: string, pgid: number) => void;
  /** Runs the hooks it can in warm interpreters (absent: every hook is spawned). */
  readonly warm?: WarmRunner;
}

/** One firing's run: its cancellation, the stdin it writes (default: the agent's payload) and, in sequence, what the next hook sees. */
export interface FiringRun {
  readonly signal: AbortSignal;
  readonly payload?: (firing: Firing, extras: PayloadExtras) => string;
  readonly next?: (firing: Firing, result: HookResult) => Firing;
}

/** Runs the given hooks of one firing with the agent's payload and environment; results in config order. */
export async function runHooks(agent: AgentDialect, firing: Firing, selected: { readonly hooks: readonly HookSpec[]; readonly sequential: boolean }, setup: HookRunSetup, run: FiringRun): Promise<HookResult[]> {
  const hooks = agent.commandHooks;
  const session = (firing.data as { session: SessionInfo }).session;
  const cwd = session.cwd === "" ? setup.fallbackCwd : session.cwd;
  const own = hooks.env(cwd, session);
  const extras = setup.extrasOf?.(session) ?? {};
  const payload = run.payload ?? hooks.payload;
  const one = async (hook: HookSpec, current: Firing): Promise<HookResult> => {
    const env = { ...own, ...hook.env };
    const spec: RunSpec = {
      command: substituteVars(hook.command, hooks.substitutes ?? [], env),
      cwd,
      env: childEnv(setup.env ?? process.env, env),
      stdin: payload(current, extras),
      timeoutMs: hook.timeoutMs,
      signal: run.signal,
      ...(setup.onSpawn === undefined ? {} : { onSpawn: (pgid: number) => setup.onSpawn?.(hook.id, pgid) }),
    };
    const result = await (setup.warm?.run(spec, hook) ?? runHook(spec));
    return hooks.interpret(result, hook);
  };
  // Concurrently, results in config order whatever order the processes finish in; or in sequence.
  if (!selected.sequential) return Promise.all(selected.hooks.map((hook) => one(hook, firing)));
  const results: HookResult[] = [];
  let current = firing;
  for (const hook of selected.hooks) {
    const result = await one(hook, current);
    results.push(result);
    current = run.next?.(current, result) ?? current;
  }
  return results;
}
