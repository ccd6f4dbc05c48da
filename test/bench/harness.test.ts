// The bench harness end to end, on its quick bounds: the floors (the single hop, the relay and the
// four-server fan-out relay) and hookd's fanout4 really start, answer through the process chain
// they stand for, and come out in the JSON with the ratios that compare them. It checks that the
// harness works, not how fast anything is: figures are never asserted (see bench/README.md).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { preToolRequest } from "../../bench/src/messages.js";
import { REPO, startNodeHelper, stopAll } from "../../bench/src/procs.js";

const run = promisify(execFile);

interface BenchJson {
  readonly scenarios: Record<string, { p50_us?: number; mismatches?: number; skipped?: string; cpu_us_per_call?: number }>;
  readonly ratios: Record<string, number | null | undefined>;
}

describe("npm run bench", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("measures the floors and fanout4 and writes their ratios", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-bench-test-"));
    dirs.push(dir);
    const json = join(dir, "bench.json");
    const scenarios = ["floor_single", "floor_relay", "floor_fanout4", "fanout4"];
    await run(process.execPath, [join(REPO, "bench/run.mjs"), "--quick", "--only", scenarios.join(","), "--json", json], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    const results = JSON.parse(await readFile(json, "utf8")) as BenchJson;
    for (const name of scenarios) {
      const scenario = results.scenarios[name];
      expect(scenario?.skipped, name).toBeUndefined();
      expect(scenario?.mismatches ?? 0, name).toBe(0);
      expect(scenario?.p50_us, name).toBeGreaterThan(0);
      expect(scenario?.cpu_us_per_call, name).toBeGreaterThan(0);
    }
    const ratio = (name: string): number => results.ratios[name] ?? Number.NaN;
    expect(ratio("floor_fanout4/floor_relay")).toBeCloseTo((results.scenarios["floor_fanout4"]?.p50_us ?? 0) / (results.scenarios["floor_relay"]?.p50_us ?? 1), 1);
    expect(ratio("fanout4/floor_fanout4")).toBeGreaterThan(0);
    expect(ratio("floor_relay/floor_single")).toBeGreaterThan(0);
  });
});

describe("bench options", () => {
  it("lists its options and scenarios with --help, and names an unknown option", async () => {
    const bench = join(REPO, "bench/run.mjs");
    const help = await run(process.execPath, [bench, "--help"], { cwd: REPO });
    expect(help.stdout).toMatch(/--quick/);
    expect(help.stdout).toMatch(/scenarios: .*floor_fanout4/);
    const refused = await run(process.execPath, [bench, "--bogus"], { cwd: REPO }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; stderr?: string },
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toMatch(/Unknown option '--bogus'/);
  });
});

describe("the floor relay", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await stopAll();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("consults every upstream: with one of them down the relay cannot answer", { timeout: 60_000 }, async () => {
    // bench/dist is compiled by the harness test above or by `npm run bench`; compile it here too.
    await run(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-b", join(REPO, "bench/tsconfig.json")], { cwd: REPO });
    const dir = await mkdtemp(join(tmpdir(), "hookd-relay-test-"));
    dirs.push(dir);
    const socket = (name: string): string => `unix://${join(dir, `${name}.sock`)}`;
    await Promise.all(["a", "b"].map((name) => startNodeHelper(`floor ${name}`, "floor-server.js", ["--listen", socket(name)])));
    await startNodeHelper("relay a,b", "relay.js", ["--listen", socket("relay-ab"), "--upstream", [socket("a"), socket("b")].join(",")]);
    await startNodeHelper("relay a,missing", "relay.js", ["--listen", socket("relay-am"), "--upstream", [socket("a"), socket("missing")].join(",")]);
    const both = createClient(pb.HookHost, socket("relay-ab"));
    const oneDown = createClient(pb.HookHost, socket("relay-am"));
    try {
      const answer = await both.evaluatePreTool(preToolRequest(), { timeoutMs: 5_000 });
      expect(answer.decision?.decision.case).toBe("allow");
      await expect(oneDown.evaluatePreTool(preToolRequest(), { timeoutMs: 5_000 })).rejects.toThrow(/unavailable|no connection|ENOENT|connect/i);
    } finally {
      closeClient(both);
      closeClient(oneDown);
    }
  });
});
