// shell-policy: a pre-tool gate that denies dangerous shell commands and has no opinion on anything
// else (pass: the next plugin, or the agent's own permission rules, decide).
// Each rule has a name, and a denial's reason names the rule that matched, so the model (and the
// audit log) can tell why. The same definition runs in-process in the daemon and out of process
// through servePlugin (see serve.ts).
import { definePlugin, deny, pass } from "@hookd/sdk";
import type { JsonValue, PreToolEvent } from "@hookd/sdk";

export interface Rule {
  /** Short, stable, shown in the reason. */
  readonly name: string;
  readonly description: string;
  readonly matches: (command: string) => boolean;
}

/** One simple command of a pipeline or list, as whitespace-separated words (quotes dropped). */
function simpleCommands(command: string): string[][] {
  return command
    .split(/\|\||&&|[;|&\n]/)
    .map((part) => part.replace(/["']/g, "").trim().split(/\s+/).filter((word) => word !== ""))
    .filter((words) => words.length > 0);
}

/** The words of a simple command after `sudo`, `env`, `command`, `nice` and VAR=value prefixes. */
function unwrap(words: readonly string[]): string[] {
  let rest = [...words];
  while (rest.length > 0 && (/^(sudo|env|command|nice|nohup|time|exec)$/.test(rest[0] ?? "") || /^\w+=/.test(rest[0] ?? ""))) rest = rest.slice(1);
  return rest;
}

const ROOT_TARGETS = new Set(["/", "/*", "/.", "/.."]);

/** `rm` with a recursive flag aimed at the root directory. */
function recursiveRemoveOfRoot(command: string): boolean {
  return simpleCommands(command).some((raw) => {
    const [program, ...args] = unwrap(raw);
    if (program === undefined || !/(^|\/)rm$/.test(program)) return false;
    const recursive = args.some((arg) => arg === "--recursive" || /^-[a-zA-Z]*[rR]/.test(arg));
    return recursive && args.some((arg) => ROOT_TARGETS.has(arg));
  });
}

/** `chmod -R 777` (or a+rwx) on the root directory. */
function recursiveChmodOfRoot(command: string): boolean {
  return simpleCommands(command).some((raw) => {
    const [program, ...args] = unwrap(raw);
    if (program === undefined || !/(^|\/)chmod$/.test(program)) return false;
    const recursive = args.some((arg) => arg === "--recursive" || /^-[a-zA-Z]*R/.test(arg));
    const open = args.some((arg) => /^0?777$/.test(arg) || /^(a|ugo)\+rwx$/.test(arg));
    return recursive && open && args.some((arg) => ROOT_TARGETS.has(arg));
  });
}

export const RULES: readonly Rule[] = Object.freeze([
  { name: "rm -rf /", description: "recursive delete of the root directory", matches: recursiveRemoveOfRoot },
  {
    name: "download piped to a shell",
    description: "runs whatever a URL serves (curl … | sh)",
    matches: (command) => /\b(curl|wget|fetch)\b[^|;&\n]*\|\s*(sudo\s+)?(\S*\/)?(ba|da|z|k|fi)?sh\b/.test(command),
  },
  {
    name: "fork bomb",
    description: "a function that spawns itself until the machine stalls",
    matches: (command) => /(\w+|:)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(command),
  },
  { name: "mkfs", description: "formats a filesystem", matches: (command) => /(^|[\s;&|/])mkfs(\.\w+)?(\s|$)/.test(command) },
  {
    name: "dd to a raw disk",
    description: "overwrites a block device (dd of=/dev/sd…)",
    matches: (command) => /\bdd\b[^;&|\n]*\bof=\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk)/.test(command),
  },
  { name: "chmod -R 777 /", description: "makes every file on the machine writable by anyone", matches: recursiveChmodOfRoot },
]);

/** The first rule a command breaks, if any. */
export function findViolation(command: string): Rule | undefined {
  return RULES.find((rule) => rule.matches(command));
}

/**
 * The shell command a tool call runs: the `command` (or `cmd`, `script`) argument, a string or
 * a list of words; a call whose arguments are a bare string is that string.
 */
export function commandOf(args: JsonValue): string | undefined {
  if (typeof args === "string") return args;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  for (const key of ["command", "cmd", "script"]) {
    const value = (args as { readonly [key: string]: JsonValue | undefined })[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((word) => typeof word === "string")) return value.join(" ");
  }
  return undefined;
}

export const PLUGIN_NAME = "shell-policy";

export function decide(event: PreToolEvent) {
  const command = commandOf(event.call.arguments);
  const rule = command === undefined ? undefined : findViolation(command);
  if (rule === undefined) return pass();
  return deny(`${PLUGIN_NAME}: denied by rule "${rule.name}": ${rule.description}`);
}

export default definePlugin({
  name: PLUGIN_NAME,
  version: "0.1.0",
  sideEffectFree: true,
  points: {
    "pre-tool": {
      tools: ["Bash", "shell", "exec*"],
      priority: 10,
      failurePolicy: "fail-closed",
      handler: decide,
    },
  },
});
