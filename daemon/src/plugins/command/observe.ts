// The hooks of events without a typed point (Notification, PreCompact, ConfigChange, ...) run at
// the observe-only `agent-event` point: the plugin subscribes by exactly the event names its file
// has hooks for, matches each group as the agent does (against the field the agent matches on),
// and runs the hooks with the agent's own payload on stdin, the common fields the dialect always
// sends filled in where the payload lacks them. Only events of the file's own dialect run: another
// agent's event of the same name has another payload and meaning. Observe-only: what a hook
// answers changes nothing; a block (exit 2, `decision: "block"`) or `continue: false` is reported
// as not honoured, and a failed hook is the plugin's fault with its cause (contained, audited).
import { basename } from "node:path";
import { LosslessNumber, compileToolMatcher, toJsonText } from "@hookd/sdk";
import type { AgentEventEvent, JsonObject, JsonValue, SessionInfo } from "@hookd/sdk";
import { childEnv } from "../../child-env.js";
import type { Listener } from "../../engine/listener.js";
import { DIALECTS, OBSERVED_EVENTS } from "./dialect.js";
import type { Dialect } from "./dialect.js";
import type { HookResult } from "./output.js";
import { interpretRun } from "./output.js";
import { PASS, observerListener, settleObserved } from "./observer.js";
import type { ObservedReport } from "./observer.js";
import type { HooksModel, ObservedGroup } from "./parse.js";
import type { PayloadExtras } from "./payload.js";
import { runHook } from "./runner.js";

export type { ObservedReport, ObservedResult } from "./observer.js";

export interface ObservedOptions {
  readonly plugin: string;
  /** The subscription's settings (config `points["agent-event"]`); `tools` narrows by event name. */
  readonly settings: { readonly priority?: number; readonly deadlineMs?: number; readonly tools?: readonly string[] };
  readonly env?: NodeJS.ProcessEnv;
  readonly fallbackCwd: string;
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
  readonly onObserved?: (report: ObservedReport) => void;
  readonly onSpawn?: (hook: string, pgid: number) => void;
}

export const isJsonObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);

/**
 * What the agent matches an event's matchers against, read from its payload; undefined when the
 * event has no matcher field or the payload lacks it (the agent then runs every hook).
 */
export function observedMatchValues(event: string, payload: JsonValue): readonly string[] | undefined {
  const match = Object.hasOwn(OBSERVED_EVENTS, event) ? OBSERVED_EVENTS[event] : undefined;
  if (match === undefined || match.on === "none" || !isJsonObject(payload)) return undefined;
  if (match.on === "tool-calls") {
    const calls: JsonValue | undefined = payload.tool_calls;
    if (!Array.isArray(calls)) return undefined;
    return (calls as readonly JsonValue[]).flatMap((call) => (isJsonObject(call) && typeof call.tool_name === "string" ? [call.tool_name] : []));
  }
  const field = match.on === "file-name" ? payload.file_path : payload[match.on];
  if (typeof field !== "string") return undefined;
  return [match.on === "file-name" ? basename(field) : field];
}

/** The groups whose matcher matches, their hooks in file order, identical commands once. */
export function selectObserved(groups: readonly ObservedGroup[], values: readonly string[] | undefined): ObservedGroup["hooks"][number][] {
  const seen = new Set<string>();
  const hooks: ObservedGroup["hooks"][number][] = [];
  for (const group of groups) {
    const matchesAll = group.matcher === undefined || group.matcher === "" || group.matcher === "*";
    if (values !== undefined && !matchesAll && !values.some((value) => group.matches(value))) continue;
    for (const hook of group.hooks) {
      if (seen.has(hook.command)) continue;
      seen.add(hook.command);
      hooks.push(hook);
    }
  }
  return hooks;
}

/** The stdin text: the dialect's common fields, then the agent's payload (which wins), named as the event. */
export function observedPayload(dialect: Dialect, event: AgentEventEvent, extras: PayloadExtras): string {
  const spec = DIALECTS[dialect];
  const { session } = event;
  const sub = session.parentSessionId;
  const common: Record<string, JsonValue> = {
    session_id: sub ?? session.sessionId,
    ...(spec.turnAndModel ? { turn_id: "0" } : {}),
    transcript_path: extras.transcriptPath ?? spec.unknownTranscript,
    cwd: session.cwd,
    permission_mode: extras.permissionMode ?? "default",
    ...(spec.turnAndModel ? { model: extras.model ?? "" } : {}),
    ...(sub === undefined ? {} : { agent_id: session.sessionId, agent_type: session.agentType ?? "" }),
  };
  const own = isJsonObject(event.payload) ? event.payload : {};
  const text = toJsonText({ ...common, ...own, hook_event_name: event.eventName }, "payload");
  return spec.trailingNewline ? `${text}\n` : text;
}

/** What a result asked for that an observer cannot do. */
function notHonoured(result: HookResult, event: string): string[] {
  const lines: string[] = [];
  const how = result.exitCode === 2 ? "exit code 2" : 'decision "block"';
  if (result.block !== undefined) lines.push(`${result.hook}: its block (${how}: ${result.block}) is not honoured: ${event} runs at the observe-only agent-event point`);
  if (result.stop !== undefined) lines.push(`${result.hook}: its continue: false${result.stop.reason === undefined ? "" : ` (${result.stop.reason})`} is not honoured: ${event} runs at the observe-only agent-event point`);
  return lines;
}

/** The plugin's agent-event listener, or undefined when its file has no hooks for an event without a typed point. */
export function observedListener(model: HooksModel, options: ObservedOptions): Listener<"agent-event"> | undefined {
  const events = new Set(Object.entries(model.observed).filter(([, groups]) => groups.some((g) => g.hooks.length > 0)).map(([event]) => event));
  if (events.size === 0) return undefined;
  const { settings } = options;
  const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.agent-event.tools`);
  const longestMs = Math.max(0, ...[...events].flatMap((event) => (model.observed[event] ?? []).flatMap((g) => g.hooks.map((h) => h.timeoutSec * 1000))));
  const fire = async (event: AgentEventEvent, signal: AbortSignal): Promise<unknown> => {
    // Another agent's event of the same name is not this file's: its hooks never see it.
    if (event.dialect !== model.dialect) return PASS;
    const hooks = selectObserved(model.observed[event.eventName] ?? [], observedMatchValues(event.eventName, event.payload));
    if (hooks.length === 0) return PASS;
    const { session } = event;
    const stdin = observedPayload(model.dialect, event, options.extrasOf?.(session) ?? {});
    const cwd = session.cwd === "" ? options.fallbackCwd : session.cwd;
    const env = childEnv(options.env ?? process.env, { CLAUDE_PROJECT_DIR: cwd });
    const results = await Promise.all(
      hooks.map(async (hook) => {
        const run = await runHook({
          command: hook.command,
          cwd,
          env,
          stdin,
          timeoutMs: hook.timeoutSec * 1000,
          signal,
          ...(options.onSpawn === undefined ? {} : { onSpawn: (pgid: number) => options.onSpawn?.(hook.id, pgid) }),
        });
        return interpretRun({ hook: hook.id, event: event.eventName, dialect: model.dialect }, run);
      }),
    );
    signal.throwIfAborted();
    return settleObserved(options.plugin, event.eventName, results, results.flatMap((result) => notHonoured(result, event.eventName)), options.onObserved);
  };
  // The subscription's matchers are the event names the file has hooks for.
  return observerListener({ plugin: options.plugin, settings, longestMs, matches: (eventName) => events.has(eventName) && narrow(eventName), fire });
}
