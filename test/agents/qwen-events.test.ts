// Qwen Code's event table (daemon/src/agents/qwen-code/events.ts) against the installed binary:
// the hook event names its bundle declares (its HookEventName enum) are exactly the events hookd
// reads for Qwen Code, so an event the pinned release adds or drops fails here.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { qwenCode } from "../../daemon/src/agents/qwen-code/index.js";
import { agentBin } from "./support/agents.js";

function bundleEvents(): string[] {
  const chunks = join(dirname(agentBin("qwen")), "../@qwen-code/qwen-code/chunks");
  const names = new Set<string>();
  for (const file of readdirSync(chunks).filter((name) => name.endsWith(".js"))) {
    for (const match of readFileSync(join(chunks, file), "utf8").matchAll(/HookEventName\d*\["(\w+)"\] = "\w+"/g)) names.add(match[1] ?? "");
  }
  return [...names].sort();
}

describe("Qwen Code's hook events", () => {
  it("are exactly those of the installed binary's HookEventName enum", () => {
    const declared = bundleEvents();
    expect(declared.length).toBeGreaterThan(10);
    expect(Object.keys(qwenCode.commandHooks.events).sort()).toEqual(declared);
  });
});
