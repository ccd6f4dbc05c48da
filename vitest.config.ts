import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Tests import the workspace packages' TypeScript sources through the "source" export condition,
// so no build is needed to run them; processes and worker threads the tests start run the built
// dist/. Hence two lanes: "unit" (sdk/test, daemon/test) runs no built code in a child process
// or worker thread, so it passes on a fresh clone; "e2e" (test/) does, after `npm run test:e2e`
// has built and prepared it.
const conditions = ["source", "node", "import", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    // Test files mostly wait on the daemons, plugins and agents they start, so two run at once
    // even on a 2-core machine (vitest's default there is one: cores - 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["sdk/test/**/*.test.ts", "daemon/test/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts", "hooks-examples/typescript/test/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The real agents' hook latency (bench/agents.mjs sets HOOKD_BENCH_AGENTS): a bench, never
      // part of `vitest run`, as tests assert behaviour and never durations.
      ...(process.env.HOOKD_BENCH_AGENTS === "1" ? [{ extends: true as const, test: { name: "agents-bench", include: ["bench/agents/*.run.ts"], testTimeout: 900_000 } }] : []),
    ],
  },
});
