// The in-process integrations hookd ships (integrations/opencode, integrations/pi) as a user gets
// them: packed with `npm pack` (which builds them) and installed from the tarball with no
// registry, once per test process. Returns the installed package's directory.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";

const installed = new Map<string, string>();

export function installedIntegration(name: "opencode" | "pi"): string {
  const known = installed.get(name);
  if (known !== undefined) return known;
  const dir = mkdtempSync(join(tmpdir(), `hookd-${name}-integration-`));
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(REPO, "integrations", name), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").at(-1);
  if (packed === undefined || packed === "") throw new Error(`npm pack printed no tarball name for integrations/${name}`);
  writeFileSync(join(dir, "package.json"), '{"private":true}');
  // --offline: the tarball carries everything it needs, so the install must not touch a registry.
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(dir, packed)], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  const path = join(dir, "node_modules", "@hookd", name);
  installed.set(name, path);
  return path;
}
