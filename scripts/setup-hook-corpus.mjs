#!/usr/bin/env node
// Installs the differential lane's corpus of published hook scripts (test/agents/differential/corpus/
// <source>/source.json: registry, package, pinned version, the registry's integrity) into a cache
// reused between runs, as setup-agents.sh does for the agent binaries; prints the cache directory.

// The scripts are third-party code, so the repository records which package holds them, not them.
// They come from the package registries only: npm packages by `npm pack`, whose integrity must be
// the pinned one; PyPI wheels by `pip install --require-hashes`, which checks the pinned sha256.
// A source is complete only when its stamp exists, so an interrupted install is redone; a lock
// keeps concurrent runs (two vitest workers, two clones) from installing into the same place.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

// HOOKD_HOOK_CORPUS_SOURCES names another directory of sources: for testing this script itself.
const CORPUS = resolve(process.env.HOOKD_HOOK_CORPUS_SOURCES ?? join(import.meta.dirname, "../test/agents/differential/corpus"));
const cacheRoot = process.env.HOOKD_HOOK_CORPUS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "hookd-hook-corpus");
const STAMP = ".installed";

const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 });

// Where a source's pinned version lives in the cache (test/agents/differential/corpus.ts reads it the same way).
const installDir = (name, source) => join(cacheRoot, name, `${source.package.replace("/", "+")}@${source.version}`);

function readSource(name) {
  const file = join(CORPUS, name, "source.json");
  const source = JSON.parse(readFileSync(file, "utf8"));
  for (const key of ["registry", "package", "version", "licence", "files"]) {
    if (source[key] === undefined) throw new Error(`setup-hook-corpus: ${file} has no "${key}"`);
  }
  if (source.registry === "npm" && !/^sha512-/.test(source.integrity ?? "")) throw new Error(`setup-hook-corpus: ${file} pins no npm "integrity" (sha512-…)`);
  if (source.registry === "pypi" && !/^[0-9a-f]{64}$/.test(source.sha256 ?? "")) throw new Error(`setup-hook-corpus: ${file} pins no wheel "sha256"`);
  if (source.registry !== "npm" && source.registry !== "pypi") throw new Error(`setup-hook-corpus: ${file} names registry "${source.registry}"; npm or pypi`);
  return source;
}

// The package's files at the root of `staging`, as its tarball holds them under package/.
function installNpm(source, staging) {
  const spec = `${source.package}@${source.version}`;
  const [packed] = JSON.parse(run("npm", ["pack", spec, "--json", "--loglevel=error", "--pack-destination", staging], staging));
  if (packed?.integrity !== source.integrity) throw new Error(`setup-hook-corpus: npm's ${spec} has integrity ${packed?.integrity}, the corpus pins ${source.integrity}`);
  const tarball = join(staging, packed.filename);
  run("tar", ["-xzf", tarball, "-C", staging, "--strip-components=1"]);
  rmSync(tarball);
}

// A python3 need not have pip (Debian's has not without python3-pip): a venv of the cache's own
// brings one (python3-venv, which the polyglot setup needs too). Hooks still run with python3.
function pip() {
  const python = join(cacheRoot, ".pip-venv/bin/python");
  if (!existsSync(python)) run("python3", ["-m", "venv", join(cacheRoot, ".pip-venv")], cacheRoot);
  return python;
}

// The wheel's modules at the root of `staging`: a hook runs them with PYTHONPATH there.
function installPypi(source, staging) {
  const requirements = join(staging, ".requirements.txt");
  writeFileSync(requirements, `${source.package}==${source.version} --hash=sha256:${source.sha256}\n`);
  run(pip(), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--only-binary", ":all:", "--require-hashes", "--target", staging, "-r", requirements], staging);
  rmSync(requirements);
}

function install(name) {
  const source = readSource(name);
  const target = installDir(name, source);
  if (existsSync(join(target, STAMP))) return;
  mkdirSync(join(cacheRoot, name), { recursive: true });
  process.stderr.write(`setup-hook-corpus: installing ${source.package}@${source.version} from ${source.registry} into ${target}\n`);
  const staging = mkdtempSync(join(cacheRoot, name, ".staging-"));
  try {
    if (source.registry === "npm") installNpm(source, staging);
    else installPypi(source, staging);
    const missing = source.files.filter((path) => !existsSync(join(staging, path)));
    if (missing.length > 0) throw new Error(`setup-hook-corpus: ${source.package}@${source.version} has no ${missing.join(", ")}`);
    writeFileSync(join(staging, STAMP), "");
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

mkdirSync(cacheRoot, { recursive: true });
// Node has no file lock of its own: the script runs itself again under flock(1), as setup-agents.sh locks.
if (process.env.HOOKD_HOOK_CORPUS_LOCKED !== cacheRoot) {
  execFileSync("flock", [join(cacheRoot, ".lock"), process.execPath, import.meta.filename], { stdio: "inherit", env: { ...process.env, HOOKD_HOOK_CORPUS_LOCKED: cacheRoot } });
} else {
  for (const entry of readdirSync(CORPUS, { withFileTypes: true })) {
    if (entry.isDirectory()) install(entry.name);
  }
  process.stdout.write(`${cacheRoot}\n`);
}
