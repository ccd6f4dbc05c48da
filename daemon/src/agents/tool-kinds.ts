// Tool kinds: what an agent's tool does (run a shell command, read, write or edit a file, fetch,
// search, call an MCP server), whatever the agent calls it, and which of its arguments is the
// command or the path, so one rule can guard every agent. Each agent supplies its own table
// (agents/<agent>/tools.ts); this owns the lookup and knows nothing of rules or points.
import type { JsonValue } from "@hookd/sdk";
import { AGENTS, agentDialect } from "./registry.js";

export type ToolKind = "shell" | "read" | "write" | "edit" | "fetch" | "search" | "mcp";

export const TOOL_KINDS: readonly ToolKind[] = ["shell", "read", "write", "edit", "fetch", "search", "mcp"];

/** One tool of an agent: its kind and the argument names that hold its command and its path (the first present wins). */
export interface ToolEntry {
  readonly kind: ToolKind;
  readonly command?: readonly string[];
  readonly path?: readonly string[];
  /** Arguments holding a list of whole commands run in turn (Cline's run_commands): the command when no command argument is there, one per line. */
  readonly commandList?: readonly string[];
  /** Arguments holding a patch (Codex's apply_patch format): its first file is the path when no path argument is there. */
  readonly patch?: readonly string[];
}

/** An agent's tools by the names its hooks report; MCP tools are `mcp__server__tool` for every agent. */
export type ToolTable = { readonly [toolName: string]: ToolEntry };

export interface ToolFacts {
  readonly kind?: ToolKind;
  readonly command?: string;
  readonly path?: string;
}

/** The agents with a table, in the order an unknown dialect's tool name is looked up. */
export const TOOL_DIALECTS: readonly string[] = AGENTS.map((agent) => agent.name);

/**
 * The kind, command and path of a call. An unknown dialect (a gRPC agent names none) looks the
 * name up in every agent's table in turn: the agents' tool names do not collide on different kinds.
 */
export function toolFacts(dialect: string, toolName: string, args: unknown): ToolFacts {
  const entry = entryOf(dialect, toolName);
  if (entry === undefined) return toolName.startsWith("mcp__") ? { kind: "mcp" } : {};
  const command = firstArgument(args, entry.command) ?? commandLines(args, entry.commandList);
  const path = firstArgument(args, entry.path) ?? patchedFile(firstArgument(args, entry.patch));
  return { kind: entry.kind, ...(command === undefined ? {} : { command }), ...(path === undefined ? {} : { path }) };
}

function entryOf(dialect: string, toolName: string): ToolEntry | undefined {
  const own = agentDialect(dialect);
  const tables = own === undefined ? AGENTS.map((agent) => agent.tools) : [own.tools];
  for (const table of tables) if (Object.hasOwn(table, toolName)) return table[toolName];
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

/** The first named argument that is a list of command strings, one per line, as a script would run them. */
function commandLines(args: unknown, names: readonly string[] | undefined): string | undefined {
  if (names === undefined || typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const record = args as Readonly<Record<string, JsonValue>>;
  for (const name of names) {
    const value = record[name];
    if (Array.isArray(value) && value.length > 0 && value.every((part): part is string => typeof part === "string")) return value.join("\n");
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
