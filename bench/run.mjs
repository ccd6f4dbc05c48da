#!/usr/bin/env node
// `npm run bench`: compiles the TypeScript harness (bench/src -> bench/dist, incremental) and runs
// it with this process's arguments (--quick, --json FILE, --only a,b, --profile DIR; see
// bench/src/main.ts). Kept as plain .mjs so the package.json script needs no build step of its own.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const built = spawnSync(process.execPath, [tsc, "-b", join(here, "tsconfig.json")], { stdio: "inherit" });
if (built.status !== 0) {
  process.stderr.write("bench: compiling bench/src failed\n");
  process.exit(built.status ?? 1);
}
await import(join(here, "dist/main.js"));
