// A hooks file to a validated model: a bare event map `{ "PreToolUse": [ { matcher, hooks } ] }`
// or settings with a top-level "hooks" (other settings keys are left alone). Every matcher that
// is used is compiled here, so an invalid one rejects the WHOLE file with an error naming the
// event and index; a matcher on an event without a matcher field is ignored, as the agents
// ignore it. Events without a typed point are kept apart (`observed`, run at agent-event). Entries
// hookd cannot run (other hook types, async hooks) are accepted and listed in `notes` for
// `hookd check`. Owns the file format; runs nothing.
import { readFile } from "node:fs/promises";
import { HookdError } from "@hookd/sdk";
import { z } from "zod";
import { DIALECTS, EVENT_SPECS, HOOK_EVENTS, OBSERVED_EVENTS, hookTimeoutSec, isHookEvent } from "./dialect.js";
import type { Dialect, HookEvent } from "./dialect.js";
import { compileMatcher } from "./matcher.js";
import type { Matcher } from "./matcher.js";

export interface HookSpec {
  /** Where the hook sits in the file, e.g. "PreToolUse[0].hooks[1]": its name in logs and audits. */
  readonly id: string;
  readonly event: HookEvent;
  readonly command: string;
  /** The timeout the agent would give it: its own `timeout`, else the dialect's default for the event. */
  readonly timeoutSec: number;
  /** Whether `timeout` was written in the file (a longer one than hookd's budget is warned about). */
  readonly ownTimeout: boolean;
}

export interface HookGroup {
  readonly event: HookEvent;
  readonly index: number;
  /** The matcher as written (absent when the group has none). */
  readonly matcher: string | undefined;
  readonly matches: Matcher;
  readonly hooks: readonly HookSpec[];
}

/** A group of an event without a typed point: its hooks run at agent-event (observe.ts). */
export interface ObservedGroup {
  readonly event: string;
  readonly index: number;
  readonly matcher: string | undefined;
  readonly matches: Matcher;
  readonly hooks: readonly (Omit<HookSpec, "event"> & { readonly event: string })[];
}

export interface HooksModel {
  readonly dialect: Dialect;
  /** Groups per event, in file order. */
  readonly groups: { readonly [E in HookEvent]?: readonly HookGroup[] };
  /** Groups per event without a typed point, in file order. */
  readonly observed: { readonly [event: string]: readonly ObservedGroup[] };
  /** What is accepted but never run, one line each (shown by `hookd check`). */
  readonly notes: readonly string[];
}

const group = z.looseObject({
  matcher: z.string({ error: "expected a string" }).optional(),
  hooks: z.array(z.unknown(), { error: "expected a list of hooks" }),
});

const handlerType = z.looseObject({ type: z.string({ error: 'expected a string such as "command"' }) });

const commandHook = z.looseObject({
  type: z.literal("command"),
  command: z.string({ error: "expected a string" }).trim().min(1, { error: "expected a non-empty command" }),
  timeout: z.number({ error: "expected a number of seconds" }).positive({ error: "expected a positive number of seconds" }).optional(),
  async: z.boolean({ error: "expected true or false" }).optional(),
});

/** A hooks file's mistake, naming the file and the path of the bad entry (shared with the Gemini reader). */
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

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The event map of a file: its top-level "hooks" object when it has one, else the file itself. */
function eventMap(value: unknown, source: string): Record<string, unknown> {
  if (!isObject(value)) return fail(source, "(file)", "expected a JSON object of hook events, or settings with a \"hooks\" object");
  if (!("hooks" in value)) return value;
  if (!isObject(value.hooks)) return fail(source, "hooks", "expected an object of hook events");
  return value.hooks;
}

interface ParsedGroup {
  readonly matcher: string | undefined;
  readonly matches: Matcher;
  readonly hooks: { readonly id: string; readonly command: string; readonly timeout: number | undefined }[];
}

/**
 * One matcher group: its matcher compiled in `mode` (never, when the event has no matcher field:
 * the agents never look at it, so its syntax cannot reject the file) and its runnable hooks.
 */
