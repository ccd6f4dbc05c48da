// OpenCode's event table in the daemon (agents/opencode/) and what hookd's OpenCode plugin
// (integrations/opencode) forwards must be the same list: an event the plugin sends that the
// table lacks would reach hookd unknown to `hookd check` and the docs, and the reverse is a
// table row nothing drives.
import { describe, expect, it } from "vitest";
import { FORWARDED_BUS_EVENTS, PLUGIN_HOOKS } from "../../integrations/opencode/src/forwarded.js";
import { OPENCODE_EVENTS } from "../src/agents/opencode/index.js";

describe("OpenCode's event table", () => {
  it("lists exactly the plugin hooks and bus events hookd's OpenCode plugin forwards", () => {
    expect(Object.keys(OPENCODE_EVENTS).sort()).toEqual([...PLUGIN_HOOKS, ...FORWARDED_BUS_EVENTS].sort());
  });
});
