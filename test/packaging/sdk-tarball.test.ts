// Packaging: `npm pack` of @hookd/sdk gives a tarball with its types and README; installed into a
// clean project outside the repository (the tarball plus its dependencies from the registry or
// npm's cache, nothing of the workspace), a TypeScript plugin type-checks against the shipped
// types with the strictest settings, and runs against a real daemon through the tarball's own
// @hookd/sdk/testing. Needs `npm run build` (the SDK's dist and the daemon it runs).
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO } from "../support/daemon-process.js";

const TSC = join(REPO, "node_modules/typescript/bin/tsc");
/** The same @types/node the workspace pins, so the plugin type-checks as it does here. */
const TYPES_NODE = (JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies["@types/node"];

const PLUGIN = `
import { accept, definePlugin, deny, pass, text } from "@hookd/sdk";
import type { PostToolEvent, PreToolDecision } from "@hookd/sdk";

const command = (args: unknown): string => (typeof args === "object" && args !== null && "command" in args ? String(args.command) : "");
const secret = /AKIA[0-9A-Z]{16}/g;

export default definePlugin({
  name: "packaged",
  points: {
    "pre-tool": { tools: ["Bash"], handler: (e): PreToolDecision | ReturnType<typeof pass> => (command(e.call.arguments).includes("rm -rf /") ? deny("packaged: no rm -rf /") : pass()) },
    "post-tool": (e: PostToolEvent) => {
      const shown = e.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      const redacted = shown.replace(secret, "[redacted]");
      return redacted === shown ? pass() : accept({ content: [text(redacted)] });
    },
  },
});
`;

const RUN = `
import { events, startTestDaemon, toolSuccess } from "@hookd/sdk/testing";
import { text } from "@hookd/sdk";
import plugin from "./plugin.js";

const daemon = await startTestDaemon(plugin, { daemon: process.argv[2] });
try {
  const denied = await daemon.evaluatePreTool(events.preTool("Bash", { command: "rm -rf /" }));
  const allowed = await daemon.evaluatePreTool(events.preTool("Bash", { command: "ls" }));
  const redacted = await daemon.evaluatePostTool(events.postTool("Read", { path: "x" }, toolSuccess("k", { content: [text("key AKIAABCDEFGHIJKLMNOP")] })));
  console.log(JSON.stringify({ denied: denied.decision, deniedBy: denied.trace.decidedBy, allowed: allowed.decision, shown: redacted.result.content }));
} finally {
  await daemon.close();
}
`;

describe("the @hookd/sdk tarball", () => {
  let dir: string;
  let tarball: string;
  let files: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hookd-pack-"));
    const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: join(REPO, "sdk"), encoding: "utf8" })) as { filename: string; files: { path: string }[] }[];
    const [info] = packed;
    if (info === undefined) throw new Error("npm pack reported nothing");
    tarball = join(dir, info.filename);
    files = info.files.map((file) => file.path);
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("holds the built code, its types and the README, and no tests", () => {
    for (const path of ["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/testing/index.js", "dist/testing/index.d.ts", "dist/internal.d.ts"]) expect(files).toContain(path);
    expect(files.filter((path) => path.startsWith("test/"))).toEqual([]);
  });

  it("installs into a clean project, type-checks a plugin and runs it against a real daemon", async () => {
    const project = join(dir, "project");
    execFileSync("mkdir", ["-p", project]);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "packaged-plugin", private: true, type: "module" }));
    // --prefer-offline: the pinned dependencies come from npm's cache when it has them.
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--save-exact", tarball, `@types/node@${TYPES_NODE}`], { cwd: project, stdio: "pipe" });
    await writeFile(join(project, "plugin.ts"), PLUGIN);
    await writeFile(join(project, "run.mjs"), RUN);
    const tscArgs = ["--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--module", "nodenext", "--target", "es2022", "--types", "node", "--skipLibCheck", "false", "plugin.ts"];
    execFileSync(process.execPath, [TSC, ...tscArgs], { cwd: project, stdio: "pipe" });
    const output = execFileSync(process.execPath, ["run.mjs", CLI], { cwd: project, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({
      denied: { kind: "deny", reason: "packaged: no rm -rf /" },
      deniedBy: "packaged",
      allowed: { kind: "allow" },
      shown: [{ type: "text", text: "key [redacted]" }],
    });
  });
});
