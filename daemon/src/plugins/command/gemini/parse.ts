// A Gemini CLI hooks file (settings with a top-level "hooks", or a bare event map) to a validated
// model, by Gemini 0.61's rules: its 11 event names; groups {matcher?, sequential?, hooks}; hooks
// {type: "command", command, name?, timeout? (MILLISECONDS, default 60 000), description?, env?}.
// A matcher never makes the file invalid: Gemini tests tool names with an unanchored regex and
// falls back to an exact name when the regex does not compile; trigger events (SessionStart,
// SessionEnd, PreCompress) compare exact strings. Non-command hooks are accepted and listed in
// `notes` for `hookd check`; the events without a typed point are parsed like the others and run
// at agent-event. Owns the file format; runs nothing.
import { readFile } from "node:fs/promises";
import { HookdError } from "@hookd/sdk";
import { z } from "zod";
import { check, fail, isObject } from "../parse.js";

export const GEMINI_HOOK_EVENTS = [
  "SessionStart",
  "SessionEnd",
  "BeforeAgent",
  "AfterAgent",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  "BeforeTool",
  "AfterTool",
  "PreCompress",
  "Notification",
] as const;
export type GeminiHookEvent = (typeof GEMINI_HOOK_EVENTS)[number];

/** What each event's matcher is matched against (PreCompress: its `trigger`, exact). */
export const GEMINI_RUN: { readonly [E in GeminiHookEvent]: "tool" | "trigger" | "none" } = {
  SessionStart: "trigger",
  SessionEnd: "trigger",
  BeforeAgent: "none",
  AfterAgent: "none",
  BeforeTool: "tool",
  AfterTool: "tool",
  BeforeModel: "none",
  AfterModel: "none",
  BeforeToolSelection: "none",
  PreCompress: "trigger",
  Notification: "none",
};

/** The events without a typed point: their hooks run at the observe-only agent-event point (gemini/observe.ts). */
export const GEMINI_OBSERVED: ReadonlySet<GeminiHookEvent> = new Set(["BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress", "Notification"]);

export const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;

export interface GeminiHookSpec {
  /** Where the hook sits in the file, e.g. "BeforeTool[0].hooks[1]", plus its name when it has one. */
  readonly id: string;
  readonly command: string;
  readonly timeoutMs: number;
  /** Whether `timeout` was written in the file (not Gemini's default). */
  readonly ownTimeout: boolean;
  /** The hook's own environment additions (Gemini's `env`). */
  readonly env: Readonly<Record<string, string>>;
  /** Gemini's de-duplication key: name and command. */
  readonly key: string;
}

export interface GeminiHookGroup {
  readonly event: GeminiHookEvent;
  readonly matcher: string | undefined;
  readonly matches: (input: string) => boolean;
  readonly sequential: boolean;
  readonly hooks: readonly GeminiHookSpec[];
}

export interface GeminiHooksModel {
  readonly groups: { readonly [E in GeminiHookEvent]?: readonly GeminiHookGroup[] };
  readonly notes: readonly string[];
}

const group = z.looseObject({
  matcher: z.string({ error: "expected a string" }).optional(),
  sequential: z.boolean({ error: "expected true or false" }).optional(),
  hooks: z.array(z.unknown(), { error: "expected a list of hooks" }),
});
const handlerType = z.looseObject({ type: z.string({ error: 'expected a string such as "command"' }) });
const commandHook = z.looseObject({
  type: z.literal("command"),
  command: z.string({ error: "expected a string" }).trim().min(1, { error: "expected a non-empty command" }),
  name: z.string({ error: "expected a string" }).optional(),
  timeout: z.number({ error: "expected a number of milliseconds" }).positive({ error: "expected a positive number of milliseconds" }).optional(),
  env: z.record(z.string(), z.string(), { error: "expected an object of strings" }).optional(),
});

const isGeminiEvent = (name: string): name is GeminiHookEvent => (GEMINI_HOOK_EVENTS as readonly string[]).includes(name);

/** Gemini's matcher rule for one group (never fails). */
export function geminiMatcher(pattern: string | undefined, on: "tool" | "trigger" | "none"): (input: string) => boolean {
  const trimmed = pattern?.trim() ?? "";
  if (trimmed === "" || trimmed === "*" || on === "none") return () => true;
  if (on === "trigger") return (input) => input === trimmed;
  try {
    const regex = new RegExp(trimmed);
    return (input) => regex.test(input);
  } catch {
    return (input) => input === trimmed;
  }
}

export function parseGeminiHooks(value: unknown, source: string): GeminiHooksModel {
  if (!isObject(value)) return fail(source, "(file)", 'expected a JSON object of hook events, or settings with a "hooks" object');
  const map = "hooks" in value ? value.hooks : value;
  if (!isObject(map)) return fail(source, "hooks", "expected an object of hook events");
  const groups: { [E in GeminiHookEvent]?: readonly GeminiHookGroup[] } = {};
  const notes: string[] = [];
  for (const [event, entries] of Object.entries(map)) {
    // Gemini's own switches in the same object (enabled, disabled, notifications) are not events.
    if (event === "enabled" || event === "disabled" || event === "notifications") continue;
    if (!isGeminiEvent(event)) fail(source, event, `unknown Gemini CLI hook event; expected one of ${GEMINI_HOOK_EVENTS.join(", ")}`);
    const list = check(z.array(group, { error: "expected a list of matcher groups" }), entries, source, event);
    const on = GEMINI_RUN[event];
    groups[event] = list.map((entry, index) => {
      const path = `${event}[${index}]`;
      if (on === "none" && entry.matcher !== undefined && entry.matcher.trim() !== "") notes.push(`${path}.matcher: ignored (${event} has no matcher; every hook of the event runs)`);
      const hooks: GeminiHookSpec[] = [];
      entry.hooks.forEach((raw, hookIndex) => {
        const id = `${path}.hooks[${hookIndex}]`;
        const { type } = check(handlerType, raw, source, id);
        if (type !== "command") {
          notes.push(`${id}: hooks of type "${type}" are accepted but not run (hookd runs "command" hooks)`);
          return;
        }
        const hook = check(commandHook, raw, source, id);
        hooks.push(
          Object.freeze({
            id: hook.name === undefined ? id : `${id} (${hook.name})`,
            command: hook.command,
            timeoutMs: hook.timeout ?? GEMINI_DEFAULT_TIMEOUT_MS,
            ownTimeout: hook.timeout !== undefined,
            env: Object.freeze({ ...(hook.env ?? {}) }),
            key: `${hook.name ?? ""}:${hook.command}`,
          }),
        );
      });
      return Object.freeze({ event, matcher: entry.matcher, matches: geminiMatcher(entry.matcher, on), sequential: entry.sequential === true, hooks: Object.freeze(hooks) });
    });
  }
  return Object.freeze({ groups: Object.freeze(groups), notes: Object.freeze(notes) });
}

export async function loadGeminiHooksFile(path: string): Promise<GeminiHooksModel> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new HookdError("invalid_plugin", `${path}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(path, "(file)", `not valid JSON: ${(error as Error).message}`);
  }
  return parseGeminiHooks(value, path);
}
