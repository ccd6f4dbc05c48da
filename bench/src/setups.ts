// What the scenario modules share: the result and scenario types, the bounds of each kind of
// scenario, the bench plugin's module, and the two usual setups (a daemon with given plugins, a
// daemon in front of the remote bench-policy).
import { join } from "node:path";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { expectPreTool } from "./lab.js";
import type { Lab } from "./lab.js";
import { REPO } from "./procs.js";
import type { Bounds, Summary } from "./stats.js";

export interface ScenarioResult extends Partial<Summary> {
  /** Calls made before measuring (latency scenarios). */
  readonly warmup?: number;
  readonly rss_kb_per_session?: number;
  /** hosted_turn: the turn's p50 divided by its tool calls. */
  readonly per_call_us?: number;
  /** Answers not decided by the plugin under test (a fault or a fail-closed deny mid-run). */
  readonly mismatches?: number;
  /**
   * CPU time per measured call of the serving processes (daemon, plugins, hook processes; the
   * floor's server and relay), in microseconds, counted only while this scenario ran: unlike
   * latency, it moves little with the load from elsewhere on the machine.
   */
  readonly cpu_us_per_call?: number;
  readonly note?: string;
  readonly skipped?: string;
}

export interface LatencySetup {
  readonly call: () => Promise<unknown>;
  readonly mismatches?: () => number;
  readonly note?: string;
  /** Tool calls per measured call (hosted_turn), for per_call_us. */
  readonly perCall?: number;
  /** Processes serving this scenario that it did not start itself (the floor's). */
  readonly sharedPids?: readonly number[];
  /** CPU time so far, in milliseconds, of serving work outside those processes (forwarders the bench spawns). */
  readonly extraCpuMs?: () => number;
}

export type Scenario =
  | { readonly type: "latency"; readonly name: string; readonly what: string; readonly bounds: (quick: boolean) => Bounds; setup(lab: Lab): Promise<LatencySetup> }
  | { readonly type: "group"; readonly name: string; readonly what: string; readonly produces: readonly string[]; run(lab: Lab): Promise<Record<string, ScenarioResult>> };

export const POLICY_MODULE = join(REPO, "bench/dist/plugins/policy.js");
/** The same policy as CEL rules (kind: rules). */
export const POLICY_RULES = join(REPO, "bench/plugins/policy-rules.yaml");

/** Every builtin of the guardrail library (daemon/rules). */
export const LIBRARY = ["destructive-shell", "download-exec", "git-safety", "protected-paths", "secrets"];

type LoadRuleSet = (patterns: readonly string[], where: string, options: { include: readonly string[]; plugin: string }) => { rules: readonly unknown[] };

/**
 * What loading the library takes (read, parse, check, plan), in this process: the first load
 * (CEL environments built, patterns compiled) and the median of the next ones.
 */
export async function libraryLoadNote(include: readonly string[]): Promise<string> {
  const { loadRuleSet } = (await import(join(REPO, "daemon/dist/plugins/rules/compile.js"))) as { loadRuleSet: LoadRuleSet };
  const load = (): number => {
    const start = performance.now();
    loadRuleSet([], "bench", { include, plugin: "bench" });
    return performance.now() - start;
  };
  const first = load();
  const again = Array.from({ length: 20 }, load).sort((a, b) => a - b);
  const rules = loadRuleSet([], "bench", { include, plugin: "bench" }).rules.length;
  return `library load (${rules} rules): first ${first.toFixed(1)} ms, then median ${(again[10] ?? 0).toFixed(1)} ms`;
}

export const FAST = (quick: boolean): Bounds => (quick ? { warmup: 300, count: 5_000, maxMs: 1_500 } : { warmup: 2_000, count: 100_000, maxMs: 10_000 });
export const SHELL = (quick: boolean): Bounds => (quick ? { warmup: 3, count: 300, maxMs: 1_500 } : { warmup: 20, count: 3_000, maxMs: 10_000 });
export const NODE_PROCESS = (quick: boolean): Bounds => (quick ? { warmup: 2, count: 12, maxMs: 3_000 } : { warmup: 5, count: 100, maxMs: 20_000 });
export const TURN = (quick: boolean): Bounds => (quick ? { warmup: 5, count: 300, maxMs: 1_500 } : { warmup: 30, count: 3_000, maxMs: 10_000 });

/** Pre-tool evaluations through a daemon with `plugins`, decided by `decidedBy`. */
export async function throughDaemon(lab: Lab, name: string, plugins: Record<string, unknown>[], decidedBy: string): Promise<LatencySetup> {
  const daemon = await lab.daemon(name, plugins);
  return expectPreTool(lab.client(daemon.target), decidedBy);
}

export async function remotePolicyDaemon(lab: Lab, name: string, transport: "stream" | "unary" = "unary"): Promise<{ target: string; pluginTarget: string; transport: () => Promise<string> }> {
  const plugin = await lab.remotePolicy("bench-policy", "allow", lab.settings.profileScenarios.has(name) ? `plugin-${name}` : undefined, transport);
  const admin = lab.socket(`${name}-admin`);
  const daemon = await lab.daemon(name, [{ name: "bench-policy", kind: "remote", target: plugin.target }], { admin: { unix: admin.slice("unix://".length) } });
  return { target: daemon.target, pluginTarget: plugin.target, transport: () => pluginTransport(admin, "bench-policy") };
}

/** What the daemon says `plugin`'s calls go over now (HookAdmin ListPlugins: "stream" or "unary"). */
async function pluginTransport(admin: string, plugin: string): Promise<string> {
  const client = createClient(pb.HookAdmin, admin);
  try {
    const listed = await client.listPlugins({}, { timeoutMs: 5_000 });
    return listed.plugins.find((status) => status.name === plugin)?.transport ?? "(not listed)";
  } finally {
    closeClient(client);
  }
}

