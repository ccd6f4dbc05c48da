// Tool kinds: what each agent dialect's tool names are (shell, read, write, ...) and which of
// their arguments is the command or the path, so one rule can guard every agent. Owns the three
// per-dialect tables and the lookup; knows nothing of rules or points.
import type { JsonValue } from "@hookd/sdk";

export type ToolKind = "shell" | "read" | "write" | "edit" | "fetch" | "search" | "mcp";

export interface ToolFacts {
  readonly kind?: ToolKind;
  readonly command?: string;
  readonly path?: string;
}

/** One tool of a dialect: its kind and the argument names that hold its command and its path (first present wins). */
interface ToolEntry {
  readonly kind: ToolKind;
  readonly command?: readonly string[];
  readonly path?: readonly string[];
  /** Arguments holding a patch (Codex's apply_patch format): its first file is the path when no path argument is there. */
  readonly patch?: readonly string[];
}

type ToolTable = Readonly<Record<string, ToolEntry>>;

// Claude Code 2.1: the names its hooks report in tool_name.
const CLAUDE_CODE_TOOLS: ToolTable = {
  Bash: { kind: "shell", command: ["command"] },
  Read: { kind: "read", path: ["file_path"] },
  NotebookRead: { kind: "read", path: ["notebook_path"] },
  Write: { kind: "write", path: ["file_path"] },
  Edit: { kind: "edit", path: ["file_path"] },
  MultiEdit: { kind: "edit", path: ["file_path"] },
  NotebookEdit: { kind: "edit", path: ["notebook_path"] },
  Glob: { kind: "search", path: ["path"] },
  Grep: { kind: "search", path: ["path"] },
  LS: { kind: "search", path: ["path"] },
  WebFetch: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
};

// Codex 0.169: hooks see its shell as Bash and apply_patch as Edit/Write; the native names are
// kept for agents that report them (the gRPC host, older releases).
const CODEX_TOOLS: ToolTable = {
  Bash: { kind: "shell", command: ["command", "cmd"] },
  shell: { kind: "shell", command: ["command", "cmd"] },
  exec_command: { kind: "shell", command: ["cmd", "command"] },
  local_shell: { kind: "shell", command: ["command"] },
  apply_patch: { kind: "edit", path: ["file_path", "path"], patch: ["input", "patch", "command"] },
  Edit: { kind: "edit", path: ["file_path", "path"], patch: ["input", "patch", "command"] },
  Write: { kind: "write", path: ["file_path", "path"], patch: ["input", "patch", "command"] },
  read_file: { kind: "read", path: ["file_path", "path"] },
  view_image: { kind: "read", path: ["path"] },
  web_search: { kind: "fetch" },
};

// Gemini CLI 0.61: its built-in tools' names and parameters.
const GEMINI_TOOLS: ToolTable = {
  run_shell_command: { kind: "shell", command: ["command"] },
  read_file: { kind: "read", path: ["file_path", "absolute_path", "path"] },
  read_many_files: { kind: "read" },
  write_file: { kind: "write", path: ["file_path", "path"] },
  replace: { kind: "edit", path: ["file_path", "path"] },
  list_directory: { kind: "search", path: ["dir_path", "path"] },
  glob: { kind: "search", path: ["dir_path", "path"] },
  search_file_content: { kind: "search", path: ["dir_path", "path"] },
  grep_search: { kind: "search", path: ["dir_path", "path"] },
  web_fetch: { kind: "fetch" },
  google_web_search: { kind: "fetch" },
};

const TABLES: Readonly<Record<string, ToolTable>> = { "claude-code": CLAUDE_CODE_TOOLS, codex: CODEX_TOOLS, gemini: GEMINI_TOOLS };

/** The dialects with a table, in the order an unknown dialect's tool name is looked up. */
export const TOOL_DIALECTS: readonly string[] = Object.freeze(Object.keys(TABLES));

/**
 * The kind, command and path of a call. An unknown dialect (a gRPC agent names none) looks the
 * name up in every table in turn: the agents' tool names do not collide on different kinds.
 * MCP tools are named `mcp__server__tool` by every agent.
 */
export function toolFacts(dialect: string, toolName: string, args: unknown): ToolFacts {
  const entry = entryOf(dialect, toolName);
  if (entry === undefined) return toolName.startsWith("mcp__") ? { kind: "mcp" } : {};
  const command = firstArgument(args, entry.command);
  const path = firstArgument(args, entry.path) ?? patchedFile(firstArgument(args, entry.patch));
  return {
    kind: entry.kind,
    ...(command === undefined ? {} : { command }),
    ...(path === undefined ? {} : { path }),
  };
}

function entryOf(dialect: string, toolName: string): ToolEntry | undefined {
  const own = TABLES[dialect];
  if (own !== undefined) return Object.hasOwn(own, toolName) ? own[toolName] : undefined;
  for (const table of Object.values(TABLES)) if (Object.hasOwn(table, toolName)) return table[toolName];
  return undefined;
}

/** The first named argument that is a string, or an argv list (Codex's shell), joined as a shell would read it back. */
function firstArgument(args: unknown, names: readonly string[] | undefined): string | undefined {
  if (names === undefined || typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const record = args as Readonly<Record<string, JsonValue>>;
  for (const name of names) {
    const value = record[name];
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((part): part is string => typeof part === "string")) return value.map(quoteWord).join(" ");
  }
  return undefined;
}

/** The first file a patch in Codex's format adds, updates or deletes (`*** Update File: src/a.ts`). */
function patchedFile(patch: string | undefined): string | undefined {
  return patch === undefined ? undefined : /^\*\*\* (?:Add|Update|Delete) File: (.+)$/m.exec(patch)?.[1]?.trim();
}

function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
