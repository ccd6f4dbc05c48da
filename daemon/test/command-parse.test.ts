// The hooks-file parser and the matchers of both dialects: what loads, what is refused loudly
// (a bad matcher rejects the WHOLE file, naming event and index), and what is accepted but never
// run (listed in notes for `hookd check`).
import { describe, expect, it } from "vitest";
import { HookdError } from "@hookd/sdk";
import { compileMatcher } from "../src/agents/matcher.js";
import { knownAgent } from "../src/agents/registry.js";
import { parseHooksText as parseText } from "../src/agents/hooks-file.js";
import { parseHooks } from "./fixtures/agent-calls.js";

const parseHooksText = (text: string, dialect: string, source: string) => parseText(knownAgent(dialect).commandHooks.parse, text, source);

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });

function matcherOf(pattern: string | undefined, mode: "names-or-regex" | "regex") {
  const compiled = compileMatcher(pattern, mode);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.matches;
}

describe("matchers", () => {
  it.each([
    // pattern, tool, claude-code, regex (Codex)
    [undefined, "Bash", true, true],
    ["", "Bash", true, true],
    ["*", "Anything", true, true],
    ["Bash", "Bash", true, true],
    ["Bash", "BashOutput", false, true],
    ["Edit|Write", "Write", true, true],
    ["Edit|Write", "MultiEdit", false, true],
    ["mcp__memory", "mcp__memory__create", false, true],
    ["mcp__.*__write.*", "mcp__fs__write_file", true, true],
    ["mcp__.*__write.*", "mcp__fs__read_file", false, false],
    ["^Bash$", "BashOutput", false, false],
    ["^Bash$", "Bash", true, true],
    ["Notebook.*", "NotebookEdit", true, true],
  ])("%j against %s: claude-code %s, regex %s", (pattern, tool, claude, regex) => {
    expect(matcherOf(pattern, "names-or-regex")(tool)).toBe(claude);
    expect(matcherOf(pattern, "regex")(tool)).toBe(regex);
  });

  it("reports an invalid regex instead of matching nothing", () => {
    const bad = compileMatcher("[", "names-or-regex");
    expect(bad.ok).toBe(false);
    expect(bad.ok ? "" : bad.error).toContain('invalid regular expression "["');
    expect(compileMatcher("(a", "regex")).toMatchObject({ ok: false });
    // An exact-name string is never compiled in claude-code mode, so it cannot be invalid.
    expect(compileMatcher("Bash|Edit", "names-or-regex").ok).toBe(true);
  });
});

