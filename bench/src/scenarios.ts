// The scenarios. Latency scenarios only set up (start their daemon and plugins, check that the
// daemon decides through the plugin under test) and hand back the call to measure; main.ts then
// measures them all interleaved. Group scenarios (32 agents, idle sessions) measure themselves.
// A scenario that needs a plugin kind the daemon does not have yet is skipped with the reason.
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HTTP_SCENARIOS, HTTP_SPARSE } from "./http-scenarios.js";
import { openAgent, openIdleSession } from "./hosted.js";
import { Skip, expectPreTool } from "./lab.js";
import type { HostClient, Lab } from "./lab.js";
import { OVERLOAD_FACTOR, overload } from "./overload.js";
import { manyAgents, AGENTS } from "./many-agents.js";
import { postToolRequest } from "./messages.js";
import { REPO, rssKb } from "./procs.js";
import { FAST, LIBRARY, NODE_PROCESS, POLICY_MODULE, POLICY_RULES, SHELL, TURN, libraryLoadNote, remotePolicyDaemon, throughDaemon } from "./setups.js";
import type { LatencySetup, Scenario, ScenarioResult } from "./setups.js";
import { summarize } from "./stats.js";
import { STREAM_SCENARIOS } from "./stream-scenarios.js";

export type { LatencySetup, Scenario, ScenarioResult } from "./setups.js";

const TOOL_CALLS_PER_TURN = 10;

async function commandHook(lab: Lab, name: string, command: string, config: Record<string, unknown> = {}): Promise<LatencySetup> {
  const hooks = join(lab.settings.dir, `${name}.hooks.json`);
  await writeFile(hooks, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command, timeout: 30 }] }] } }, null, 2));
  return throughDaemon(lab, name, [{ name, kind: "command", hooks, dialect: "claude-code", ...config }], name);
}

