// Which hook commands can run warm: a plain `python3 script.py args` (or `python`, `python3.N`, a
// path to one) or a script whose shebang names such an interpreter, written without shell syntax.
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

export type WarmPlan = PythonPlan | { readonly kind: "spawn"; readonly code: SpawnCode; readonly reason: string };

/** Words the shell passes through unchanged: no quotes, variables, globs, redirections or operators. */
const PLAIN_WORD = /^[A-Za-z0-9_/.,:@%+=-]+$/;
const PYTHON_NAME = /^python(3(\.\d+)?)?$/;

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

/** The interpreter a shebang names, when it is Python with no options (`/usr/bin/env python3`, `/usr/bin/python3`). */
function shebangInterpreter(line: string, cwd: string, env: NodeJS.ProcessEnv): string | WarmPlan {
  const words = line.split(/[ \t]+/);
  const [first, second, ...rest] = words;
  if (first === "/usr/bin/env" && second !== undefined && rest.length === 0 && PYTHON_NAME.test(second)) {
    return whichCommand(second, cwd, env) ?? spawnBecause("interpreter_not_found", `its shebang's ${second} is not on PATH`);
  }
  if (first !== undefined && second === undefined && isAbsolute(first) && PYTHON_NAME.test(first.split("/").pop() ?? "")) {
    return isExecutableFile(first) ? first : spawnBecause("interpreter_not_found", `its shebang's ${first} is not an executable file`);
  }
  return spawnBecause("shebang", `its shebang (#!${line}) is not a Python interpreter without options`);
}

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
  // A script run directly: the kernel reads its shebang; the shell needs a path to it.
  if (!first.includes("/")) return spawnBecause("not_python", `${first} is not a recognised interpreter`);
  const path = resolve(cwd, first);
  if (!isExecutableFile(path)) return spawnBecause("not_executable", `${first} is not an executable file`);
  const line = shebangOf(path);
  if (line === undefined) return spawnBecause("shebang", `${first} has no shebang`);
  const interpreter = shebangInterpreter(line, cwd, env);
  if (typeof interpreter !== "string") return interpreter;
  if (shebangOf(interpreter) !== undefined) return spawnBecause("launcher_script", `${interpreter} is a launcher script (it may pick another interpreter per directory)`);
  return { kind: "python", interpreter, script: path, argv: [first, ...args] };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