function parseGroup(raw: unknown, path: string, source: string, mode: "claude-code" | "regex" | "ignored", notes: string[], event: string): ParsedGroup {
  const entry = check(group, raw, source, path);
  const ignored = mode === "ignored";
  const compiled = compileMatcher(ignored ? undefined : entry.matcher, ignored ? "regex" : mode);
  if (!compiled.ok) fail(source, `${path}.matcher`, compiled.error);
  if (ignored && entry.matcher !== undefined && entry.matcher !== "") {
    notes.push(`${path}.matcher: ignored (${event} has no matcher; every hook of the event runs)`);
  }
  const hooks: ParsedGroup["hooks"] = [];
  entry.hooks.forEach((rawHook, hookIndex) => {
    const id = `${path}.hooks[${hookIndex}]`;
    const { type } = check(handlerType, rawHook, source, id);
    if (type !== "command") {
      notes.push(`${id}: hooks of type "${type}" are accepted but not run (hookd runs "command" hooks)`);
      return;
    }
    const hook = check(commandHook, rawHook, source, id);
    if (hook.async === true) {
      notes.push(`${id}: async hooks are accepted but not run (their answers could never take effect)`);
      return;
    }
    hooks.push({ id, command: hook.command, timeout: hook.timeout });
  });
  return { matcher: entry.matcher, matches: compiled.matches, hooks };
}

/** Validates a parsed hooks file. Throws HookdError("invalid_plugin") naming the bad entry. */
export function parseHooks(value: unknown, dialect: Dialect, source: string): HooksModel {
  const spec = DIALECTS[dialect];
  const groups: { [E in HookEvent]?: readonly HookGroup[] } = {};
  const observed: { [event: string]: readonly ObservedGroup[] } = {};
  const notes: string[] = [];
  for (const [event, entries] of Object.entries(eventMap(value, source))) {
    const list = check(z.array(z.unknown(), { error: "expected a list of matcher groups" }), entries, source, event);
    if (!isHookEvent(event)) {
      const match = Object.hasOwn(OBSERVED_EVENTS, event) ? OBSERVED_EVENTS[event] : undefined;
      if (match === undefined) fail(source, event, `unknown hook event; expected one of ${[...HOOK_EVENTS, ...Object.keys(OBSERVED_EVENTS)].join(", ")}`);
      const mode = match.on === "none" ? "ignored" : match.names ? spec.matcherMode : "regex";
      observed[event] = Object.freeze(
        list.map((raw, index) => {
          const parsed = parseGroup(raw, `${event}[${index}]`, source, mode, notes, event);
          const hooks = parsed.hooks.map((h) => Object.freeze({ id: h.id, event, command: h.command, timeoutSec: h.timeout ?? spec.defaultTimeoutSec, ownTimeout: h.timeout !== undefined }));
          return Object.freeze({ event, index, matcher: parsed.matcher, matches: parsed.matches, hooks: Object.freeze(hooks) });
        }),
      );
      continue;
    }
    const mode = EVENT_SPECS[event].matchOn === "none" ? "ignored" : spec.matcherMode;
    const parsed = list.map((raw, index): HookGroup => {
      const entry = parseGroup(raw, `${event}[${index}]`, source, mode, notes, event);
      const hooks = entry.hooks.map((h) => Object.freeze({ id: h.id, event, command: h.command, timeoutSec: hookTimeoutSec(dialect, event, h.timeout), ownTimeout: h.timeout !== undefined }));
      return Object.freeze({ event, index, matcher: entry.matcher, matches: entry.matches, hooks: Object.freeze(hooks) });
    });
    groups[event] = Object.freeze(shareTimeout(parsed, spec.sharedTimeout[event]?.minSec));
  }
  return Object.freeze({ dialect, groups: Object.freeze(groups), observed: Object.freeze(observed), notes: Object.freeze(notes) });
}

/** Every hook of an event that shares one budget gets that budget as its timeout. */
function shareTimeout(groups: HookGroup[], minSec: number | undefined): HookGroup[] {
  if (minSec === undefined) return groups;
  const shared = Math.max(minSec, ...groups.flatMap((g) => g.hooks.map((h) => h.timeoutSec)));
  return groups.map((g) => Object.freeze({ ...g, hooks: Object.freeze(g.hooks.map((h) => Object.freeze({ ...h, timeoutSec: shared }))) }));
}

/** Parses hooks-file text; a JSON syntax error is reported like any other problem. */
export function parseHooksText(text: string, dialect: Dialect, source: string): HooksModel {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(source, "(file)", `not valid JSON: ${(error as Error).message}`);
  }
  return parseHooks(value, dialect, source);
}

export async function loadHooksFile(path: string, dialect: Dialect): Promise<HooksModel> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new HookdError("invalid_plugin", `${path}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
  return parseHooksText(text, dialect, path);
}
