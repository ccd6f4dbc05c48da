// Copilot CLI's event table (daemon/src/agents/copilot-cli/events.ts) against the installed
// package: the hook types its bundled schema declares (HookType in schemas/api.schema.json) are
// exactly hookd's 15 events plus the two it lists for SDK callbacks, so an event the pinned
// release adds or drops fails here.
import { readFileSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UNFIRED_EVENTS } from "../../daemon/src/agents/copilot-cli/events.js";
import { copilotCli } from "../../daemon/src/agents/copilot-cli/index.js";
import { REPO } from "../support/daemon-process.js";

/** The HookType enum of the unpacked package in the lane's cache (scripts/setup-agents.sh copilot-cli). */
function schemaHookTypes(): string[] {
  const installed = execFileSync("bash", [join(REPO, "scripts/setup-agents.sh"), "copilot-cli"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
  const platforms = join(installed, "pkg-cache", "pkg");
  const [platform] = readdirSync(platforms);
  const versions = join(platforms, platform ?? "");
  const [version] = readdirSync(versions).filter((name) => /^\d/.test(name));
  const schema = JSON.parse(readFileSync(join(versions, version ?? "", "schemas", "api.schema.json"), "utf8")) as { definitions: { HookType: { enum: string[] } } };
  return [...schema.definitions.HookType.enum].sort();
}

describe("GitHub Copilot CLI's hook events", () => {
  it("are exactly the installed package's HookType enum, less the two SDK-callback ones hookd accepts without running", () => {
    expect(Object.keys(copilotCli.commandHooks.events)).toHaveLength(15);
    expect([...Object.keys(copilotCli.commandHooks.events), ...UNFIRED_EVENTS].sort()).toEqual(schemaHookTypes());
  });
});
