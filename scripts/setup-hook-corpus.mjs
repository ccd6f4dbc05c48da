#!/usr/bin/env node
// Brings the differential lane's corpus of public hook scripts (test/agents/differential/corpus/
// <source>/source.json: repository, pinned commit, each file's sha256) into a cache reused between
// runs, as setup-agents.sh does for the agent binaries; prints the cache directory.

// The scripts are third-party code, so the repository records where they come from, not them.
// Each file comes from HOOKD_HOOK_CORPUS_GIT (a directory holding a git directory per source,
// named owner+name/repo or owner+name, for an offline machine) when it has the commit, else
// from raw.githubusercontent.com at the pinned commit. A file whose sha256 differs is refused.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

const CORPUS = resolve(import.meta.dirname, "../test/agents/differential/corpus");
const cacheRoot = process.env.HOOKD_HOOK_CORPUS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "hookd-hook-corpus");

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

function localGitDir(repository) {
  const root = process.env.HOOKD_HOOK_CORPUS_GIT;
  if (root === undefined || root === "") return undefined;
  const name = repository.replace("/", "+");
  return [join(root, name, "repo"), join(root, name)].find((dir) => existsSync(dir));
}

async function fileBytes(repository, commit, path) {
  const git = localGitDir(repository);
  if (git !== undefined) {
    try {
      return execFileSync("git", ["--git-dir", git, "show", `${commit}:${path}`], { maxBuffer: 16 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      // Not at that commit there: fall through to GitHub.
    }
  }
  const url = `https://raw.githubusercontent.com/${repository}/${commit}/${path}`;
  const response = await fetch(url).catch((error) => {
    throw new Error(`setup-hook-corpus: cannot fetch ${url} (${error.cause?.code ?? error.message}); without GitHub access, point HOOKD_HOOK_CORPUS_GIT at a directory holding a git copy of ${repository}`);
  });
  if (!response.ok) throw new Error(`setup-hook-corpus: ${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

async function materialize(sourceName) {
  const source = JSON.parse(readFileSync(join(CORPUS, sourceName, "source.json"), "utf8"));
  const target = join(cacheRoot, sourceName, source.commit);
  if (existsSync(join(target, ".complete"))) return;
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const [path, expected] of Object.entries(source.files)) {
    const bytes = await fileBytes(source.repository, source.commit, path);
    const actual = sha256(bytes);
    if (actual !== expected) throw new Error(`setup-hook-corpus: ${source.repository}@${source.commit}:${path} has sha256 ${actual}, the corpus pins ${expected}`);
    const out = join(staging, path);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, bytes);
    // Scripts keep the mode a checkout would give them: hooks files may run them by path.
    if (/\.(sh|py)$/.test(path)) chmodSync(out, 0o755);
  }
  writeFileSync(join(staging, ".complete"), "");
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  renameSync(staging, target);
}

for (const entry of readdirSync(CORPUS, { withFileTypes: true })) {
  if (entry.isDirectory()) await materialize(entry.name);
}
process.stdout.write(`${cacheRoot}\n`);
