// Tool matchers: whole-name globs where `*` is any run of characters and `?` is one character;
// every other character is literal. No substrings, no regex surprises: "Bash" matches only
// "Bash", "mcp__*" matches every tool whose name starts with "mcp__".
import { HookdError } from "./errors.js";

export type ToolMatcher = (toolName: string) => boolean;

const MATCH_ALL: ToolMatcher = () => true;

/** Compiles matchers into one predicate. An empty list matches every tool. */
export function compileToolMatcher(patterns: readonly string[] | undefined, path = "tools"): ToolMatcher {
  if (patterns === undefined || patterns.length === 0) return MATCH_ALL;
  const compiled = patterns.map((pattern, index) => compileOne(pattern, `${path}[${index}]`));
  if (compiled.some((m) => m === MATCH_ALL)) return MATCH_ALL;
  return (toolName) => compiled.some((matches) => matches(toolName));
}

function compileOne(pattern: string, path: string): ToolMatcher {
  if (typeof pattern !== "string" || pattern === "") {
    throw new HookdError("invalid_plugin", `${path}: a tool matcher must be a non-empty string`);
  }
  if (pattern === "*") return MATCH_ALL;
  if (!/[*?]/.test(pattern)) return (toolName) => toolName === pattern;
  const source = pattern
    .split("")
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
    .join("");
  const regex = new RegExp(`^${source}$`, "s");
  return (toolName) => regex.test(toolName);
}
