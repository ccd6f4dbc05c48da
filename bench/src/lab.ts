// What scenarios share: the run's settings and temp dir, the helper processes (floor server,
// relay, remote plugins) and daemons they start, typed HookHost clients, and a check that a
// daemon really decides through the plugin under test before anything is measured.
import { join } from "node:path";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { preToolRequest } from "./messages.js";
import { BENCH_DIST, REPO, startDaemon, startNodeHelper, startProcess } from "./procs.js";
import type { Daemon, Proc } from "./procs.js";

export type HostClient = TypedClient<typeof pb.HookHost>;

export interface Settings {
  readonly quick: boolean;
  /** Where sockets, configs and hooks files go (removed at the end). */
  readonly dir: string;
  /** When set, daemons of the scenarios in `profileScenarios` run with --cpu-prof into this dir. */
  readonly profileDir?: string;
  readonly profileScenarios: ReadonlySet<string>;
  /** The daemon build to run (cli.js); default daemon/dist/cli.js. */
  readonly cli?: string;
}

/** Why a scenario could not run (a plugin kind not wired into the daemon yet, a missing tool). */
export class Skip extends Error {
  override readonly name = "Skip";
}

/** Socket names are unique across labs sharing a dir (ab.ts runs two). */
let sockets = 0;

export class Lab {
  readonly settings: Settings;
  readonly #procs: Proc[] = [];
  readonly #shared: Proc[] = [];
  readonly #clients: object[] = [];
  #floor: Promise<{ server: Proc; relay: Proc; serverTarget: string; relayTarget: string }> | undefined;

  constructor(settings: Settings) {
    this.settings = settings;
  }

  socket(name: string): string {
    return `unix://${join(this.settings.dir, `${name}-${++sockets}.sock`)}`;
  }

