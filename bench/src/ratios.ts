// The design's targets (DESIGN.md section 6) as ratios between scenarios of one run. They are
// printed beside the measured values, never asserted: absolute times on shared machines are
// noise, and a missed target is a finding to report, not a failed run.

export interface ScenarioFigures {
  readonly p50_us?: number;
  readonly p99_us?: number;
  readonly ops_per_s?: number;
  readonly rss_kb_per_session?: number;
  readonly per_call_us?: number;
  readonly cpu_us_per_call?: number;
  readonly count?: number;
}

export interface Target {
  readonly name: string;
  /** What is divided by what. */
  readonly how: string;
  readonly value: (s: Readonly<Record<string, ScenarioFigures>>) => number | undefined;
  /** e.g. "<= 1.3"; absent for figures reported without a target. */
  readonly target?: { readonly op: "<=" | ">="; readonly bound: number };
  /**
   * The same ratio with hookd's scenarios replaced by their bare grpc-js floors of the same run:
   * what the transport itself gives on this machine. A target the bare ratio misses too cannot be
   * met by any work in hookd, only by other hardware or another transport.
   */
  readonly bare?: { readonly name: string; readonly value: (s: Readonly<Record<string, ScenarioFigures>>) => number | undefined };
}

function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b === 0 ? undefined : Math.round((a / b) * 100) / 100;
}

const ms = (us: number | undefined): number | undefined => (us === undefined ? undefined : Math.round(us / 10) / 100);
const p50 = (name: string) => (s: Readonly<Record<string, ScenarioFigures>>) => s[name]?.p50_us;
const cpu = (name: string) => (s: Readonly<Record<string, ScenarioFigures>>) => s[name]?.cpu_us_per_call;