/** The Python interpreter itself (not a launcher in front of it such as a pyenv shim); a Skip without Python. */
function pythonInterpreter(): string {
  try {
    return execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  } catch (error) {
    throw new Skip(`no python3: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** bench/plugins/policy.rego built with the OPA scripts/setup-opa.sh installs (cached); a Skip without Go. */
async function regoBundle(lab: Lab): Promise<string> {
  const bundle = join(lab.settings.dir, "bench-policy-rego.tar.gz");
  try {
    const opa = execFileSync("bash", [join(REPO, "scripts/setup-opa.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
    execFileSync(opa, ["build", "-t", "wasm", "-e", "hookd/bench/decision", "-o", bundle, join(REPO, "bench/plugins/policy.rego")], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    throw new Skip(`cannot build the Rego bundle (scripts/setup-opa.sh installs OPA with Go): ${error instanceof Error ? error.message.split("\n").slice(0, 3).join(" | ") : String(error)}`);
  }
  return bundle;
}

async function hostedTurn(lab: Lab): Promise<LatencySetup> {
  let target: string;
  let note = `${TOOL_CALLS_PER_TURN} tool calls per turn; one remote plugin at pre-tool`;
  try {
    target = (await remotePolicyDaemon(lab, "hosted_turn")).target;
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    target = (await lab.daemon("hosted_turn", [{ name: "bench-policy", kind: "in-process", module: POLICY_MODULE }])).target;
    note = `${TOOL_CALLS_PER_TURN} tool calls per turn; in-process plugin at pre-tool (remote not available)`;
  }
  const client = lab.client(target);
  await expectPreTool(client, "bench-policy");
  const agent = await openAgent(client, "bench-hosted", "bench-agent");
  return { call: () => agent.turn(TOOL_CALLS_PER_TURN), note, perCall: TOOL_CALLS_PER_TURN };
}

/** Idle hosted sessions held against one process: each on its own stream, over 8 connections. */
class IdleSessions {
  readonly #clients: HostClient[];
  readonly #open: { cancel(): void }[] = [];
  /** Time to open each session, in microseconds. */
  readonly samples: number[] = [];

  constructor(lab: Lab, target: string) {
    this.#clients = Array.from({ length: 8 }, () => lab.client(target, true));
  }

  #client(i: number): HostClient {
    return this.#clients[i % this.#clients.length] as HostClient;
  }

  /** Opens and closes 100 sessions: the paths are warm before the baseline is read. */
  async warm(): Promise<void> {
    const warm = await Promise.all(Array.from({ length: 100 }, (_, i) => openIdleSession(this.#client(i), `warm-${i}`, "warm-agent")));
    for (const call of warm) call.cancel();
  }

  async open(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      this.#open.push(await openIdleSession(this.#client(i), `idle-${i}`, `idle-agent-${Math.floor(i / 250)}`));
      this.samples.push((performance.now() - started) * 1000);
    }
  }

  close(): void {
    for (const call of this.#open) call.cancel();
  }
}

const idle = (seconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, seconds * 1_000));

/**
 * The daemon's and a bare grpc-js server's VmRSS growth per idle session, both processes read
 * alike: after the same idle time, before and after the sessions open. Full runs idle 30 s each
 * time: right after a burst of work VmRSS still holds its garbage, which V8 gives back once the
 * process idles (about 25 s after the last open here, for both processes); an idle session's cost
 * is what stays. Quick runs idle 1 s, so their figure includes that garbage.
 */
async function sessions(lab: Lab): Promise<Record<string, ScenarioResult>> {
  const count = lab.settings.quick ? 1_000 : 5_000;
  const idleS = lab.settings.quick ? 1 : 30;
  const daemon = await lab.daemon("sessions", [], { limits: { maxSessions: 100_000, maxSessionsPerAgent: 100_000 } });
  const floor = await lab.floorServer("sessions-floor");
  const sides = [
    { name: "sessions", pid: daemon.pid, sessions: new IdleSessions(lab, daemon.target) },
    { name: "sessions_floor", pid: floor.proc.pid, sessions: new IdleSessions(lab, floor.target) },
  ];
  for (const side of sides) await side.sessions.warm();
  await idle(idleS);
  const before = sides.map((side) => rssKb(side.pid));
  for (const side of sides) await side.sessions.open(count);
  await idle(idleS);
  const results: Record<string, ScenarioResult> = {};
  sides.forEach((side, index) => {
    const [from, to] = [before[index] ?? 0, rssKb(side.pid)];
    results[side.name] = {
      ...summarize(side.sessions.samples),
      rss_kb_per_session: Math.round(((to - from) / count) * 100) / 100,
      note: `${count} idle sessions, each on its own stream (8 connections); VmRSS ${from} -> ${to} KiB, each read after ${idleS} s idle; p50/p99: opening one session`,
    };
    side.sessions.close();
  });
  return results;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    type: "latency",
    name: "floor_single",
    what: "one bare grpc-js unary round trip, EvaluatePreTool messages, no hookd",
    bounds: FAST,
    setup: async (lab) => {
      const floor = await lab.floor();
      return { ...(await expectPreTool(lab.client(floor.serverTarget), "bench-policy")), sharedPids: [floor.server.pid] };
    },
  },
  {
    type: "latency",
    name: "floor_relay",
    what: "client -> relay -> server: two bare grpc-js unary calls, no hookd",
    bounds: FAST,
    setup: async (lab) => {
      const floor = await lab.floor();
      return { ...(await expectPreTool(lab.client(floor.relayTarget), "bench-policy")), sharedPids: [floor.relay.pid, floor.server.pid] };
    },
  },
  {
    type: "latency",
    name: "inprocess",
    what: "EvaluatePreTool through hookd, in-process plugin",
    bounds: FAST,
    setup: (lab) => throughDaemon(lab, "inprocess", [{ name: "bench-policy", kind: "in-process", module: POLICY_MODULE }], "bench-policy"),
  },
  {
    type: "latency",
    name: "rego_wasm",
    what: "the same decision as a Rego policy compiled to Wasm (kind rego, bench/plugins/policy.rego)",
    bounds: FAST,
    setup: async (lab) => {
      const bundle = await regoBundle(lab);
      const plugin = { name: "bench-policy-rego", kind: "rego", bundle, entrypoint: "hookd/bench/decision", points: { "pre-tool": { tools: ["Bash"] } } };
      return throughDaemon(lab, "rego_wasm", [plugin], "bench-policy-rego");
    },
  },
  {
    type: "latency",
    name: "rules",
    what: "the same policy as CEL rules (kind rules, bench/plugins/policy-rules.yaml)",
    bounds: FAST,
    setup: (lab) => throughDaemon(lab, "rules", [{ name: "bench-policy", kind: "rules", rules: POLICY_RULES }], "bench-policy"),
  },
  {
    type: "latency",
    name: "rules_library",
    what: "the whole builtin guardrail library (include: every builtin) before the bench policy's rules, one pre-tool decision",
    bounds: FAST,
    setup: async (lab) => {
      const include = LIBRARY.map((name) => `builtin:${name}`);
      const setup = await throughDaemon(lab, "rules_library", [{ name: "bench-policy", kind: "rules", include, rules: POLICY_RULES }], "bench-policy");
      return { ...setup, note: await libraryLoadNote(include) };
    },
  },
  {
    type: "latency",
    name: "worker",
    what: "the same plugin in the piscina pool (kind worker)",
    bounds: FAST,
    setup: (lab) => throughDaemon(lab, "worker", [{ name: "bench-policy", kind: "worker", module: POLICY_MODULE }], "bench-policy"),
  },
  {
    type: "latency",
    name: "remote_uds",
    what: "one remote TypeScript plugin (servePlugin) over a Unix socket",
    bounds: FAST,
    setup: async (lab) => {
      const daemon = await remotePolicyDaemon(lab, "remote_uds");
      const setup = await expectPreTool(lab.client(daemon.target), "bench-policy");
      // The unary counterpart of stream_remote: its plugin's manifest asks for unary.
      // A daemon from before the stream path reports no transport: it calls every plugin unary (--cli A/Bs).
      const transport = await daemon.transport();
      if (transport !== "unary" && transport !== "") throw new Error(`the daemon calls the plugin over ${transport}, not unary`);
      return setup;
    },
  },
  {
    type: "latency",
    name: "remote_python",
    what: "a Python pre-tool plugin (bench/plugins/python_policy.py) over a Unix socket",
    bounds: FAST,
    setup: async (lab) => {
      const plugin = await lab.python("bench-policy-py");
      return throughDaemon(lab, "remote_python", [{ name: "bench-policy-py", kind: "remote", target: plugin.target }], "bench-policy-py");
    },
  },
  {
    type: "latency",
    name: "remote_python_example",
    what: "EvaluatePostTool through the Python example (redact-secrets; nothing to redact)",
    bounds: FAST,
    setup: async (lab) => {
      const plugin = await lab.python("redact-secrets");
      const daemon = await lab.daemon("remote_python_example", [{ name: "redact-secrets", kind: "remote", target: plugin.target }]);
      const client = lab.client(daemon.target);
      // Only a result with a secret shows that the example is consulted (it passes otherwise).
      const secret = postToolRequest("aws_access_key_id = AKIAIOSFODNN7EXAMPLE");
      const deadline = performance.now() + 15_000;
      for (;;) {
        const answer = await client.evaluatePostTool(secret, { waitForReady: true, timeoutMs: 10_000 }).catch(() => undefined);
        if (answer?.trace?.decidedBy === "redact-secrets") break;
        if (performance.now() > deadline) throw new Error(`the example never redacted: ${answer?.trace?.decidedBy ?? "no answer"}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const clean = postToolRequest();
      return { call: () => client.evaluatePostTool(clean, { timeoutMs: 10_000 }), note: "post-tool: not comparable with the pre-tool scenarios" };
    },
  },
  {
    type: "latency",
    name: "fanout4",
    what: "four side-effect-free remote plugins; three pass, the fourth allows",
    bounds: FAST,
    setup: async (lab) => {
      const plugins = await Promise.all(["fan-1", "fan-2", "fan-3", "fan-4"].map((name, i) => lab.remotePolicy(name, i === 3 ? "allow" : "pass")));
      return throughDaemon(lab, "fanout4", plugins.map((p, i) => ({ name: `fan-${i + 1}`, kind: "remote", target: p.target })), "fan-4");
    },
  },
  {
    type: "latency",
    name: "floor_fanout4",
    what: "client -> relay -> four bare servers called at once: the transport's limit for fanout4",
    bounds: FAST,
    setup: async (lab) => expectPreTool(lab.client((await lab.floorFanout()).relayTarget), "bench-policy"),
  },
  {
    type: "latency",
    name: "command_sh",
    what: "a Claude Code command hook in sh, a process per event",
    bounds: SHELL,
    setup: (lab) => commandHook(lab, "command_sh", `sh ${join(REPO, "bench/plugins/hook.sh")}`),
  },
  {
    type: "latency",
    name: "command_node_spawn",
    what: "a Claude Code command hook in Node, a process per event (warm: false)",
    bounds: NODE_PROCESS,
    setup: (lab) => commandHook(lab, "command_node_spawn", `${process.execPath} ${join(REPO, "bench/plugins/hook.mjs")}`, { warm: false }),
  },
  {
    type: "latency",
    name: "command_node_warm",
    what: "the same Node hook run warm: a spare node process, started ahead, per event",
    bounds: NODE_PROCESS,
    setup: (lab) => commandHook(lab, "command_node_warm", `${process.execPath} ${join(REPO, "bench/plugins/hook.mjs")}`),
  },
  {
    type: "latency",
    name: "command_python_spawn",
    what: "a Claude Code command hook in Python (json, re, sys), a process per event (warm: false)",
    bounds: NODE_PROCESS,
    setup: (lab) => commandHook(lab, "command_python_spawn", `${pythonInterpreter()} ${join(REPO, "bench/plugins/hook.py")}`, { warm: false }),
  },
  {
    type: "latency",
    name: "command_python_warm",
    what: "the same Python hook run warm: a fork of a resident interpreter per event",
    bounds: NODE_PROCESS,
    setup: (lab) => commandHook(lab, "command_python_warm", `${pythonInterpreter()} ${join(REPO, "bench/plugins/hook.py")}`),
  },
  {
    type: "latency",
    name: "hosted_turn",
    what: `a hosted-loop turn with ${TOOL_CALLS_PER_TURN} tool calls (raw HookHost.Session client)`,
    bounds: TURN,
    setup: hostedTurn,
  },
  ...STREAM_SCENARIOS,
  ...HTTP_SCENARIOS,
  {
    type: "group",
    name: "agents32",
    what: `${AGENTS} agents at once against one remote plugin (unary, and each on an Evaluate stream), and floor_relay at ${AGENTS} in flight, unary and on streams`,
    produces: ["agents32", "stream_agents32", "floor_relay32", "floor_stream_relay32"],
    run: manyAgents,
  },
  HTTP_SPARSE,
  {
    type: "group",
    name: "overload",
    what: `unloaded, at the concurrency that saturates, and at ${OVERLOAD_FACTOR} x it from 8 agents: admitted, refused and UNAVAILABLE calls`,
    produces: ["overload_unloaded", "overload_peak", "overload_admitted", "overload_refused", "overload_unavailable"],
    run: overload,
  },
  {
    type: "group",
    name: "sessions",
    what: "RSS growth per open idle hosted session: the daemon, and a bare grpc-js server holding the same streams",
    produces: ["sessions", "sessions_floor"],
    run: sessions,
  },
];
