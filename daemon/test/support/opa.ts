// The real OPA for tests that need Rego bundles: installed once (cached, scripts/setup-opa.sh) and
// run to compile policies to Wasm bundles, exactly as a user builds them.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SETUP = fileURLToPath(new URL("../../../scripts/setup-opa.sh", import.meta.url));

/** A first install compiles OPA from source: minutes on a busy machine. Later runs are cached. */
export const OPA_SETUP_TIMEOUT_MS = 900_000;

/** The path of the opa binary (installed on first use). */
export function opaBinary(): string {
  return execFileSync("bash", [SETUP], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** Builds `rego` (one policy file) into `<dir>/<name>.tar.gz`; `wasm: false` builds a plain (non-Wasm) bundle. */
export function buildBundle(opa: string, dir: string, name: string, rego: string, entrypoint: string, wasm = true): string {
  const source = join(dir, `${name}-src`);
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, "policy.rego"), rego);
  const out = join(dir, `${name}.tar.gz`);
  execFileSync(opa, ["build", ...(wasm ? ["-t", "wasm"] : []), "-e", entrypoint, "-o", out, source], { stdio: ["ignore", "ignore", "inherit"] });
  return out;
}
