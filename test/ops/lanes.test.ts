// The test lanes (scripts/test-lanes.mjs) and how scripts/test-node-versions.mjs runs them: every
// test file of the repository is in exactly one lane, the lanes that drive external programs run
// on the Node running npm alone, and a test file in no lane stops the run before any test runs.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LANES, NOT_OURS, lanesForNode, resolveLanes } from "../../scripts/test-lanes.mjs";
import type { Lane } from "../../scripts/test-lanes.mjs";
import { ROOT } from "./support.js";

const RUNNER = join(ROOT, "scripts/test-node-versions.mjs");
const resolved = resolveLanes(ROOT);
const laneOf = new Map(resolved.flatMap(({ lane, files }) => files.map((file) => [file, lane] as const)));
const EXTERNAL_PROGRAM_LANES = ["e2e:agents", "e2e:fleet", "e2e:nspawn", "e2e:browser", "e2e:otel-collector"];
/** Run once too, though they drive no external program: see scripts/test-lanes.mjs for why. */
const ONCE_LANES = ["e2e:bench", "e2e:conformance-polyglot"];

const scratch = mkdtempSync(join(tmpdir(), "hookd-lanes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A directory holding `files` (empty test files), for resolveLanes to walk. */
function tree(name: string, files: readonly string[]): string {
  const root = join(scratch, name);
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), "");
  }
  return root;
}

function lane(name: string, paths: readonly string[], nodes: Lane["nodes"] = "every"): Lane {
  return { name, kind: "e2e", nodes, paths };
}

function runner(script: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the lanes of this repository", () => {
  it("hold every test file git knows of (tracked or new), each in exactly one lane", () => {
    // git's view, not the lanes module's own walk: a directory the walk skipped would show here.
    const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\n");
    const testFiles = listed.filter((file) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) && !NOT_OURS.some((prefix) => file.startsWith(prefix)));
    expect(testFiles.length).toBeGreaterThan(100);
    expect(testFiles.filter((file) => !laneOf.has(file))).toEqual([]);
    const inLanes = resolved.flatMap(({ files }) => files);
    expect(new Set(inLanes).size).toBe(inLanes.length);
    expect(laneOf.get("test/ops/lanes.test.ts")?.name).toBe("e2e:ops");
  });

  it("run the lanes that drive external programs on the Node running npm alone, and the rest on every Node", () => {
    const onOtherNodes = lanesForNode(resolved, false).map(({ lane: { name } }) => name);
    const onFirstNode = lanesForNode(resolved, true).map(({ lane: { name } }) => name);
    expect(onFirstNode).toEqual(LANES.map(({ name }) => name));
    for (const name of EXTERNAL_PROGRAM_LANES) expect(onOtherNodes).not.toContain(name);
    for (const name of ["unit:daemon", "unit:sdk", "e2e:host", "e2e:plugins", "e2e:command", "e2e:conformance", "e2e:ops"]) expect(onOtherNodes).toContain(name);
    for (const name of ONCE_LANES) expect(onOtherNodes).not.toContain(name);
    expect(onOtherNodes.length + EXTERNAL_PROGRAM_LANES.length + ONCE_LANES.length).toBe(LANES.length);
  });

  it("put each file that drives an external program in a lane for the Node running npm alone", () => {
    // A file naming one of these harnesses or setups drives a program outside hookd, the same on
    // every Node.
    const drivesExternalProgram = /agents\/support\/agents|support\/nginx|support\/haproxy|setup-chromium|setup-nspawn|nspawn\/run\.sh|setup-otel-collector|support\/otel-collector/;
    const exceptions = new Set([
      "test/command/gemini.test.ts", // the daemon's Gemini dialect, beside one block with the real CLI
      "test/ops/lanes.test.ts", // names them to look for them
    ]);
    const external = [...laneOf.keys()].filter((file) => !exceptions.has(file) && drivesExternalProgram.test(readFileSync(join(ROOT, file), "utf8")));
    expect(external.length).toBeGreaterThan(5);
    expect(external.filter((file) => laneOf.get(file)?.nodes !== "first")).toEqual([]);
    // The agent conformance table drives no agent binary: every agent's JSON through the endpoint.
    const underExternalDirectories = [...laneOf.keys()].filter((file) => (file.startsWith("test/agents/") && file !== "test/agents/conformance.test.ts") || (file.startsWith("test/fleet/") && file !== "test/fleet/client-balancing.test.ts"));
    expect(underExternalDirectories.filter((file) => laneOf.get(file)?.nodes !== "first")).toEqual([]);
  });
});

