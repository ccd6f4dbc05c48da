// GitHub Copilot CLI's hooks file: `{"version": 1, "hooks": {"<event>": [hook, ...]}}` (its
// `disableAllHooks: true` turns them all off). A hook is {type: "command", bash | command, cwd?,
// env?, timeoutSec? (default 30), matcher?} or {type: "command", exec, args?}; a list entry may
// also be a Claude-style group {matcher, hooks: [hook, ...]}, one level deep. http and prompt
// hooks, powershell-only ones and events named in PascalCase are accepted and listed in the
// notes, as are postResult and prePRDescription (its schema's SDK-callback events): hookd's
// command kind runs the camelCase command hooks. Owns the file's shape; runs nothing.
import { z } from "zod";
import type { HookGroup, HookSpec, HooksModel } from "../contract.js";
import { check, fail } from "../hooks-file.js";
import { compileMatcher } from "../matcher.js";
import { CLAUDE_STYLE_EVENTS, COPILOT_EVENTS, UNFIRED_EVENTS } from "./events.js";

const DEFAULT_TIMEOUT_SEC = 30;

const file = z.looseObject({
  version: z.literal(1, { error: "expected 1 (Copilot's hooks file version)" }),
  disableAllHooks: z.boolean({ error: "expected true or false" }).optional(),
  hooks: z.record(z.string(), z.array(z.unknown(), { error: "expected a list of hooks" }), { error: "expected an object of hook events" }),
});

const hookEntry = z.looseObject({
  // A group {matcher, hooks} has no type of its own.
  type: z.string({ error: 'expected a string such as "command"' }).optional(),
  bash: z.string({ error: "expected a string" }).optional(),
  command: z.string({ error: "expected a string" }).optional(),
  powershell: z.string({ error: "expected a string" }).optional(),
  exec: z.string({ error: "expected a string" }).optional(),
  args: z.array(z.string({ error: "expected a string" }), { error: "expected a list of strings" }).optional(),
  cwd: z.string({ error: "expected a string" }).optional(),
  env: z.record(z.string(), z.string(), { error: "expected an object of strings" }).optional(),
  timeoutSec: z.number({ error: "expected a number of seconds" }).positive({ error: "expected a positive number of seconds" }).optional(),
  matcher: z.string({ error: "expected a string" }).min(1, { error: "matcher cannot be empty (omit it to match every tool)" }).optional(),
  hooks: z.array(z.unknown(), { error: "expected a list of hooks" }).optional(),
});
type HookEntry = z.infer<typeof hookEntry>;

const quoted = (word: string): string => (/^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** The shell command a hook runs: bash (or command), or exec with its args quoted; undefined for a powershell-only hook. */
function commandOf(entry: HookEntry, source: string, path: string): string | undefined {
  const shell = entry.bash ?? entry.command;
  if (entry.exec !== undefined && shell !== undefined) fail(source, path, "specify either exec or bash/command, not both");
  if (entry.exec !== undefined) return [entry.exec, ...(entry.args ?? [])].map(quoted).join(" ");
  if (shell !== undefined && shell.trim() === "") fail(source, path, "expected a non-empty command");
  if (shell === undefined && entry.powershell === undefined) fail(source, path, "a command hook needs bash, command, exec or powershell");
  return shell;
}

function hookSpec(event: string, entry: HookEntry, command: string, id: string): HookSpec {
  const env = { ...(entry.env ?? {}) };
  const cwd = entry.cwd === undefined ? "" : `cd ${quoted(entry.cwd)} && `;
  return Object.freeze({ id, event, command: `${cwd}${command}`, timeoutMs: (entry.timeoutSec ?? DEFAULT_TIMEOUT_SEC) * 1000, ownTimeout: entry.timeoutSec !== undefined, env: Object.freeze(env), key: `${cwd}${command}` });
}

/** One list entry as a group: a single hook, or a one-level group of hooks under a matcher. */
function group(event: string, raw: unknown, index: number, source: string, notes: string[]): HookGroup {
  const path = `hooks.${event}[${index}]`;
  const entry = check(hookEntry, raw, source, path);
  const spec = COPILOT_EVENTS[event];
  const compiled = compileMatcher(spec?.matchOn === "none" ? undefined : entry.matcher, "names-or-regex");
  if (!compiled.ok) fail(source, `${path}.matcher`, compiled.error);
  if (spec?.matchOn === "none" && entry.matcher !== undefined) notes.push(`${path}.matcher: ignored (${event} has no matcher; every hook of the event runs)`);
  const members = entry.hooks === undefined ? [{ raw, id: path }] : entry.hooks.map((inner, i) => ({ raw: inner, id: `${path}.hooks[${i}]` }));
  const hooks: HookSpec[] = [];
  for (const member of members) {
    const hook = member.raw === raw ? entry : check(hookEntry, member.raw, source, member.id);
    if (hook.hooks !== undefined && member.raw !== raw) fail(source, member.id, "nested hooks deeper than one level are not supported");
    if (hook.type === undefined) fail(source, member.id, 'expected a hook type such as "command"');
    if (hook.type !== "command") {
      notes.push(`${member.id}: hooks of type "${hook.type}" are accepted but not run (hookd runs "command" hooks)`);
      continue;
    }
    const command = commandOf(hook, source, member.id);
    if (command === undefined) {
      notes.push(`${member.id}: a powershell-only hook is accepted but not run (hookd runs bash)`);
      continue;
    }
    hooks.push(hookSpec(event, hook, command, member.id));
  }
  return Object.freeze({ event, index, matcher: entry.matcher, matches: compiled.matches, sequential: false, hooks: Object.freeze(hooks) });
}

/** Validates a parsed Copilot hooks file. Throws HookdError("invalid_plugin") naming the bad entry. */
export function parseCopilotHooksFile(value: unknown, source: string): HooksModel {
  const parsed = check(file, value, source, "(file)");
  const groups: { [event: string]: readonly HookGroup[] } = {};
  const notes: string[] = [];
  if (parsed.disableAllHooks === true) notes.push("disableAllHooks: true: Copilot runs none of these hooks, and neither does hookd");
  for (const [event, entries] of Object.entries(parsed.hooks)) {
    if (CLAUDE_STYLE_EVENTS.includes(event)) {
      notes.push(`hooks.${event}: events named in PascalCase (Claude-Code-style payloads) are accepted but not run by hookd; use Copilot's camelCase names (${Object.keys(COPILOT_EVENTS).join(", ")})`);
      continue;
    }
    if (UNFIRED_EVENTS.includes(event)) {
      notes.push(`hooks.${event}: accepted but not run (Copilot CLI lists it for SDK callbacks; its CLI was not seen to fire it)`);
      continue;
    }
    if (!Object.hasOwn(COPILOT_EVENTS, event)) fail(source, `hooks.${event}`, `unknown GitHub Copilot CLI hook event; expected one of ${Object.keys(COPILOT_EVENTS).join(", ")}`);
    if (parsed.disableAllHooks === true) continue;
    groups[event] = Object.freeze(entries.map((raw, index) => group(event, raw, index, source, notes)));
  }
  return Object.freeze({ dialect: "copilot-cli", groups: Object.freeze(groups), notes: Object.freeze(notes) });
}
