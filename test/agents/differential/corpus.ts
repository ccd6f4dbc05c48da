// The differential lane's corpus of public hook scripts: scripts/setup-hook-corpus.mjs brings each
// source (corpus/<source>/source.json: repository, pinned commit, sha256 per file) into a cache
// once per run; a scenario names its files by their path in the source repository.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";

interface Source {
  readonly repository: string;
  readonly commit: string;
  readonly licence: string;
  readonly files: Record<string, string>;
}

let cacheRoot: string | undefined;

function source(name: string): Source {
  return JSON.parse(readFileSync(join(import.meta.dirname, "corpus", name, "source.json"), "utf8")) as Source;
}

/** The directory holding `name`'s files at their repository paths; materializes the corpus on first use. */
export function corpusRoot(name: string): string {
  cacheRoot ??= execFileSync(process.execPath, [join(REPO, "scripts/setup-hook-corpus.mjs")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 300_000 }).trim();
  return join(cacheRoot, name, source(name).commit);
}

/** The absolute path of one corpus file; a path the source does not pin is a scenario's mistake. */
export function corpusFile(name: string, path: string): string {
  if (!(path in source(name).files)) throw new Error(`corpus ${name} pins no file ${path}: add it (with its sha256) to corpus/${name}/source.json`);
  return join(corpusRoot(name), path);
}
