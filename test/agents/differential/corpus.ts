// The differential lane's corpus of published hook scripts: scripts/setup-hook-corpus.mjs installs
// each source (corpus/<source>/source.json: registry, package, pinned version, the registry's
// integrity) into a cache once per run; a scenario names its files by their path in the package.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";

interface Source {
  readonly registry: "npm" | "pypi";
  readonly package: string;
  readonly version: string;
  readonly licence: string;
  readonly files: readonly string[];
}

let cacheRoot: string | undefined;

function source(name: string): Source {
  return JSON.parse(readFileSync(join(import.meta.dirname, "corpus", name, "source.json"), "utf8")) as Source;
}

/** The directory holding `name`'s installed package (a PyPI source's modules: its PYTHONPATH); installs the corpus on first use. */
export function corpusRoot(name: string): string {
  cacheRoot ??= execFileSync(process.execPath, [join(REPO, "scripts/setup-hook-corpus.mjs")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 300_000 }).trim();
  const pinned = source(name);
  // The same directory the setup script installs into.
  return join(cacheRoot, name, `${pinned.package.replace("/", "+")}@${pinned.version}`);
}

/** The absolute path of one corpus file; a path the source does not list is a scenario's mistake. */
export function corpusFile(name: string, path: string): string {
  if (!source(name).files.includes(path)) throw new Error(`corpus ${name} lists no file ${path}: add it to corpus/${name}/source.json's "files"`);
  return join(corpusRoot(name), path);
}
