// A Gemini CLI hooks file's events without a typed point (BeforeModel, AfterModel,
// BeforeToolSelection, PreCompress, Notification) run at the observe-only `agent-event` point,
// as the Claude Code / Codex kind's do (../observe.ts): subscribed by exactly the event names the
// file has hooks for, Gemini events only, matched as Gemini matches them (PreCompress: its
// `trigger`, exact), with Gemini's own payload on stdin and its common fields filled in where
// the payload lacks them. Hooks of a `sequential` group run one after another, each on the same
// payload (nothing they answer is applied, so nothing chains). A deny or `continue: false` is
// reported as not honoured; a failed hook is the plugin's fault with its cause (contained).
import { compileToolMatcher, toJsonText } from "@hookd/sdk";
import type { AgentEventEvent, JsonValue, SessionInfo } from "@hookd/sdk";
import { childEnv } from "../../../child-env.js";
import type { Listener } from "../../../engine/listener.js";
import { isJsonObject } from "../observe.js";
import { PASS, observerListener, settleObserved } from "../observer.js";
import type { ObservedReport } from "../observer.js";
import type { PayloadExtras } from "../payload.js";
import { runHook } from "../runner.js";
import { interpretGeminiRun } from "./output.js";
import type { GeminiResult } from "./output.js";
import { GEMINI_OBSERVED, GEMINI_RUN } from "./parse.js";
import type { GeminiHookEvent, GeminiHookSpec, GeminiHooksModel } from "./parse.js";


export interface GeminiObservedOptions {
  readonly plugin: string;
  readonly settings: { readonly priority?: number; readonly deadlineMs?: number; readonly tools?: readonly string[] };
  readonly env?: NodeJS.ProcessEnv;
  readonly fallbackCwd: string;
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
  readonly onObserved?: (report: ObservedReport) => void;
}

const isObserved = (event: string): event is GeminiHookEvent => GEMINI_OBSERVED.has(event as GeminiHookEvent);

/** The stdin text: Gemini's common fields, then its payload (which wins), named as the event. */
export function geminiObservedPayload(event: AgentEventEvent, extras: PayloadExtras, now: Date = new Date()): string {
  const { session } = event;
  const common: Record<string, JsonValue> = { session_id: session.sessionId, transcript_path: extras.transcriptPath ?? "", cwd: session.cwd, timestamp: now.toISOString() };
  return toJsonText({ ...common, ...(isJsonObject(event.payload) ? event.payload : {}), hook_event_name: event.eventName }, "payload");
}

/** Gemini runs every hook unless the event has a trigger to compare (PreCompress); an absent trigger matches nothing but match-all groups. */
function triggerOf(event: GeminiHookEvent, payload: JsonValue): string | undefined {
  if (GEMINI_RUN[event] !== "trigger" || !isJsonObject(payload)) return undefined;
  return typeof payload.trigger === "string" ? payload.trigger : "";
}

function notHonoured(result: GeminiResult, event: string): string[] {
  const lines: string[] = [];
  if (result.decision === "deny") lines.push(`${result.hook}: its deny${result.reason === undefined ? "" : ` (${result.reason})`} is not honoured: ${event} runs at the observe-only agent-event point`);
  if (result.stop !== undefined) lines.push(`${result.hook}: its continue: false is not honoured: ${event} runs at the observe-only agent-event point`);
  return lines;
}

export function geminiObservedListener(model: GeminiHooksModel, options: GeminiObservedOptions): Listener<"agent-event"> | undefined {
  const events = new Set([...GEMINI_OBSERVED].filter((event) => (model.groups[event] ?? []).some((g) => g.hooks.length > 0)));
  if (events.size === 0) return undefined;
  const { settings } = options;
  const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.agent-event.tools`);
  const deadlineOf = (event: GeminiHookEvent): number => {
    const groups = model.groups[event] ?? [];
    const timeouts = groups.flatMap((g) => g.hooks.map((h) => h.timeoutMs));
    return groups.some((g) => g.sequential) ? timeouts.reduce((a, b) => a + b, 0) : Math.max(0, ...timeouts);
  };
  const longestMs = Math.max(...[...events].map(deadlineOf));
  const fire = async (event: AgentEventEvent, signal: AbortSignal): Promise<unknown> => {
    if (event.dialect !== "gemini" || !isObserved(event.eventName)) return PASS;
    const trigger = triggerOf(event.eventName, event.payload);
    const seen = new Set<string>();
    const hooks: GeminiHookSpec[] = [];
    let sequential = false;
    for (const group of model.groups[event.eventName] ?? []) {
      if (trigger !== undefined && !group.matches(trigger)) continue;
      sequential ||= group.sequential;
      for (const hook of group.hooks) {
        if (seen.has(hook.key)) continue;
        seen.add(hook.key);
        hooks.push(hook);
      }
    }
    if (hooks.length === 0) return PASS;
    const { session } = event;
    const cwd = session.cwd === "" ? options.fallbackCwd : session.cwd;
    const stdin = geminiObservedPayload(event, options.extrasOf?.(session) ?? {});
    const base = { GEMINI_PROJECT_DIR: cwd, GEMINI_CWD: cwd, GEMINI_SESSION_ID: session.sessionId, CLAUDE_PROJECT_DIR: cwd };
    const one = async (hook: GeminiHookSpec): Promise<GeminiResult> =>
      interpretGeminiRun(hook.id, await runHook({ command: hook.command, cwd, env: childEnv(options.env ?? process.env, { ...base, ...hook.env }), stdin, timeoutMs: hook.timeoutMs, signal }));
    const results: GeminiResult[] = [];
    if (sequential) for (const hook of hooks) results.push(await one(hook));
    else results.push(...(await Promise.all(hooks.map(one))));
    signal.throwIfAborted();
    return settleObserved(options.plugin, event.eventName, results, results.flatMap((r) => notHonoured(r, event.eventName)), options.onObserved);
  };
  return observerListener({ plugin: options.plugin, settings, longestMs, matches: (eventName) => events.has(eventName as GeminiHookEvent) && narrow(eventName), fire });
}
