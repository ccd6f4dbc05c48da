// The test lanes: which test files make up each lane, and on which Node versions it runs. The
// vitest config makes one project per lane and scripts/test-node-versions.mjs picks lanes per
// Node. Every test file of the repository is in exactly one lane; one in none stops every run.

import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * `nodes: "every"`: behaviour that depends on the Node version (the daemon, the SDK, the plugin
 * kinds, streams, the CLI), run on the Node running npm and on every other version the test
 * command fetched. `nodes: "first"`: external programs driven the same way whatever Node hookd
 * runs on, run once, on the Node running npm (Node 20 in CI).
 * `kind: "unit"`: sources only, passes before a build. `kind: "e2e"`: runs the built code in
 * child processes, after `npm run build`.
 * A path ending in "/" holds every test file under it; a file named on its own belongs to that
 * lane rather than to its directory's.
 */
export const LANES = [
  // The agent conformance table needs no agent binary: every agent's JSON through the endpoint.
  { name: "unit:daemon", kind: "unit", nodes: "every", paths: ["daemon/test/", "test/agents/conformance.test.ts"] },
  { name: "unit:sdk", kind: "unit", nodes: "every", paths: ["sdk/test/"] },
  { name: "e2e:host", kind: "e2e", nodes: "every", paths: ["test/host/"] },
  { name: "e2e:plugins", kind: "e2e", nodes: "every", paths: ["test/plugins/", "hooks-examples/typescript/test/"] },
  { name: "e2e:command", kind: "e2e", nodes: "every", paths: ["test/command/"] },
  // The conformance table's TypeScript flavours and the re-admission rows (a raw grpc-js plugin
  // and the raw Python one).
  { name: "e2e:conformance", kind: "e2e", nodes: "every", paths: ["test/conformance/"] },
  { name: "e2e:faults", kind: "e2e", nodes: "every", paths: ["test/faults/"] },
  { name: "e2e:security", kind: "e2e", nodes: "every", paths: ["test/security/"] },
  { name: "e2e:ops", kind: "e2e", nodes: "every", paths: ["test/ops/"] },
  // The SDK's tarball is installed and run on this Node, as a plugin author would.
  { name: "e2e:packaging", kind: "e2e", nodes: "every", paths: ["test/packaging/"] },
  // The benchmark's harness and arithmetic: a development tool, run on the Node running npm.
  { name: "e2e:bench", kind: "e2e", nodes: "first", paths: ["test/bench/"] },
  // The SDK's client balancing over grpc-js alone, no proxy in front.
  { name: "e2e:fleet-client", kind: "e2e", nodes: "every", paths: ["test/fleet/client-balancing.test.ts"] },
  // Real agent binaries (scripts/setup-agents.sh: Claude Code, Codex, Gemini CLI, Qwen Code, GitHub
  // Copilot CLI, Factory Droid, Cline, OpenCode, pi), and the differential lane's hook scripts from
  // npm and PyPI (scripts/setup-hook-corpus.mjs). test/command's
  // gemini.test.ts drives the real Gemini CLI in one block only: the rest is the daemon's.
  { name: "e2e:agents", kind: "e2e", nodes: "first", paths: ["test/agents/", "test/command/gemini-serve.test.ts"] },
  // nginx and HAProxy in front of several daemons (scripts/setup-fleet.sh).
  { name: "e2e:fleet", kind: "e2e", nodes: "first", paths: ["test/fleet/"] },
  // systemd booted in systemd-nspawn (scripts/setup-nspawn.sh).
  { name: "e2e:nspawn", kind: "e2e", nodes: "first", paths: ["test/ops/nspawn.test.ts"] },
  // The console page in Chromium (scripts/setup-chromium.sh).
  { name: "e2e:browser", kind: "e2e", nodes: "first", paths: ["test/ops/console.test.ts"] },
  // The conformance table's Python and Go plugins (their SDKs and raw stubs): the same programs
  // whatever Node runs the daemon.
  { name: "e2e:conformance-polyglot", kind: "e2e", nodes: "first", paths: ["test/conformance/polyglot.test.ts", "test/conformance/python-raw-plugin.test.ts"] },
  // The OpenTelemetry Collector (scripts/setup-otel-collector.sh); the daemon's tracing itself is
  // in unit:daemon.
  { name: "e2e:otel-collector", kind: "e2e", nodes: "first", paths: ["test/ops/tracing.test.ts"] },
];