export const TARGETS: readonly Target[] = [
  { name: "remote_uds/floor_relay", how: "p50", value: (s) => ratio(p50("remote_uds")(s), p50("floor_relay")(s)), target: { op: "<=", bound: 1.3 } },
  { name: "inprocess/floor_single", how: "p50", value: (s) => ratio(p50("inprocess")(s), p50("floor_single")(s)), target: { op: "<=", bound: 1.15 } },
  // Policies as data: a Wasm-compiled Rego policy deciding what the in-process TypeScript plugin decides.
  { name: "rego_wasm/inprocess", how: "p50", value: (s) => ratio(p50("rego_wasm")(s), p50("inprocess")(s)), target: { op: "<=", bound: 1.5 } },
  {
    name: "command_node_spawn/remote_uds",
    how: "p50",
    value: (s) => ratio(p50("command_node_spawn")(s), p50("remote_uds")(s)),
    target: { op: ">=", bound: 100 },
    bare: { name: "command_node_spawn/floor_relay", value: (s) => ratio(p50("command_node_spawn")(s), p50("floor_relay")(s)) },
  },
  {
    name: "fanout4/remote_uds",
    how: "p50",
    value: (s) => ratio(p50("fanout4")(s), p50("remote_uds")(s)),
    target: { op: "<=", bound: 1.6 },
    bare: { name: "floor_fanout4/floor_relay", value: (s) => ratio(p50("floor_fanout4")(s), p50("floor_relay")(s)) },
  },
  {
    name: "agents32/floor_relay",
    how: "throughput, agents32 / floor_relay32 (both at 32 in flight)",
    value: (s) => ratio(s["agents32"]?.ops_per_s, s["floor_relay32"]?.ops_per_s),
    target: { op: ">=", bound: 0.7 },
  },
  // Overload: admitted calls stay fast, the rest are refused at once (docs/overload.md).
  { name: "overload_p99/unloaded_p99", how: "p99 of admitted calls at 8 x the saturating load / p99 one call at a time", value: (s) => ratio(s["overload_admitted"]?.p99_us, s["overload_unloaded"]?.p99_us), target: { op: "<=", bound: 3 } },
  { name: "overload_refusal_p99_ms", how: "p99 of a refused call (RESOURCE_EXHAUSTED), ms", value: (s) => ms(s["overload_refused"]?.p99_us), target: { op: "<=", bound: 2 } },
  { name: "overload_throughput/peak", how: "admitted calls per second at 8 x the saturating load / the best throughput", value: (s) => ratio(s["overload_admitted"]?.ops_per_s, s["overload_peak"]?.ops_per_s), target: { op: ">=", bound: 0.8 } },
  { name: "overload_unavailable", how: "UNAVAILABLE answers from the live daemon under overload", value: (s) => s["overload_unavailable"]?.count, target: { op: "<=", bound: 0 } },
  // The stream path (issue #16).
  {
    name: "stream_remote/floor_relay",
    how: "p50: the stream path against the unary two-hop floor",
    value: (s) => ratio(p50("stream_remote")(s), p50("floor_relay")(s)),
    target: { op: "<=", bound: 0.35 },
    bare: { name: "floor_stream_relay/floor_relay", value: (s) => ratio(p50("floor_stream_relay")(s), p50("floor_relay")(s)) },
  },
  { name: "stream_remote/floor_stream_relay", how: "p50", value: (s) => ratio(p50("stream_remote")(s), p50("floor_stream_relay")(s)), target: { op: "<=", bound: 1.3 } },
  { name: "stream_inprocess/floor_stream_single", how: "p50", value: (s) => ratio(p50("stream_inprocess")(s), p50("floor_stream_single")(s)), target: { op: "<=", bound: 1.3 } },
  {
    name: "stream_fanout4/stream_remote",
    how: "p50",
    value: (s) => ratio(p50("stream_fanout4")(s), p50("stream_remote")(s)),
    target: { op: "<=", bound: 1.5 },
    bare: { name: "floor_stream_fanout4/floor_stream_relay", value: (s) => ratio(p50("floor_stream_fanout4")(s), p50("floor_stream_relay")(s)) },
  },
  {
    name: "stream_agents32/floor_relay32",
    how: "throughput, stream_agents32 / floor_relay32 (both at 32 in flight)",
    value: (s) => ratio(s["stream_agents32"]?.ops_per_s, s["floor_relay32"]?.ops_per_s),
    target: { op: ">=", bound: 3 },
    bare: { name: "floor_stream_relay32/floor_relay32", value: (s) => ratio(s["floor_stream_relay32"]?.ops_per_s, s["floor_relay32"]?.ops_per_s) },
  },
  {
    name: "stream_agents32/floor_stream_relay32",
    how: "throughput at 32 in flight: hookd's stream path against the relay's bare streams",
    value: (s) => ratio(s["stream_agents32"]?.ops_per_s, s["floor_stream_relay32"]?.ops_per_s),
  },
  { name: "floor_stream_relay32/floor_relay32", how: "throughput at 32 in flight: what bare streams give for the stream_agents32 target", value: (s) => ratio(s["floor_stream_relay32"]?.ops_per_s, s["floor_relay32"]?.ops_per_s) },
  {
    name: "command_node_spawn/stream_remote",
    how: "p50",
    value: (s) => ratio(p50("command_node_spawn")(s), p50("stream_remote")(s)),
    target: { op: ">=", bound: 200 },
    bare: { name: "command_node_spawn/floor_stream_relay", value: (s) => ratio(p50("command_node_spawn")(s), p50("floor_stream_relay")(s)) },
  },
  // No stream scenario's p99 worse than its unary counterpart's.
  ...(
    [
      ["stream_inprocess", "inprocess"],
      ["stream_remote", "remote_uds"],
      ["stream_fanout4", "fanout4"],
      ["stream_agents32", "agents32"],
    ] as const
  ).map(([stream, unary]): Target => ({ name: `${stream}_p99/${unary}_p99`, how: "p99: the stream path against its unary counterpart", value: (s) => ratio(s[stream]?.p99_us, s[unary]?.p99_us), target: { op: "<=", bound: 1 } })),
  // The http hook path.
  { name: "http_hook/floor_http", how: "p50, a new connection per call on both", value: (s) => ratio(p50("http_hook")(s), p50("floor_http")(s)), target: { op: "<=", bound: 1.3 } },
  {
    name: "forwarder_c_ms",
    how: "p50 of the shipped (C) forwarder per event, ms",
    value: (s) => ms(p50("forwarder_c")(s)),
    target: { op: "<=", bound: 5 },
    bare: { name: "floor_forwarder_ms", value: (s) => ms(p50("floor_forwarder")(s)) },
  },
  { name: "sessions_kb_per_session", how: "daemon VmRSS growth per open idle session, KiB (after 30 s idle; quick: 1 s)", value: (s) => s["sessions"]?.rss_kb_per_session, target: { op: "<=", bound: 16 } },
  // Reported without a target.
  {
    name: "sessions/sessions_floor",
    how: "VmRSS growth per idle session: daemon / bare grpc-js server holding the same streams",
    value: (s) => ratio(s["sessions"]?.rss_kb_per_session, s["sessions_floor"]?.rss_kb_per_session),
  },
  { name: "worker/inprocess", how: "p50", value: (s) => ratio(p50("worker")(s), p50("inprocess")(s)) },
  { name: "rules_library/inprocess", how: "p50: the whole builtin library, then the bench policy as rules, against the TypeScript plugin", value: (s) => ratio(p50("rules_library")(s), p50("inprocess")(s)), target: { op: "<=", bound: 1.15 } },
  { name: "rules/inprocess", how: "p50: the same policy as CEL rules against the TypeScript plugin", value: (s) => ratio(p50("rules")(s), p50("inprocess")(s)) },
  { name: "remote_python/remote_uds", how: "p50", value: (s) => ratio(p50("remote_python")(s), p50("remote_uds")(s)) },
  { name: "command_sh/remote_uds", how: "p50", value: (s) => ratio(p50("command_sh")(s), p50("remote_uds")(s)) },
  {
    name: "command_python_warm/command_python_spawn",
    how: "p50: the same Python hook script through the command kind, warm against spawned",
    value: (s) => ratio(p50("command_python_warm")(s), p50("command_python_spawn")(s)),
    target: { op: "<=", bound: 0.15 },
  },
  {
    name: "command_node_warm/command_node_spawn",
    how: "p50: the same Node hook script through the command kind, on a spare against spawned",
    value: (s) => ratio(p50("command_node_warm")(s), p50("command_node_spawn")(s)),
    target: { op: "<=", bound: 0.15 },
  },
  { name: "hosted_turn_per_call/floor_relay", how: "(turn p50 / tool calls) / floor_relay p50", value: (s) => ratio(s["hosted_turn"]?.per_call_us, p50("floor_relay")(s)) },
  { name: "agents32_p99/floor_relay32_p99", how: "p99 at 32 in flight", value: (s) => ratio(s["agents32"]?.p99_us, s["floor_relay32"]?.p99_us) },
  { name: "fanout4/floor_fanout4", how: "p50: fanout4 against the same fan-out through bare grpc-js", value: (s) => ratio(p50("fanout4")(s), p50("floor_fanout4")(s)) },
  {
    name: "floor_fanout4/floor_relay",
    how: "p50: what the transport alone gives for the fanout4 target's ratio",
    value: (s) => ratio(p50("floor_fanout4")(s), p50("floor_relay")(s)),
  },
  { name: "http_hook_keepalive/floor_http_keepalive", how: "p50, one kept-alive connection on both", value: (s) => ratio(p50("http_hook_keepalive")(s), p50("floor_http_keepalive")(s)) },
  { name: "http_hook/http_hook_keepalive", how: "p50: what a new connection per request costs hookd's endpoint", value: (s) => ratio(p50("http_hook")(s), p50("http_hook_keepalive")(s)) },
  { name: "http_hook_sparse/floor_http_sparse", how: "p50 at an agent's pace (a request every 100-250 ms)", value: (s) => ratio(p50("http_hook_sparse")(s), p50("floor_http_sparse")(s)) },
  { name: "forwarder_node_ms", how: "p50 of the node forwarder (hookd hook) per event, ms", value: (s) => ms(p50("forwarder_node")(s)) },
  { name: "forwarder_c/floor_process", how: "p50: the C forwarder against spawning /bin/true", value: (s) => ratio(p50("forwarder_c")(s), p50("floor_process")(s)) },
  { name: "forwarder_c/floor_forwarder", how: "p50: the C forwarder posting to hookd against posting to the bare floor server", value: (s) => ratio(p50("forwarder_c")(s), p50("floor_forwarder")(s)) },
  { name: "stream_remote/remote_uds", how: "p50: stream path / unary path, one remote plugin", value: (s) => ratio(p50("stream_remote")(s), p50("remote_uds")(s)) },
  { name: "floor_stream_relay/floor_relay", how: "p50: bare streams against bare unary calls, two hops", value: (s) => ratio(p50("floor_stream_relay")(s), p50("floor_relay")(s)) },
  { name: "stream_fanout4/floor_stream_fanout4", how: "p50: stream_fanout4 against the same fan-out over bare streams", value: (s) => ratio(p50("stream_fanout4")(s), p50("floor_stream_fanout4")(s)) },
  { name: "floor_stream_fanout4/floor_stream_relay", how: "p50: what bare streams give for the stream_fanout4 target's ratio", value: (s) => ratio(p50("floor_stream_fanout4")(s), p50("floor_stream_relay")(s)) },
  { name: "floor_stream_single/floor_single", how: "p50: bare stream against bare unary call, one hop", value: (s) => ratio(p50("floor_stream_single")(s), p50("floor_single")(s)) },
  { name: "floor_relay/floor_single", how: "p50 (sanity: about 2)", value: (s) => ratio(p50("floor_relay")(s), p50("floor_single")(s)) },
  // The same comparisons in CPU time per call of the serving processes: steadier under load.
  { name: "cpu: remote_uds/floor_relay", how: "CPU µs per call (daemon + plugin vs relay + server)", value: (s) => ratio(cpu("remote_uds")(s), cpu("floor_relay")(s)) },
  { name: "cpu: inprocess/floor_single", how: "CPU µs per call (daemon vs server)", value: (s) => ratio(cpu("inprocess")(s), cpu("floor_single")(s)) },
  { name: "cpu: rego_wasm/inprocess", how: "CPU µs per call (daemon vs daemon)", value: (s) => ratio(cpu("rego_wasm")(s), cpu("inprocess")(s)) },
  { name: "cpu: fanout4/remote_uds", how: "CPU µs per call", value: (s) => ratio(cpu("fanout4")(s), cpu("remote_uds")(s)) },
  { name: "cpu: stream_remote/floor_stream_relay", how: "CPU µs per call (daemon + plugin vs relay + server, streams)", value: (s) => ratio(cpu("stream_remote")(s), cpu("floor_stream_relay")(s)) },
  { name: "cpu: stream_inprocess/floor_stream_single", how: "CPU µs per call (daemon vs server, streams)", value: (s) => ratio(cpu("stream_inprocess")(s), cpu("floor_stream_single")(s)) },
  { name: "cpu: stream_remote/remote_uds", how: "CPU µs per call: stream path / unary path", value: (s) => ratio(cpu("stream_remote")(s), cpu("remote_uds")(s)) },
  { name: "cpu: http_hook/floor_http", how: "CPU µs per call (daemon vs bare http server)", value: (s) => ratio(cpu("http_hook")(s), cpu("floor_http")(s)) },
  { name: "cpu: command_node_spawn/remote_uds", how: "CPU µs per call (hook processes included)", value: (s) => ratio(cpu("command_node_spawn")(s), cpu("remote_uds")(s)) },
];

export function met(target: Target, value: number | undefined): boolean | undefined {
  if (target.target === undefined || value === undefined) return undefined;
  return target.target.op === "<=" ? value <= target.target.bound : value >= target.target.bound;
}

/** The target's verdict: met, missed, or missed where the bare transport misses it too. */
export function verdictOf(target: Target, value: number | undefined, bare: number | undefined): string {
  const ok = met(target, value);
  if (ok === undefined) return "";
  if (ok) return "met";
  return met(target, bare) === false ? "MISSED, bare too" : "MISSED";
}
