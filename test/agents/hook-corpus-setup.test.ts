// scripts/setup-hook-corpus.mjs: the differential lane's corpus comes from the package registries
// at the pinned version, checked by the registry's own integrity, and is installed once per cache.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO } from "../support/daemon-process.js";
import { tempDir } from "./support/agents.js";

const run = promisify(execFile);
const SCRIPT = join(REPO, "scripts/setup-hook-corpus.mjs");
const pinned = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(REPO, "test/agents/differential/corpus", name, "source.json"), "utf8")) as Record<string, unknown>;

/** Runs the setup with one source of our own in a fresh cache; its exit, stdout and stderr. */
async function setup(sources: Record<string, Record<string, unknown>>, cache?: string): Promise<{ ok: boolean; stdout: string; stderr: string; cache: string }> {
  const dir = await tempDir("corpus-sources");
  for (const [name, source] of Object.entries(sources)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "source.json"), JSON.stringify(source));
  }
  const cacheDir = cache ?? (await tempDir("corpus-cache"));
  const env = { ...process.env, HOOKD_HOOK_CORPUS_SOURCES: dir, HOOKD_HOOK_CORPUS_CACHE: cacheDir };
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT], { env, encoding: "utf8" });
    return { ok: true, stdout, stderr, cache: cacheDir };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string };
    return { ok: false, stdout: failed.stdout, stderr: failed.stderr, cache: cacheDir };
  }
}

describe("the hook corpus setup", () => {
  it("installs an npm source at its pinned version once, and a second run reuses the cache", async () => {
    const first = await setup({ "cc-safety-net": pinned("cc-safety-net") });
    expect(first.stderr).toContain("installing cc-safety-net@2.4.5 from npm");
    expect(first.stdout.trim()).toBe(first.cache);
    expect(existsSync(join(first.cache, "cc-safety-net/cc-safety-net@2.4.5/dist/bin/cc-safety-net.js"))).toBe(true);
    const second = await setup({ "cc-safety-net": pinned("cc-safety-net") }, first.cache);
    expect(second).toMatchObject({ ok: true, stderr: "" });
  }, 120_000);

  it("refuses an npm package whose integrity is not the pinned one, and installs nothing", async () => {
    const result = await setup({ "cc-safety-net": { ...pinned("cc-safety-net"), integrity: "sha512-bm90IHRoZSBwaW5uZWQgb25l" } });
    expect(result.ok).toBe(false);
    expect(result.stderr).toContain("npm's cc-safety-net@2.4.5 has integrity sha512-");
    expect(result.stderr).toContain("the corpus pins sha512-bm90IHRoZSBwaW5uZWQgb25l");
    expect(existsSync(join(result.cache, "cc-safety-net/cc-safety-net@2.4.5"))).toBe(false);
  }, 120_000);

  it("refuses a PyPI wheel whose sha256 is not the pinned one, and installs nothing", async () => {
    const result = await setup({ "claude-safety-guard": { ...pinned("claude-safety-guard"), sha256: "0".repeat(64) } });
    expect(result.ok).toBe(false);
    expect(result.stderr).toContain("DO NOT MATCH THE HASHES");
    expect(existsSync(join(result.cache, "claude-safety-guard/claude-safety-guard@0.2.0"))).toBe(false);
  }, 120_000);

  it("refuses a source that pins no integrity, or names another registry, with what is missing", async () => {
    const { integrity: _integrity, ...unpinned } = pinned("cc-safety-net");
    expect((await setup({ unpinned })).stderr).toContain('pins no npm "integrity"');
    expect((await setup({ github: { ...pinned("cc-safety-net"), registry: "github" } })).stderr).toContain('names registry "github"; npm or pypi');
  }, 60_000);
});