/** Test files that are not this repository's tests, and why. */
export const NOT_OURS = [
  // The test `hookd init plugin` writes into a new plugin; test/ops/init.test.ts runs it there.
  "daemon/templates/",
];

// Installed dependencies, build output, virtualenvs and the tests' scratch space.
const SKIPPED_DIRECTORIES = new Set([".git", "node_modules", "dist", ".venv", ".tmp", "__pycache__"]);
// What vitest takes for a test file by default.
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
// Lane files go to vitest as include globs: a name with a glob character would match others.
const PLAIN_PATH = /^[\w./-]+$/;

/** Every test file under `root`, as a path relative to it with "/" separators, sorted. */
export function findTestFiles(root) {
  const found = [];
  const walk = (relative) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path);
      } else if (entry.isFile() && TEST_FILE.test(entry.name) && !NOT_OURS.some((prefix) => path.startsWith(prefix))) {
        found.push(path);
      }
    }
  };
  walk("");
  return found.sort();
}

/**
 * The lanes with their files, in LANES order. Throws one error naming every problem: a test file
 * in no lane, a lane path that matches no test file (a renamed file would fall into its
 * directory's lane unnoticed), a path in two lanes, a malformed lane.
 */
export function resolveLanes(root, lanes = LANES) {
  const problems = checkLaneDefinitions(lanes);
  const filesByLane = new Map(lanes.map((lane) => [lane.name, []]));
  const usedPaths = new Set();
  for (const file of findTestFiles(root)) {
    const owner = mostSpecificPath(lanes, file);
    if (owner === undefined) {
      problems.push(`${file} is in no lane: add it, or its directory, to a lane in scripts/test-lanes.mjs`);
      continue;
    }
    if (!PLAIN_PATH.test(file)) problems.push(`${file}: a test file's path may only hold letters, digits, "_", "-", "." and "/"`);
    usedPaths.add(owner.path);
    filesByLane.get(owner.lane.name)?.push(file);
  }
  for (const lane of lanes) {
    for (const path of lane.paths) {
      if (!usedPaths.has(path)) problems.push(`lane ${lane.name}: ${path} matches no test file (moved or renamed?)`);
    }
  }
  if (problems.length > 0) throw new Error(`the test lanes do not add up:\n  ${problems.join("\n  ")}`);
  return lanes.map((lane) => ({ lane, files: filesByLane.get(lane.name) ?? [] }));
}

/** The lanes a run on the Node running npm (`first`) or on another version runs. */
export function lanesForNode(resolved, first) {
  return resolved.filter(({ lane }) => first || lane.nodes === "every");
}

function mostSpecificPath(lanes, file) {
  let owner;
  for (const lane of lanes) {
    for (const path of lane.paths) {
      const matches = path.endsWith("/") ? file.startsWith(path) : file === path;
      if (matches && (owner === undefined || path.length > owner.path.length)) owner = { lane, path };
    }
  }
  return owner;
}

function checkLaneDefinitions(lanes) {
  const problems = [];
  const names = new Set();
  const owners = new Map();
  for (const lane of lanes) {
    if (names.has(lane.name)) problems.push(`two lanes are named ${lane.name}`);
    names.add(lane.name);
    if (lane.kind !== "unit" && lane.kind !== "e2e") problems.push(`lane ${lane.name}: kind must be "unit" or "e2e", not ${JSON.stringify(lane.kind)}`);
    if (lane.nodes !== "every" && lane.nodes !== "first") problems.push(`lane ${lane.name}: nodes must be "every" or "first", not ${JSON.stringify(lane.nodes)}`);
    if (lane.paths.length === 0) problems.push(`lane ${lane.name} has no paths`);
    for (const path of lane.paths) {
      const other = owners.get(path);
      if (other !== undefined) problems.push(`${path} is in two lanes: ${other} and ${lane.name}`);
      owners.set(path, lane.name);
      if (!PLAIN_PATH.test(path) || path.startsWith("/") || path.split("/").includes("..")) {
        problems.push(`lane ${lane.name}: ${path} is not a plain path relative to the repository`);
      }
    }
  }
  return problems;
}