  /** The floor server and the relay in front of it; started once per run. */
  floor(): Promise<{ server: Proc; relay: Proc; serverTarget: string; relayTarget: string }> {
    this.#floor ??= (async () => {
      const serverTarget = this.socket("floor");
      const relayTarget = this.socket("relay");
      const profile = this.settings.profileScenarios.has("floor");
      const server = this.#share(await startNodeHelper("floor server", "floor-server.js", ["--listen", serverTarget], profile ? this.#profileArgs("floor-server") : []));
      const relay = this.#share(await startNodeHelper("relay", "relay.js", ["--listen", relayTarget, "--upstream", serverTarget], profile ? this.#profileArgs("floor-relay") : []));
      return { server, relay, serverTarget, relayTarget };
    })();
    return this.#floor;
  }

  /** Four floor servers behind a relay that calls them all at once (floor_fanout4). */
  async floorFanout(): Promise<{ relay: Proc; servers: Proc[]; relayTarget: string }> {
    const targets = Array.from({ length: 4 }, (_, i) => this.socket(`fan-floor-${i + 1}`));
    const servers = await Promise.all(targets.map((target, i) => startNodeHelper(`fan floor server ${i + 1}`, "floor-server.js", ["--listen", target])));
    const relayTarget = this.socket("fan-relay");
    const relay = await startNodeHelper("fan relay", "relay.js", ["--listen", relayTarget, "--upstream", targets.join(",")]);
    return { relay: this.#keep(relay), servers: servers.map((server) => this.#keep(server)), relayTarget };
  }

  /** A floor server of this scenario's own (the sessions floor needs a fresh process). */
  async floorServer(name: string): Promise<{ proc: Proc; target: string }> {
    const target = this.socket(name);
    return { proc: this.#keep(await startNodeHelper(name, "floor-server.js", ["--listen", target])), target };
  }

  /** bench-policy served by servePlugin on a fresh Unix socket; its manifest asks for `transport` (the unary scenarios': unary). */
  async remotePolicy(name: string, harmless: "allow" | "pass", profileAs?: string, transport: "stream" | "unary" = "unary"): Promise<{ proc: Proc; target: string }> {
    const target = this.socket(name);
    const profile = profileAs === undefined ? [] : this.#profileArgs(profileAs);
    const args = [...profile, join(BENCH_DIST, "plugins/serve-policy.js"), "--listen", target, "--name", name, "--harmless", harmless, "--transport", transport];
    const proc = await startProcess(name, process.execPath, args, {
      ready: (line) => line === "ready",
    });
    return { proc: this.#keep(proc), target };
  }

  /** The Python bench-policy (pre-tool) or the Python example plugin (post-tool). */
  async python(which: "bench-policy-py" | "redact-secrets"): Promise<{ proc: Proc; target: string }> {
    const python = join(REPO, ".venv/bin/python");
    const target = this.socket(which);
    const script = which === "bench-policy-py" ? join(REPO, "bench/plugins/python_policy.py") : join(REPO, "hooks-examples/python/redact_secrets.py");
    try {
      const proc = await startProcess(which, python, [script, "--listen", target], {
        env: { PYTHONPATH: join(REPO, "sdk-python/src"), PYTHONUNBUFFERED: "1" },
        // bench-policy-py prints "ready"; the example logs "redact-secrets: serving on ..." on stderr.
        ready: (line) => line === "ready" || line.includes("serving on"),
        timeoutMs: 15_000,
      });
      return { proc: this.#keep(proc), target };
    } catch (error) {
      throw new Skip(`cannot start the Python plugin (run npm run setup:polyglot): ${error instanceof Error ? error.message.split("\n").slice(0, 3).join(" | ") : String(error)}`);
    }
  }

  /** Starts a daemon with `plugins`; a plugin kind the daemon does not have yet is a Skip. */
  async daemon(name: string, plugins: readonly Record<string, unknown>[], extra: Record<string, unknown> = {}, cli = this.settings.cli): Promise<Daemon> {
    try {
      const daemon = await startDaemon({
        ...(cli === undefined ? {} : { cli }),
        dir: this.settings.dir,
        name,
        config: { plugins, log: { level: "info" }, ...extra },
        nodeArgs: this.settings.profileScenarios.has(name) ? this.#profileArgs(name) : [],
      });
      return this.#keep(daemon);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const missing = /not wired in yet|is not available in this build/.exec(message);
      if (missing !== null) throw new Skip(message.split("\n").find((line) => missing[0] !== undefined && line.includes(missing[0])) ?? message);
      throw error;
    }
  }

  /** The node flags that profile a helper process of scenario `name`, when it is profiled. */
  profileArgsFor(name: string): string[] {
    return this.settings.profileScenarios.has(name) ? this.#profileArgs(name) : [];
  }

  #profileArgs(name: string): string[] {
    const dir = this.settings.profileDir;
    // A directory per process: every thread writes its own profile (a fixed --cpu-prof-name would
    // let a worker thread's overwrite the main thread's); main.ts reads the main thread's.
    return dir === undefined ? [] : ["--cpu-prof", "--cpu-prof-interval", "200", "--cpu-prof-dir", join(dir, name)];
  }

  /** A HookHost client; `ownChannel` gives it its own connection, as a separate agent has. */
  client(target: string, ownChannel = false): HostClient {
    const client = createClient(pb.HookHost, target, ownChannel ? { channelOptions: { "grpc.use_local_subchannel_pool": 1 } } : {});
    this.#clients.push(client);
    return client;
  }

  /** Kept for the whole run (the floor's processes). */
  #share<P extends Proc>(proc: P): P {
    this.#shared.push(proc);
    return proc;
  }

  /** A process a scenario started itself, kept (and stopped) like the lab's own. */
  keep<P extends Proc>(proc: P): P {
    return this.#keep(proc);
  }

  /** Kept until the scenario that started it releases it. */
  #keep<P extends Proc>(proc: P): P {
    this.#procs.push(proc);
    return proc;
  }

  /** Stops the processes started since `mark` (scenario-scoped daemons and plugins). */
  mark(): number {
    return this.#procs.length;
  }

  /** The pids of the processes started since `mark` that are still kept. */
  pidsSince(mark: number): number[] {
    return this.#procs.slice(mark).map((proc) => proc.pid);
  }

  async release(mark: number): Promise<void> {
    const procs = this.#procs.splice(mark);
    await Promise.allSettled(procs.map((proc) => proc.stop()));
  }

  async close(): Promise<void> {
    for (const client of this.#clients.splice(0)) closeClient(client);
    await this.release(0);
    await Promise.allSettled(this.#shared.splice(0).map((proc) => proc.stop()));
    this.#floor = undefined;
  }
}

export interface Checked {
  /** One measured call; counts answers that were not decided as expected. */
  readonly call: () => Promise<void>;
  readonly mismatches: () => number;
}

/**
 * Waits (up to `timeoutMs`) until pre-tool evaluations through `client` are allowed by
 * `decidedBy` (a remote plugin may still be connecting when the daemon says it serves), then
 * returns the call to measure. Fails with the last answer when the daemon never decides so.
 */
export async function expectPreTool(client: HostClient, decidedBy: string, timeoutMs = 15_000, agentId?: string): Promise<Checked> {
  const request = preToolRequest(agentId);
  const deadline = performance.now() + timeoutMs;
  let last = "";
  for (;;) {
    try {
      const answer = await client.evaluatePreTool(request, { waitForReady: true, timeoutMs: 10_000 });
      if (answer.decision?.decision.case === "allow" && answer.trace?.decidedBy === decidedBy) break;
      last = `${answer.decision?.decision.case ?? "none"} by ${answer.trace?.decidedBy ?? "?"} (${answer.trace?.failureCause ?? ""}): ${JSON.stringify(answer.decision?.decision.value ?? {})}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (performance.now() > deadline) throw new Error(`expected allow by ${decidedBy}, got ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let mismatches = 0;
  return {
    call: async () => {
      const answer = await client.evaluatePreTool(request, { timeoutMs: 10_000 });
      if (answer.trace?.decidedBy !== decidedBy) mismatches++;
    },
    mismatches: () => mismatches,
  };
}
