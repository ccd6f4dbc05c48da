// A hooks file to a validated model, by the format its agent gives (agents/<agent>/):
// a bare event map `{ "PreToolUse": [ { matcher, hooks } ] }` or settings with a top-level "hooks"
// (other settings keys are left alone). Every matcher that is used is compiled here, so one the
// agent would refuse rejects the WHOLE file with an error naming the event and index; a matcher
// on an event without a matcher field is ignored, as the agents ignore it. Entries hookd cannot
// run (other hook types, async hooks) are accepted and listed in `notes` for `hookd check`. Owns
// the file format's shape; runs nothing.
import { readFile } from "node:fs/promises";
import { HookdError } from "@hookd/sdk";
import { z } from "zod";
import type { EventSpec, HookGroup, HookSpec, HooksModel } from "./contract.js";
import type { CompiledMatcher } from "./matcher.js";

/** What differs between the agents' hooks files. */
export interface HooksFileFormat {
  readonly dialect: string;
  /** "Gemini CLI hook event", "hook event": what an unknown event name is not. */
  readonly eventWord: string;
  readonly events: { readonly [event: string]: EventSpec };
  /** Keys of the event map that are the agent's own switches, not events. */
  readonly switches?: readonly string[];
  /** Compiles a group's matcher for an event, as the agent reads it. */
  readonly matcher: (pattern: string | undefined, spec: EventSpec) => CompiledMatcher;
  /** The unit of a hook's `timeout`. */
  readonly timeoutUnit: "seconds" | "milliseconds";
  /** The timeout the agent gives a hook of `event`, in ms, given its own (in the file's unit). */
  readonly timeoutMs: (event: string, own: number | undefined) => number;
  /** Events whose hooks share one budget (at least this many ms): each gets the longest timeout. */
  readonly sharedTimeoutMs?: (event: string) => number | undefined;
  /** Groups may say `sequential: true`; hooks may have a `name` and an `env`. */
  readonly sequentialGroups: boolean;
  readonly namedHooks: boolean;
  /** `async: true` hooks run in the background in the agent: accepted, never run. */
  readonly asyncHooks: boolean;
}

const group = z.looseObject({
  matcher: z.string({ error: "expected a string" }).optional(),
  sequential: z.boolean({ error: "expected true or false" }).optional(),
  hooks: z.array(z.unknown(), { error: "expected a list of hooks" }),
});

const handlerType = z.looseObject({ type: z.string({ error: 'expected a string such as "command"' }) });

function commandHook(unit: HooksFileFormat["timeoutUnit"]) {
  return z.looseObject({
    type: z.literal("command"),
    command: z.string({ error: "expected a string" }).trim().min(1, { error: "expected a non-empty command" }),
    timeout: z.number({ error: `expected a number of ${unit}` }).positive({ error: `expected a positive number of ${unit}` }).optional(),
    async: z.boolean({ error: "expected true or false" }).optional(),
    name: z.string({ error: "expected a string" }).optional(),
    env: z.record(z.string(), z.string(), { error: "expected an object of strings" }).optional(),
  });
}

/** A hooks file's mistake, naming the file and the path of the bad entry. */
export function fail(source: string, path: string, message: string): never {
  throw new HookdError("invalid_plugin", `${source}: ${path}: ${message}`);
}