describe("resolveLanes", () => {
  it("gives a file named on its own to its lane rather than to its directory's", () => {
    const root = tree("specific", ["test/ops/cli.test.ts", "test/ops/console.test.ts", "test/ops/fixtures/x.json"]);
    const lanes = resolveLanes(root, [lane("ops", ["test/ops/"]), lane("browser", ["test/ops/console.test.ts"], "first")]);
    expect(lanes.map(({ lane: { name }, files }) => [name, files])).toEqual([
      ["ops", ["test/ops/cli.test.ts"]],
      ["browser", ["test/ops/console.test.ts"]],
    ]);
  });

  it("refuses a test file in no lane, a path that matches no file and a path in two lanes, naming each", () => {
    const root = tree("problems", ["test/host/a.test.ts", "test/new/b.test.ts", "node_modules/x/installed.test.ts", "test/.tmp/scratch.test.ts"]);
    const problems = (() => {
      try {
        resolveLanes(root, [lane("host", ["test/host/"]), lane("gone", ["test/renamed.test.ts"]), lane("again", ["test/host/"])]);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return "no error";
    })();
    expect(problems).toContain("test/new/b.test.ts is in no lane");
    expect(problems).toContain("lane gone: test/renamed.test.ts matches no test file");
    expect(problems).toContain("test/host/ is in two lanes: host and again");
    // Installed dependencies and the tests' scratch space hold no tests of ours.
    expect(problems).not.toContain("installed.test.ts");
    expect(problems).not.toContain("scratch.test.ts");
  });
});

describe("scripts/test-node-versions.mjs", () => {
  it("plans every lane on the Node running npm and the Node-dependent lanes on the others", async () => {
    const result = await runner(RUNNER, "--dry-run", dirname(process.execPath));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const plans = result.stdout.split("\n").filter((line) => line.startsWith("== the suite on Node "));
    expect(plans).toHaveLength(2);
    const lanesOf = (plan: string) => plan.slice(plan.lastIndexOf(": ") + 2).split(", ");
    expect(lanesOf(plans[0] ?? "")).toEqual(LANES.map(({ name }) => name));
    expect(lanesOf(plans[1] ?? "")).toEqual(LANES.filter(({ nodes }) => nodes === "every").map(({ name }) => name));
    expect(plans[0]).toContain(`${resolved.reduce((count, { files }) => count + files.length, 0)} files`);
  });

  it("stops before any test when a test file is in no lane", async () => {
    const root = tree("stray", ["test/somewhere-new/stray.test.ts"]);
    mkdirSync(join(root, "scripts"));
    for (const script of ["test-node-versions.mjs", "test-lanes.mjs"]) copyFileSync(join(ROOT, "scripts", script), join(root, "scripts", script));
    const result = await runner(join(root, "scripts/test-node-versions.mjs"));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("test/somewhere-new/stray.test.ts is in no lane");
    expect(result.stdout).not.toContain("== the suite on Node");
  });

  it("refuses an unknown lane or option (exit 2)", async () => {
    const unknownLane = await runner(RUNNER, "--dry-run", "--lane", "e2e:nowhere");
    expect(unknownLane.code).toBe(2);
    expect(unknownLane.stderr).toContain("--lane needs one of: unit:daemon");
    expect((await runner(RUNNER, "--dryrun")).code).toBe(2);
  });
});
