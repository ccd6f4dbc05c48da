// The http hook path (issue #16): a Claude Code-style POST per event on a new connection to the
// daemon's HTTP endpoint (in-process plugin), its floor (a bare node:http server answering `{}`),
// and the shipped forwarders run once per event as an agent's command hook runs them. The
// process-spawn floor (`/bin/true` per event) tells a forwarder's own cost from spawning, and
// floor_forwarder (the C forwarder posting to the bare floor server) hookd's share of it.
import { existsSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { PRE_TOOL_USE_BODY, childrenCpuMs, permissionDecision, postHook, runOnce } from "./http-hook.js";
import type { HttpAnswer } from "./http-hook.js";
import { Skip } from "./lab.js";
import type { Lab } from "./lab.js";
import { REPO, startProcess } from "./procs.js";
import type { Proc } from "./procs.js";
import { NODE_PROCESS, POLICY_MODULE, SHELL } from "./setups.js";
import { summarize } from "./stats.js";
import type { Bounds } from "./stats.js";
import type { LatencySetup, Scenario, ScenarioResult } from "./setups.js";

const C_FORWARDER = join(REPO, "daemon/dist/forward/hookd-hook");
const NODE_FORWARDER = join(REPO, "daemon/dist/forward/main.js");

/** A connection per call: bounded lower than FAST so loopback ports in TIME_WAIT stay few. */
const HTTP = (quick: boolean): Bounds => (quick ? { warmup: 100, count: 2_000, maxMs: 1_500 } : { warmup: 500, count: 20_000, maxMs: 10_000 });

/** The address a process logged (the daemon's "hook endpoint listening", the floor's "ready"). */
function addressIn(proc: Proc, pattern: RegExp): URL {
  for (const line of proc.tail) {
    const match = pattern.exec(line);
    if (match?.[1] !== undefined) return new URL(match[1]);
  }
  throw new Error(`${proc.name} never said where it listens:\n${proc.tail.join("\n")}`);
}

/** A daemon with the HTTP endpoint on loopback and bench-policy in-process, whose allow is sent as an allow. */
async function httpDaemon(lab: Lab, name: string): Promise<URL> {
  const plugin = { name: "bench-policy", kind: "in-process", module: POLICY_MODULE, bypassAgentPermissions: true };
  const daemon = await lab.daemon(name, [plugin], { http: { listen: "127.0.0.1:0" } });
  return addressIn(daemon, /"hook endpoint listening".*"address":"(http:\/\/[^"]+)"/);
}

