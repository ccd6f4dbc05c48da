// Tool kinds: each dialect's tool names map to one kind, with the command or path argument read
// from where that agent puts it.
import { describe, expect, it } from "vitest";
import { toolFacts } from "../src/agents/tool-kinds.js";

describe("toolFacts", () => {
  it.each([
    ["claude-code", "Bash", { command: "ls" }, { kind: "shell", command: "ls" }],
    ["claude-code", "Write", { file_path: "/a/.env", content: "x" }, { kind: "write", path: "/a/.env" }],
    ["claude-code", "Edit", { file_path: "a.ts" }, { kind: "edit", path: "a.ts" }],
    ["claude-code", "Read", { file_path: "a.ts" }, { kind: "read", path: "a.ts" }],
    ["claude-code", "WebFetch", { url: "https://x" }, { kind: "fetch" }],
    ["claude-code", "Grep", { pattern: "x", path: "src" }, { kind: "search", path: "src" }],
    ["codex", "Bash", { command: "rm -rf /" }, { kind: "shell", command: "rm -rf /" }],
    ["codex", "shell", { command: ["bash", "-lc", "rm -rf /"] }, { kind: "shell", command: "bash -lc 'rm -rf /'" }],
    ["codex", "exec_command", { cmd: "ls" }, { kind: "shell", command: "ls" }],
    ["codex", "Write", { file_path: ".env" }, { kind: "write", path: ".env" }],
    ["codex", "apply_patch", { input: "*** Begin Patch\n*** Update File: src/.env\n@@\n-a\n+b\n*** End Patch" }, { kind: "edit", path: "src/.env" }],
    ["gemini", "run_shell_command", { command: "ls" }, { kind: "shell", command: "ls" }],
    ["gemini", "write_file", { file_path: ".env", content: "" }, { kind: "write", path: ".env" }],
    ["gemini", "replace", { file_path: "a.ts" }, { kind: "edit", path: "a.ts" }],
    ["gemini", "read_file", { absolute_path: "/a" }, { kind: "read", path: "/a" }],
    ["gemini", "google_web_search", { query: "x" }, { kind: "fetch" }],
  ])("%s %s", (dialect, tool, args, expected) => {
    expect(toolFacts(dialect, tool, args)).toEqual(expected);
  });

  it("MCP tools are mcp for every dialect; a name its dialect lacks has no kind", () => {
    expect(toolFacts("gemini", "mcp__files__read", {})).toEqual({ kind: "mcp" });
    expect(toolFacts("claude-code", "run_shell_command", { command: "ls" })).toEqual({});
    expect(toolFacts("claude-code", "Frobnicate", {})).toEqual({});
  });

  it("an unknown dialect looks the name up in every table", () => {
    expect(toolFacts("my-agent", "run_shell_command", { command: "ls" })).toEqual({ kind: "shell", command: "ls" });
    expect(toolFacts("", "Bash", { command: "ls" })).toEqual({ kind: "shell", command: "ls" });
  });

  it("arguments that are not an object, or a command that is not text, give the kind alone", () => {
    expect(toolFacts("claude-code", "Bash", "ls")).toEqual({ kind: "shell" });
    expect(toolFacts("claude-code", "Bash", { command: 42 })).toEqual({ kind: "shell" });
  });
});
