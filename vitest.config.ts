import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { resolveLanes } from "./scripts/test-lanes.mjs";

// Tests import the workspace packages' TypeScript sources through the "source" export condition,
// so no build is needed to run them; processes and worker threads the tests start run the built
// dist/. One project per test lane (scripts/test-lanes.mjs): the "unit:" lanes (sdk/test,
// daemon/test) run no built code in a child process or worker thread, so they pass on a fresh
// clone; the "e2e:" lanes do, after `npm run test:e2e` has built and prepared them. Loading this
// config fails when a test file is in no lane, so a new file never silently runs nowhere.
const conditions = ["source", "node", "import", "default"];

const lanes = resolveLanes(import.meta.dirname);

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    // Test files mostly wait on the daemons, plugins and agents they start, so two run at once
    // even on a 2-core machine (vitest's default there is one: cores - 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      ...lanes.map(({ lane, files }) => ({
        extends: true as const,
        test: { name: lane.name, include: [...files], ...(lane.kind === "e2e" ? { testTimeout: 60_000, hookTimeout: 120_000 } : {}) },
      })),
      // The real agents' hook latency (bench/agents.mjs sets HOOKD_BENCH_AGENTS): a bench, never
      // part of `vitest run`, as tests assert behaviour and never durations.
      ...(process.env.HOOKD_BENCH_AGENTS === "1" ? [{ extends: true as const, test: { name: "agents-bench", include: ["bench/agents/*.run.ts"], testTimeout: 900_000 } }] : []),
    ],
  },
});
