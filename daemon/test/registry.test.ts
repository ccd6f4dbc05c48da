// The plugin registry: ordering per point, tool-matcher filtering, duplicate subscriptions, and
// immutability once built.
import { describe, expect, it } from "vitest";
import { HookdError, allow, compileToolMatcher, definePlugin, pass } from "@hookd/sdk";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import type { Listener } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { listener } from "./fixtures/listeners.js";

const names = (listeners: readonly Listener[]): string[] => listeners.map((l) => l.plugin);

describe("PluginRegistry", () => {
  it("orders each point's listeners by priority, then plugin name, whatever the input order", () => {
    const make = (plugin: string, priority: number) => listener("pre-tool", plugin, () => pass(), { priority });
    const input = [make("delta", 0), make("alpha", 10), make("charlie", -3), make("bravo", 0), make("Zed", 0)];
    const expected = ["charlie", "Zed", "bravo", "delta", "alpha"];
    expect(names(new PluginRegistry(input).listeners("pre-tool"))).toEqual(expected);
    expect(names(new PluginRegistry([...input].reverse()).listeners("pre-tool"))).toEqual(expected);
  });

  it("keeps points apart and describes every point in firing order", () => {
    const registry = new PluginRegistry([
      ...inProcessListeners(definePlugin({ name: "both", points: { "pre-tool": () => allow(), "session-start": () => undefined } })),
      listener("guard", "guarded", () => pass(), { priority: 1 }),
    ]);
    expect(names(registry.listeners("pre-tool"))).toEqual(["both"]);
    expect(names(registry.listeners("session-start"))).toEqual(["both"]);
    expect(names(registry.listeners("post-tool"))).toEqual([]);
    expect(registry.describe()).toEqual([
      { point: "session-start", plugins: ["both"] },
      { point: "pre-step", plugins: [] },
      { point: "rewrite", plugins: [] },
      { point: "pre-tool", plugins: ["both"] },
      { point: "approval", plugins: [] },
      { point: "guard", plugins: ["guarded"] },
      { point: "execute", plugins: [] },
      { point: "post-tool", plugins: [] },
      { point: "tool-result", plugins: [] },
      { point: "turn-stopping", plugins: [] },
      { point: "turn-end", plugins: [] },
      { point: "session-end", plugins: [] },
      { point: "agent-event", plugins: [] },
    ]);
  });

  it("filters tool points by whole-name matchers, keeping the order", () => {
    const registry = new PluginRegistry([
      ...inProcessListeners(definePlugin({ name: "bash-only", points: { "pre-tool": { handler: () => pass(), tools: ["Bash"], priority: 2 } } })),
      ...inProcessListeners(definePlugin({ name: "mcp", points: { "pre-tool": { handler: () => pass(), tools: ["mcp__*"], priority: 1 } } })),
      ...inProcessListeners(definePlugin({ name: "everything", points: { "pre-tool": () => pass() } })),
      ...inProcessListeners(definePlugin({ name: "overridden", points: { "pre-tool": { handler: () => pass(), tools: ["Bash"] } } }), {
        "pre-tool": { tools: ["Read"] },
      }),
    ]);
    expect(names(registry.listeners("pre-tool", "Bash"))).toEqual(["everything", "bash-only"]);
    expect(names(registry.listeners("pre-tool", "BashOutput"))).toEqual(["everything"]);
    expect(names(registry.listeners("pre-tool", "mcp__fs__read"))).toEqual(["everything", "mcp"]);
    expect(names(registry.listeners("pre-tool", "Read"))).toEqual(["everything", "overridden"]);
    // Without a tool name (not a tool call) nothing is filtered.
    expect(names(registry.listeners("pre-tool"))).toEqual(["everything", "overridden", "mcp", "bash-only"]);
  });

  it("applies the matcher of hand-built listeners too", () => {
    const registry = new PluginRegistry([listener("guard", "g", () => pass(), { matches: compileToolMatcher(["Write", "Edit"]) })]);
    expect(names(registry.listeners("guard", "Edit"))).toEqual(["g"]);
    expect(names(registry.listeners("guard", "Read"))).toEqual([]);
  });

  it("refuses a plugin that subscribes to the same point twice", () => {
    const build = () => new PluginRegistry([listener("pre-tool", "twice", () => pass()), listener("guard", "twice", () => pass()), listener("pre-tool", "twice", () => pass())]);
    expect(build).toThrow(HookdError);
    expect(build).toThrow("plugin twice subscribes to pre-tool twice");
    let code: unknown;
    try {
      build();
    } catch (error) {
      code = (error as HookdError).code;
    }
    expect(code).toBe("invalid_plugin");
  });

  it("is frozen once built: neither the registry, its lists, nor the caller's input can change it", () => {
    const input = [listener("pre-tool", "b", () => pass()), listener("pre-tool", "a", () => pass())];
    const registry = new PluginRegistry(input);
    expect(Object.isFrozen(registry)).toBe(true);
    const list = registry.listeners("pre-tool");
    expect(Object.isFrozen(list)).toBe(true);
    expect(() => (list as Listener[]).push(listener("pre-tool", "c", () => pass()))).toThrow(TypeError);
    input.push(listener("pre-tool", "late", () => pass()));
    input.reverse();
    expect(names(registry.listeners("pre-tool"))).toEqual(["a", "b"]);
    // A filtered list is a copy: changing it changes nothing.
    const filtered = new PluginRegistry([
      listener("pre-tool", "x", () => pass(), { matches: () => false }),
      listener("pre-tool", "y", () => pass()),
    ]);
    (filtered.listeners("pre-tool", "Bash") as Listener[]).pop();
    expect(names(filtered.listeners("pre-tool", "Bash"))).toEqual(["y"]);
    expect(() => {
      (registry as unknown as { extra: number }).extra = 1;
    }).toThrow(TypeError);
  });

  it("has an empty registry", () => {
    expect(PluginRegistry.EMPTY.describe().every((entry) => entry.plugins.length === 0)).toBe(true);
    expect(PluginRegistry.EMPTY.listeners("pre-tool", "Bash")).toEqual([]);
  });
});