/** Waits until `once` answers allow, then returns it as the call to measure. */
async function expectAllow(what: string, once: () => Promise<string>): Promise<LatencySetup> {
  const deadline = performance.now() + 15_000;
  for (;;) {
    const decision = await once().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    if (decision === "allow") break;
    if (performance.now() > deadline) throw new Error(`${what}: expected allow, got ${decision}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let mismatches = 0;
  return {
    call: async () => {
      if ((await once()) !== "allow") mismatches++;
    },
    mismatches: () => mismatches,
  };
}

async function forwarder(lab: Lab, name: string, command: string, args: readonly string[], url?: URL): Promise<LatencySetup> {
  url ??= await httpDaemon(lab, name);
  const argv = [...args, "--dialect", "claude-code", "--url", url.origin];
  const setup = await expectAllow(name, async () => {
    const answer = await runOnce(command, argv, PRE_TOOL_USE_BODY);
    return answer.code === 0 ? permissionDecision(answer.stdout) : `exit ${answer.code}: ${answer.stderr.trim()}`;
  });
  return { ...setup, extraCpuMs: childrenCpuMs, note: "one forwarder process per event (its CPU counted)" };
}

/** POSTs to the bare floor server, started for this scenario; `keepAlive` reuses one connection. */
async function floorHttp(lab: Lab, name: string, keepAlive: boolean): Promise<LatencySetup> {
  const proc = lab.keep(await startProcess(name, process.execPath, [...lab.profileArgsFor(name), join(REPO, "bench/dist/http-floor.js")], { ready: (line) => line.startsWith("ready ") }));
  const url = addressIn(proc, /^ready (\S+)$/);
  const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
  const setup = await expectAllow(name, async () => {
    const answer = await postHook(url, PRE_TOOL_USE_BODY, agent);
    return answer.status === 200 && answer.body === "{}" ? "allow" : `${answer.status} ${answer.body}`;
  });
  return { ...setup, note: `answers {} (no opinion); ${keepAlive ? "one kept-alive connection" : "new connection per call"}` };
}

/** POSTs to hookd's endpoint (http_hook's daemon); `keepAlive` reuses one connection. */
async function hookdHttp(lab: Lab, name: string, keepAlive: boolean): Promise<LatencySetup> {
  const url = await httpDaemon(lab, name);
  const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
  const setup = await expectAllow(name, async () => {
    const answer = await postHook(url, PRE_TOOL_USE_BODY, agent);
    return answer.status === 200 ? permissionDecision(answer.body) : `${answer.status} ${answer.body}`;
  });
  return { ...setup, note: keepAlive ? "one kept-alive connection" : "new connection per call" };
}

export const HTTP_SCENARIOS: readonly Scenario[] = [
  {
    type: "latency",
    name: "floor_http",
    what: "a POST per event on a new connection to a bare node:http server answering {}",
    bounds: HTTP,
    setup: (lab) => floorHttp(lab, "floor_http", false),
  },
  {
    type: "latency",
    name: "http_hook",
    what: "a Claude Code-style PreToolUse POST per event on a new connection to hookd's HTTP endpoint, in-process plugin",
    bounds: HTTP,
    setup: (lab) => hookdHttp(lab, "http_hook", false),
  },
  {
    type: "latency",
    name: "floor_http_keepalive",
    what: "floor_http on one kept-alive connection",
    bounds: HTTP,
    setup: (lab) => floorHttp(lab, "floor_http_keepalive", true),
  },
  {
    type: "latency",
    name: "http_hook_keepalive",
    what: "http_hook on one kept-alive connection (as Claude Code sends hooks that come within 5 s)",
    bounds: HTTP,
    setup: (lab) => hookdHttp(lab, "http_hook_keepalive", true),
  },
  {
    type: "latency",
    name: "floor_process",
    what: "spawning /bin/true per event with the hook's JSON on stdin: a command hook's floor",
    bounds: SHELL,
    setup: async () => {
      const setup = await expectAllow("floor_process", async () => ((await runOnce("/bin/true", [], PRE_TOOL_USE_BODY)).code === 0 ? "allow" : "exit code"));
      return { ...setup, extraCpuMs: childrenCpuMs };
    },
  },
  {
    type: "latency",
    name: "forwarder_c",
    what: "the C forwarder (hookd-hook) run per event, posting to hookd's HTTP endpoint",
    bounds: SHELL,
    setup: (lab) => {
      if (!existsSync(C_FORWARDER)) throw new Skip(`${C_FORWARDER} is not built (npm run build compiles it when a C compiler is present)`);
      return forwarder(lab, "forwarder_c", C_FORWARDER, []);
    },
  },
  {
    type: "latency",
    name: "floor_forwarder",
    what: "the C forwarder run per event, posting to the bare floor server (a fixed allow): a forwarder's floor, no hookd",
    bounds: SHELL,
    setup: async (lab) => {
      if (!existsSync(C_FORWARDER)) throw new Skip(`${C_FORWARDER} is not built (npm run build compiles it when a C compiler is present)`);
      const proc = lab.keep(await startProcess("floor_forwarder", process.execPath, [join(REPO, "bench/dist/http-floor.js")], { ready: (line) => line.startsWith("ready ") }));
      return forwarder(lab, "floor_forwarder", C_FORWARDER, [], addressIn(proc, /^ready (\S+)$/));
    },
  },
  {
    type: "latency",
    name: "forwarder_node",
    what: "the node forwarder (hookd hook, forward/main.js) run per event, posting to hookd's HTTP endpoint",
    bounds: NODE_PROCESS,
    setup: (lab) => forwarder(lab, "forwarder_node", process.execPath, [NODE_FORWARDER]),
  },
];

/**
 * http_hook and floor_http at an agent's pace: one request every `gapMs`, the two alternating,
 * each on a new connection. Between an agent's hooks the daemon idles (the model thinks, the
 * tool runs), so each request finds cold caches and code V8 has barely optimized; a tight loop
 * hides that.
 */
async function sparse(lab: Lab): Promise<Record<string, ScenarioResult>> {
  const count = lab.settings.quick ? 20 : 200;
  const gapMs = lab.settings.quick ? 100 : 250;
  const floor = lab.keep(await startProcess("http floor (sparse)", process.execPath, [join(REPO, "bench/dist/http-floor.js")], { ready: (line) => line.startsWith("ready ") }));
  const sides = [
    { name: "floor_http_sparse", url: addressIn(floor, /^ready (\S+)$/), want: (answer: HttpAnswer) => answer.status === 200 && answer.body === "{}", samples: [] as number[], mismatches: 0 },
    { name: "http_hook_sparse", url: await httpDaemon(lab, "http_hook_sparse"), want: (answer: HttpAnswer) => answer.status === 200 && permissionDecision(answer.body) === "allow", samples: [] as number[], mismatches: 0 },
  ];
  for (const side of sides) for (let i = 0; i < 5; i++) if (!side.want(await postHook(side.url, PRE_TOOL_USE_BODY))) throw new Error(`${side.name}: the warm-up was not answered as expected`);
  for (let i = 0; i < count; i++) {
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      const started = performance.now();
      const answer = await postHook(side.url, PRE_TOOL_USE_BODY);
      side.samples.push((performance.now() - started) * 1000);
      if (!side.want(answer)) side.mismatches++;
    }
  }
  return Object.fromEntries(
    sides.map((side) => [side.name, { ...summarize(side.samples), ...(side.mismatches > 0 ? { mismatches: side.mismatches } : {}), note: `one request every ${gapMs} ms, alternating, new connection each` }]),
  );
}

export const HTTP_SPARSE: Scenario = {
  type: "group",
  name: "http_sparse",
  what: "http_hook and floor_http at an agent's pace (a request every 100 ms quick, 250 ms full, alternating)",
  produces: ["floor_http_sparse", "http_hook_sparse"],
  run: sparse,
};