/** Validates one entry; the first issue fails the file with its path. */
export function check<T>(schema: z.ZodType<T>, value: unknown, source: string, path: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const where = (issue?.path ?? []).map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
  return fail(source, `${path}${where}`, issue?.message ?? "invalid");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The event map of a file: its top-level "hooks" object when it has one, else the file itself. */
function eventMap(value: unknown, source: string): Record<string, unknown> {
  if (!isObject(value)) return fail(source, "(file)", 'expected a JSON object of hook events, or settings with a "hooks" object');
  if (!("hooks" in value)) return value;
  if (!isObject(value.hooks)) return fail(source, "hooks", "expected an object of hook events");
  return value.hooks;
}

function parseGroup(format: HooksFileFormat, event: string, raw: unknown, index: number, source: string, notes: string[]): HookGroup {
  const spec = format.events[event] as EventSpec;
  const path = `${event}[${index}]`;
  const entry = check(group, raw, source, path);
  const ignored = spec.matchOn === "none";
  const compiled = format.matcher(ignored ? undefined : entry.matcher, spec);
  if (!compiled.ok) fail(source, `${path}.matcher`, compiled.error);
  if (ignored && entry.matcher !== undefined && entry.matcher.trim() !== "") notes.push(`${path}.matcher: ignored (${event} has no matcher; every hook of the event runs)`);
  const schema = commandHook(format.timeoutUnit);
  const hooks: HookSpec[] = [];
  entry.hooks.forEach((rawHook, hookIndex) => {
    const id = `${path}.hooks[${hookIndex}]`;
    const { type } = check(handlerType, rawHook, source, id);
    if (type !== "command") {
      notes.push(`${id}: hooks of type "${type}" are accepted but not run (hookd runs "command" hooks)`);
      return;
    }
    const hook = check(schema, rawHook, source, id);
    if (format.asyncHooks && hook.async === true) {
      notes.push(`${id}: async hooks are accepted but not run (their answers could never take effect)`);
      return;
    }
    const name = format.namedHooks ? hook.name : undefined;
    hooks.push(
      Object.freeze({
        id: name === undefined ? id : `${id} (${name})`,
        event,
        command: hook.command,
        timeoutMs: format.timeoutMs(event, hook.timeout),
        ownTimeout: hook.timeout !== undefined,
        env: Object.freeze(format.namedHooks ? { ...(hook.env ?? {}) } : {}),
        key: format.namedHooks ? `${hook.name ?? ""}:${hook.command}` : hook.command,
      }),
    );
  });
  return Object.freeze({ event, index, matcher: entry.matcher, matches: compiled.matches, sequential: format.sequentialGroups && entry.sequential === true, hooks: Object.freeze(hooks) });
}

/** Every hook of an event that shares one budget gets that budget as its timeout. */
function shareTimeout(groups: HookGroup[], minMs: number | undefined): HookGroup[] {
  if (minMs === undefined) return groups;
  const shared = Math.max(minMs, ...groups.flatMap((g) => g.hooks.map((h) => h.timeoutMs)));
  return groups.map((g) => Object.freeze({ ...g, hooks: Object.freeze(g.hooks.map((h) => Object.freeze({ ...h, timeoutMs: shared }))) }));
}

/** Validates a parsed hooks file. Throws HookdError("invalid_plugin") naming the bad entry. */
export function parseHooksFile(format: HooksFileFormat, value: unknown, source: string): HooksModel {
  const groups: { [event: string]: readonly HookGroup[] } = {};
  const notes: string[] = [];
  for (const [event, entries] of Object.entries(eventMap(value, source))) {
    if (format.switches?.includes(event) === true) continue;
    if (!Object.hasOwn(format.events, event)) fail(source, event, `unknown ${format.eventWord}; expected one of ${Object.keys(format.events).join(", ")}`);
    const list = check(z.array(z.unknown(), { error: "expected a list of matcher groups" }), entries, source, event);
    const parsed = list.map((raw, index) => parseGroup(format, event, raw, index, source, notes));
    groups[event] = Object.freeze(shareTimeout(parsed, format.sharedTimeoutMs?.(event)));
  }
  return Object.freeze({ dialect: format.dialect, groups: Object.freeze(groups), notes: Object.freeze(notes) });
}

/** Parses hooks-file text; a JSON syntax error is reported like any other problem. */
export function parseHooksText(parse: (value: unknown, source: string) => HooksModel, text: string, source: string): HooksModel {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(source, "(file)", `not valid JSON: ${(error as Error).message}`);
  }
  return parse(value, source);
}

export async function loadHooksFile(parse: (value: unknown, source: string) => HooksModel, path: string): Promise<HooksModel> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new HookdError("invalid_plugin", `${path}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
  return parseHooksText(parse, text, path);
}
