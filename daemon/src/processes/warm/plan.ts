// Which hook commands can run warm: a plain `python3 script.py args` or `node script.mjs args` (or
// a path to such an interpreter) or a script whose shebang names one, written without shell syntax.
// Resolves the interpreter and script as `/bin/sh -c` would (PATH of the hook's environment, the
// session's cwd); anything else gets the reason it runs as a spawn.
import { accessSync, constants, openSync, readSync, closeSync, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";

export interface PythonPlan {
  readonly kind: "python";
  /** The interpreter's absolute path, as the shell would find it. */
  readonly interpreter: string;
  /** The script's absolute path (its `__file__`). */
  readonly script: string;
  /** `sys.argv`: the script as written in the command, then its arguments. */
  readonly argv: readonly string[];
}

/** Why a hook is spawned, as a closed set (metrics label them) beside the sentence logs and `hookd check` show. */
export type SpawnCode = "shell_syntax" | "not_python" | "interpreter_options" | "interpreter_not_found" | "launcher_script" | "script_not_found" | "not_executable" | "shebang";

export interface NodePlan {
  readonly kind: "node";
  /** The node executable's absolute path, as the shell would find it. */
  readonly interpreter: string;
  /** The word the interpreter was started by (its argv[0]): `node`, or the path as written. */
  readonly argv0: string;
  /** The script's absolute path, as node makes `process.argv[1]` (not resolving symlinks). */
  readonly script: string;
  /** The script's arguments (`process.argv` from index 2). */
  readonly args: readonly string[];
}

export type WarmPlan = PythonPlan | NodePlan | { readonly kind: "spawn"; readonly code: SpawnCode; readonly reason: string };

/** Words the shell passes through unchanged: no quotes, variables, globs, redirections or operators. */
const PLAIN_WORD = /^[A-Za-z0-9_/.,:@%+=-]+$/;
const PYTHON_NAME = /^python(3(\.\d+)?)?$/;
const NODE_NAME = /^node$/;

const spawnBecause = (code: SpawnCode, reason: string): WarmPlan => ({ kind: "spawn", code, reason });

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable the shell runs for `name`: a path as is (against cwd), a bare name from PATH. */
export function whichCommand(name: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes("/")) {
    const path = resolve(cwd, name);
    return isExecutableFile(path) ? path : undefined;
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    const candidate = resolve(cwd, dir === "" ? "." : dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** The script's `#!` line without the `#!`, or undefined when it has none. */
function shebangOf(path: string): string | undefined {
  const buffer = Buffer.alloc(256);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const line = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("latin1").split("\n")[0] ?? "";
    return line.startsWith("#!") ? line.slice(2).trim() : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The interpreter a shebang names and the word it is started by, when it is Python or node with no options (`/usr/bin/env python3`, `/usr/bin/node`). */
function shebangInterpreter(line: string, cwd: string, env: NodeJS.ProcessEnv): { readonly path: string; readonly argv0: string } | WarmPlan {
  const words = line.split(/[ \t]+/);
  const [first, second, ...rest] = words;
  if (first === "/usr/bin/env" && second !== undefined && rest.length === 0 && isWarmName(second)) {
    const path = whichCommand(second, cwd, env);
    return path === undefined ? spawnBecause("interpreter_not_found", `its shebang's ${second} is not on PATH`) : { path, argv0: second };
  }
  if (first !== undefined && second === undefined && isAbsolute(first) && isWarmName(first.split("/").pop() ?? "")) {
    return isExecutableFile(first) ? { path: first, argv0: first } : spawnBecause("interpreter_not_found", `its shebang's ${first} is not an executable file`);
  }
  return spawnBecause("shebang", `its shebang (#!${line}) is not a Python or node interpreter without options`);
}

const isWarmName = (name: string): boolean => PYTHON_NAME.test(name) || NODE_NAME.test(name);

/** How `command` runs for a hook whose session is in `cwd` with environment `env`. */
export function planCommand(command: string, cwd: string, env: NodeJS.ProcessEnv): WarmPlan {
  const words = command.trim().split(/[ \t]+/);
  if (!words.every((word) => PLAIN_WORD.test(word))) return spawnBecause("shell_syntax", "the command uses shell syntax (quotes, variables, operators or redirections)");
  const [first, ...args] = words;
  if (first === undefined || first.includes("=")) return spawnBecause("shell_syntax", "the command sets variables or is empty");
  const launcher = first.split("/").pop() ?? first;
  if (PYTHON_NAME.test(launcher)) {
    const [script, ...scriptArgs] = args;
    if (script === undefined || script.startsWith("-")) return spawnBecause("interpreter_options", "the interpreter runs no script file, or takes options");
    const interpreter = whichCommand(first, cwd, env);
    if (interpreter === undefined) return spawnBecause("interpreter_not_found", `${first} is not found as the shell would find it`);
    if (shebangOf(interpreter) !== undefined) return spawnBecause("launcher_script", `${interpreter} is a launcher script (it may pick another interpreter per directory)`);
    const path = resolve(cwd, script);
    if (!isFile(path)) return spawnBecause("script_not_found", `the script ${script} is not a file`);
    return { kind: "python", interpreter, script: path, argv: [script, ...scriptArgs] };
  }
  if (NODE_NAME.test(launcher)) {
    const [script, ...scriptArgs] = args;
    if (script === undefined || script.startsWith("-")) return spawnBecause("interpreter_options", "node runs no script file, or takes options (-e, --import, --require, flags)");
    return nodePlan(first, script, scriptArgs, cwd, env);
  }
  // A script run directly: the kernel reads its shebang; the shell needs a path to it.
  if (!first.includes("/")) return spawnBecause("not_python", `${first} is not a recognised interpreter`);
  const path = resolve(cwd, first);
  if (!isExecutableFile(path)) return spawnBecause("not_executable", `${first} is not an executable file`);
  const line = shebangOf(path);
  if (line === undefined) return spawnBecause("shebang", `${first} has no shebang`);
  const named = shebangInterpreter(line, cwd, env);
  if ("kind" in named) return named;
  if (NODE_NAME.test(named.argv0.split("/").pop() ?? "")) return nodePlan(named.argv0, path, args, cwd, env, named.path);
  const interpreter = named.path;
  if (shebangOf(interpreter) !== undefined) return spawnBecause("launcher_script", `${interpreter} is a launcher script (it may pick another interpreter per directory)`);
  return { kind: "python", interpreter, script: path, argv: [first, ...args] };
}

/** `node script args` (the interpreter found from `word` unless the shebang found it already). */
function nodePlan(word: string, script: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, found?: string): WarmPlan {
  // Read once at node's start: its flags and loaders would apply to a spare started before them.
  if ((env.NODE_OPTIONS ?? "") !== "") return spawnBecause("interpreter_options", "NODE_OPTIONS is set (its flags and loaders apply at node's start)");
  const interpreter = found ?? whichCommand(word, cwd, env);
  if (interpreter === undefined) return spawnBecause("interpreter_not_found", `${word} is not found as the shell would find it`);
  if (shebangOf(interpreter) !== undefined) return spawnBecause("launcher_script", `${interpreter} is a launcher script (it may pick another interpreter per directory)`);
  const path = resolve(cwd, script);
  if (!isFile(path)) return spawnBecause("script_not_found", `the script ${script} is not a file`);
  return { kind: "node", interpreter, argv0: word, script: path, args };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