describe("parseHooks", () => {
  it("reads a bare event map and a settings file alike, keeping file order", () => {
    const events = {
      PreToolUse: [
        { matcher: "Bash", hooks: [cmd("a.sh", { timeout: 5 }), cmd("b.sh")] },
        { matcher: "Edit|Write", hooks: [cmd("c.sh")] },
      ],
      Stop: [{ hooks: [cmd("stop.sh")] }],
    };
    for (const file of [events, { permissions: { allow: [] }, env: {}, hooks: events }]) {
      const model = parseHooks(file, "claude-code", "hooks.json");
      const groups = model.groups.PreToolUse ?? [];
      expect(groups.map((g) => g.matcher)).toEqual(["Bash", "Edit|Write"]);
      expect(groups[0]?.hooks.map((h) => [h.id, h.command, h.timeoutMs / 1000])).toEqual([
        ["PreToolUse[0].hooks[0]", "a.sh", 5],
        ["PreToolUse[0].hooks[1]", "b.sh", 600],
      ]);
      expect(groups[1]?.matches("Write")).toBe(true);
      expect(model.groups.Stop?.[0]?.hooks[0]?.command).toBe("stop.sh");
      expect(model.notes).toEqual([]);
    }
  });

  it("rejects the whole file for one invalid matcher, naming event and index", () => {
    const file = {
      PreToolUse: [{ matcher: "Bash", hooks: [cmd("ok.sh")] }],
      PostToolUse: [
        { matcher: "Edit", hooks: [cmd("ok.sh")] },
        { matcher: "Write(", hooks: [cmd("never.sh")] },
      ],
    };
    for (const dialect of ["claude-code", "codex"] as const) {
      let thrown: unknown;
      try {
        parseHooks(file, dialect, "/etc/hookd/hooks.json");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HookdError);
      expect((thrown as HookdError).code).toBe("invalid_plugin");
      expect((thrown as Error).message).toMatch(/^\/etc\/hookd\/hooks\.json: PostToolUse\[1\]\.matcher: invalid regular expression "Write\("/);
    }
  });

  it("ignores a matcher where the event has none, even one that is no valid regex, and says so", () => {
    // The agents never read it, so it cannot make the file invalid (issue #15, item 6).
    for (const dialect of ["claude-code", "codex"] as const) {
      const model = parseHooks({ UserPromptSubmit: [{ matcher: "[", hooks: [cmd("x")] }], Stop: [{ matcher: "(", hooks: [cmd("y")] }] }, dialect, "f");
      expect(model.notes).toEqual([
        "UserPromptSubmit[0].matcher: ignored (UserPromptSubmit has no matcher; every hook of the event runs)",
        "Stop[0].matcher: ignored (Stop has no matcher; every hook of the event runs)",
      ]);
      expect(model.groups.UserPromptSubmit?.[0]?.hooks).toHaveLength(1);
      expect(model.groups.UserPromptSubmit?.[0]?.matches("anything")).toBe(true);
    }
    // Where the event has a matcher, an invalid one still rejects the file.
    expect(() => parseHooks({ SubagentStop: [{ matcher: "[", hooks: [cmd("x")] }] }, "codex", "f")).toThrow(/SubagentStop\[0\]\.matcher/);
  });

  it("gives each hook the agent's own default timeout; Claude Code's SessionEnd hooks share max(1.5 s, the longest own timeout up to 60 s)", () => {
    const file = { PreToolUse: [{ hooks: [cmd("a")] }], SessionEnd: [{ hooks: [cmd("b"), cmd("c", { timeout: 5 }), cmd("d", { timeout: 900 })] }] };
    const claude = parseHooks(file, "claude-code", "f");
    expect(claude.groups.PreToolUse?.[0]?.hooks.map((h) => [h.timeoutMs / 1000, h.ownTimeout])).toEqual([[600, false]]);
    expect(claude.groups.SessionEnd?.[0]?.hooks.map((h) => h.timeoutMs / 1000)).toEqual([60, 60, 60]);
    const short = parseHooks({ SessionEnd: [{ hooks: [cmd("b")] }, { hooks: [cmd("c", { timeout: 0.5 })] }] }, "claude-code", "f");
    expect(short.groups.SessionEnd?.flatMap((g) => g.hooks.map((h) => h.timeoutMs / 1000))).toEqual([1.5, 1.5]);
    const five = parseHooks({ SessionEnd: [{ hooks: [cmd("b"), cmd("c", { timeout: 5 })] }] }, "claude-code", "f");
    expect(five.groups.SessionEnd?.[0]?.hooks.map((h) => h.timeoutMs / 1000)).toEqual([5, 5]);
    const codex = parseHooks(file, "codex", "f");
    expect(codex.groups.SessionEnd?.[0]?.hooks.map((h) => h.timeoutMs / 1000)).toEqual([600, 5, 900]);
  });

  it("names the bad field of a malformed hook", () => {
    expect(() => parseHooks({ PreToolUse: [{ hooks: [{ type: "command" }] }] }, "claude-code", "f")).toThrow("f: PreToolUse[0].hooks[0].command: expected a string");
    expect(() => parseHooks({ PreToolUse: [{ hooks: [cmd("  ")] }] }, "claude-code", "f")).toThrow("PreToolUse[0].hooks[0].command: expected a non-empty command");
    expect(() => parseHooks({ PreToolUse: [{ hooks: [cmd("x", { timeout: -1 })] }] }, "claude-code", "f")).toThrow("PreToolUse[0].hooks[0].timeout: expected a positive number of seconds");
    expect(() => parseHooks({ PreToolUse: [{ hooks: "x" }] }, "claude-code", "f")).toThrow("PreToolUse[0].hooks: expected a list of hooks");
    expect(() => parseHooks({ PreToolUse: { hooks: [] } }, "claude-code", "f")).toThrow("PreToolUse: expected a list of matcher groups");
    expect(() => parseHooks([], "claude-code", "f")).toThrow("f: (file): expected a JSON object");
    expect(() => parseHooks({ hooks: [] }, "claude-code", "f")).toThrow("f: hooks: expected an object of hook events");
    expect(() => parseHooksText("{ nope", "codex", "f")).toThrow(/^f: \(file\): not valid JSON/);
  });

  it("refuses an unknown event (a typo) and keeps the agents' other events apart, to run at agent-event", () => {
    expect(() => parseHooks({ PreTooluse: [] }, "claude-code", "f")).toThrow(/f: PreTooluse: unknown hook event; expected one of SessionStart, /);
    const model = parseHooks(
      {
        Notification: [{ hooks: [cmd("notify.sh")] }],
        SubagentStop: [{ matcher: "reviewer", hooks: [cmd("sub.sh")] }],
        PreToolUse: [{ hooks: [cmd("http-ish", { type: "http", url: "http://x" }), cmd("bg.sh", { async: true }), cmd("run.sh")] }],
      },
      "claude-code",
      "f",
    );
    expect(model.notes).toEqual([
      'PreToolUse[0].hooks[0]: hooks of type "http" are accepted but not run (hookd runs "command" hooks)',
      "PreToolUse[0].hooks[1]: async hooks are accepted but not run (their answers could never take effect)",
    ]);
    expect(model.groups.PreToolUse?.[0]?.hooks.map((h) => h.command)).toEqual(["run.sh"]);
    expect(model.groups.Notification?.[0]?.hooks.map((h) => [h.event, h.command, h.timeoutMs / 1000])).toEqual([["Notification", "notify.sh", 600]]);
    // SubagentStop runs (at turn-stopping in a subagent); its matcher is on the agent type.
    expect(model.groups.SubagentStop?.[0]?.matches("reviewer")).toBe(true);
  });

  it("compiles matchers per dialect: Codex matchers are always regexes", () => {
    const file = { PreToolUse: [{ matcher: "Bash", hooks: [cmd("x")] }] };
    expect(parseHooks(file, "claude-code", "f").groups.PreToolUse?.[0]?.matches("BashOutput")).toBe(false);
    expect(parseHooks(file, "codex", "f").groups.PreToolUse?.[0]?.matches("BashOutput")).toBe(true);
  });
});
