// The functions rules get beside CEL's own: path normalisation, containment and globs resolved
// against the session's working directory, and shell.commands. Owns their CEL declarations and
// the per-evaluation working directory they resolve against.
import { homedir } from "node:os";
import { posix } from "node:path";
import { CelScalar, celFunc, celList, listType } from "@bufbuild/cel";
import type { CelFunc, CelList } from "@bufbuild/cel";
import { shellCommands } from "./shell-words.js";

/** The names rules may call beside CEL's standard functions, for the load-time check. */
export const RULE_FUNCTIONS: ReadonlyMap<string, number> = new Map([
  ["path.normalize", 1],
  ["path.within", 2],
  ["path.matches", 2],
  ["path.base", 1],
  ["shell.commands", 1],
]);

// Evaluation is synchronous: the working directory of the event being evaluated is set around it
// (withWorkingDirectory), so path functions need no extra argument.
// "" is a session that told no cwd: a relative path then cannot be placed, and is an error rather
// than a guess (resolving it against "/" would put every path inside every rule's directory).
let workingDirectory = "";

/** Runs `evaluate` with relative paths resolving against `cwd` (the session's). */
export function withWorkingDirectory<T>(cwd: string, evaluate: () => T): T {
  const before = workingDirectory;
  workingDirectory = cwd;
  try {
    return evaluate();
  } finally {
    workingDirectory = before;
  }
}

/**
 * An absolute, normalised path: `~` and `$HOME` are the daemon user's home, a relative path is
 * resolved against the session's cwd. shell.commands leaves variables as written, so a path that
 * starts with any other variable cannot be placed: an error, not a path inside the cwd.
 */
export function normalizePath(path: string, cwd = workingDirectory): string {
  if (path === "") throw new Error("an empty path");
  const expanded = expandHome(path);
  const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)/.exec(expanded);
  if (variable !== null) throw new Error(`the path "${path}" starts with the shell variable $${variable[1] ?? ""}, whose value a rule cannot know`);
  if (posix.isAbsolute(expanded)) return posix.resolve(expanded);
  if (!posix.isAbsolute(cwd)) throw new Error(`the relative path "${path}" cannot be resolved: the session has no working directory`);
  return posix.resolve(cwd, expanded);
}

/** True when `path` is `dir` or inside it, after both are normalised (`..` cannot climb out unseen). */
export function pathWithin(path: string, dir: string, cwd = workingDirectory): boolean {
  const inner = normalizePath(path, cwd);
  const outer = normalizePath(dir, cwd);
  return inner === outer || inner.startsWith(outer === "/" ? "/" : `${outer}/`);
}

/**
 * Glob match of a path: `*` is any run within one segment, `**` any run of segments, `?` one
 * character. A pattern without `/` matches the path's last segment (`.env*`); any other pattern
 * is normalised like a path and matches the whole normalised path.
 */
export function pathMatches(path: string, pattern: string, cwd = workingDirectory): boolean {
  const normalized = normalizePath(path, cwd);
  if (!pattern.includes("/")) return globRegex(pattern).test(posix.basename(normalized));
  return globRegex(normalizePattern(pattern, cwd)).test(normalized);
}

/** `~`, `~/…`, `$HOME`, `${HOME}`, `$HOME/…` as the home directory. */
function expandHome(path: string): string {
  const home = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(path);
  return home === null ? path : posix.join(homedir(), path.slice(home[0].length));
}

function normalizePattern(pattern: string, cwd: string): string {
  // posix.resolve would fold a `**/..` pair; patterns keep their globs, so only `~` and a relative start are resolved.
  const expanded = expandHome(pattern);
  if (expanded.startsWith("/")) return expanded;
  if (!posix.isAbsolute(cwd)) throw new Error(`the relative pattern "${pattern}" cannot be resolved: the session has no working directory`);
  return `${cwd.replace(/\/$/, "")}/${expanded.replace(/^\.\//, "")}`;
}

const globCache = new Map<string, RegExp>();

function globRegex(pattern: string): RegExp {
  const cached = globCache.get(pattern);
  if (cached !== undefined) return cached;
  let source = "";
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? "";
    if (char === "*" && pattern[i + 1] === "*") {
      // `**/` also matches no directory at all.
      if (pattern[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`, "s");
  if (globCache.size < 1_000) globCache.set(pattern, regex);
  return regex;
}

const STRING = CelScalar.STRING;

// Most rules of a shell guardrail split the same call.command: the last command's split is kept,
// so one evaluation of a rule set splits it once (the split is a pure function of the text).
// It is kept as a CEL list, so it is not converted again for each rule either.
let lastCommand: string | undefined;
let lastArgv: readonly (readonly string[])[] = [];
let lastCommands: CelList | undefined;

/** The split of `command` as argv lists, reused while the command is the same (rules' command guards read it). */
export function commandArgv(command: string): readonly (readonly string[])[] {
  if (command !== lastCommand) {
    lastArgv = shellCommands(command);
    lastCommands = undefined;
    lastCommand = command;
  }
  return lastArgv;
}

/** shell.commands for rules: the split of `command` as a CEL list of lists, reused while the command is the same. */
export function splitCommand(command: string): CelList {
  const argv = commandArgv(command);
  lastCommands ??= celList(argv.map((words) => celList([...words])));
  return lastCommands;
}

/** The CEL declarations of the functions above. */
export const RULE_CEL_FUNCTIONS: readonly CelFunc[] = [
  celFunc("path.normalize", [STRING], STRING, (path) => normalizePath(path)),
  celFunc("path.within", [STRING, STRING], CelScalar.BOOL, (path, dir) => pathWithin(path, dir)),
  celFunc("path.matches", [STRING, STRING], CelScalar.BOOL, (path, pattern) => pathMatches(path, pattern)),
  celFunc("path.base", [STRING], STRING, (path) => posix.basename(normalizePath(path))),
  celFunc("shell.commands", [STRING], listType(listType(STRING)), (command) => splitCommand(command)),
];
