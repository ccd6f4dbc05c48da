// Tool kinds: what an agent's tool does (run a shell command, read, write or edit a file, fetch a
// URL, search, call an MCP server), whatever the agent calls it, and which of its arguments is
// the command or the path. Each agent supplies its own table (agents/<agent>/tools.ts); one rule
// written against a kind guards every agent.
import type { JsonValue } from "@hookd/sdk";
import { agentDialect } from "./registry.js";

export type ToolKind = "shell" | "read" | "write" | "edit" | "fetch" | "search" | "mcp";

export const TOOL_KINDS: readonly ToolKind[] = ["shell", "read", "write", "edit", "fetch", "search", "mcp"];

/** One tool of an agent: its kind, and the argument holding its command or path. */
export interface ToolEntry {
  readonly kind: ToolKind;
  readonly command?: string;
  readonly path?: string;
}

export interface ToolTable {
  readonly tools: { readonly [toolName: string]: ToolEntry };
  /** Tool names with this prefix are MCP tools ("mcp__"). */
  readonly mcpPrefix?: string;
}

export interface ToolFacts {
  readonly kind?: ToolKind;
  readonly command?: string;
  readonly path?: string;
}

function stringArg(args: JsonValue | undefined, name: string | undefined): string | undefined {
  if (name === undefined || typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const value = (args as { readonly [key: string]: JsonValue })[name];
  return typeof value === "string" ? value : undefined;
}

/** A tool call's kind and normalised command and path, by its agent's table. */
export function toolFactsOf(table: ToolTable, toolName: string, args: JsonValue | undefined): ToolFacts {
  const entry = Object.hasOwn(table.tools, toolName) ? table.tools[toolName] : undefined;
  if (entry === undefined) return table.mcpPrefix !== undefined && toolName.startsWith(table.mcpPrefix) ? { kind: "mcp" } : {};
  const command = stringArg(args, entry.command);
  const path = stringArg(args, entry.path);
  return { kind: entry.kind, ...(command === undefined ? {} : { command }), ...(path === undefined ? {} : { path }) };
}

/** The same, for the agent named `dialect`; an agent hookd does not know has no kinds. */
export function toolFacts(dialect: string, toolName: string, args: unknown): ToolFacts {
  const agent = agentDialect(dialect);
  return agent === undefined ? {} : toolFactsOf(agent.tools, toolName, args as JsonValue | undefined);
}
