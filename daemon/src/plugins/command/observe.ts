// The hooks of events without a typed point (Notification, PreCompact, BeforeModel, ...) run at
// the observe-only `agent-event` point, for any agent: the plugin subscribes by exactly the event
// names its file has hooks for, matches each group as the agent does (against the field its
// event table names), and runs the hooks with the agent's own payload on stdin: the text as the
// agent sent it (own-payload.ts), else its common fields filled in where it lacks them. Only events of the file's own agent run: another
// agent's event of the same name has another payload and meaning. Observe-only: what a hook
// answers changes nothing; a block or `continue: false` is reported as not honoured, and a
// failed hook is the plugin's fault with its cause (contained, audited).
import { basename } from "node:path";
import { compileToolMatcher } from "@hookd/sdk";
import type { AgentEventEvent, JsonValue } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { isObject } from "../../agents/body.js";
import type { AgentDialect, EventSpec, HookGroup, HookResult, HookSpec, HooksModel } from "../../agents/contract.js";
import { pluginFault } from "../../engine/faults.js";
import type { Listener, ListenerCall } from "../../engine/listener.js";
import { CAUSE } from "./decide.js";
import { COMMAND_TRAITS, DEADLINE_GRACE_MS, longestRunMs, runHooks, selectHooks } from "./run-hooks.js";
import type { HookRunSetup } from "./run-hooks.js";
import { ownPayloadOf } from "./own-payload.js";

const PASS = { kind: "pass" } as const;

/** One firing at agent-event: every hook's result in file order, and what the hooks asked for that an observer cannot do. */
export interface ObservedReport {
  readonly plugin: string;
  readonly event: string;
  readonly results: readonly HookResult[];
  /** Blocks and stops the hooks answered, one line each: never honoured at an observe-only point. */
  readonly notHonoured: readonly string[];
  readonly systemMessages: readonly string[];
}

export interface ObservedOptions extends HookRunSetup {
  readonly plugin: string;
  /** The subscription's settings (config `points["agent-event"]`); `tools` narrows by event name. */
  readonly settings: { readonly priority?: number; readonly deadlineMs?: number; readonly tools?: readonly string[] };
  readonly onObserved?: (report: ObservedReport) => void;
}

/**
 * What the agent matches an event's matchers against, read from its payload; undefined when the
 * event has no matcher field or the payload lacks it (the agent then runs every hook).
 */
export function observedMatchValues(spec: EventSpec | undefined, payload: JsonValue): readonly string[] | undefined {
  if (spec === undefined || spec.matchOn === "none" || !isObject(payload)) return undefined;
  if (spec.matchOn === "tool-calls") {
    const calls: JsonValue | undefined = payload.tool_calls;
    if (!Array.isArray(calls)) return undefined;
    return (calls as readonly JsonValue[]).flatMap((call) => (isObject(call) && typeof call.tool_name === "string" ? [call.tool_name] : []));
  }
  const field = spec.matchOn === "file-name" ? payload.file_path : payload[spec.matchOn.replace(/^field:/, "")];
  if (typeof field !== "string") return undefined;
  return [spec.matchOn === "file-name" ? basename(field) : field];
}

/** The groups whose matcher matches one of the values (all of them when the event has none to match), their hooks in file order. */
export function selectObserved(groups: readonly HookGroup[], values: readonly string[] | undefined): { readonly hooks: HookSpec[]; readonly sequential: boolean } {
  const matchesAll = (group: HookGroup): boolean => group.matcher === undefined || group.matcher.trim() === "" || group.matcher === "*";
  return selectHooks(groups, (group) => values === undefined || matchesAll(group) || values.some((value) => group.matches(value)));
}

/** What a result asked for that an observer cannot do. */
function notHonoured(result: HookResult, event: string): string[] {
  const lines: string[] = [];
  const how = result.exitCode === 2 ? "exit code 2" : "its answer";
  const where = `${event} runs at the observe-only agent-event point`;
  if (result.block !== undefined) lines.push(`${result.hook}: its block (${how}: ${result.block}) is not honoured: ${where}`);
  if (result.permission === "deny") lines.push(`${result.hook}: its deny${result.permissionReason === undefined ? "" : ` (${result.permissionReason})`} is not honoured: ${where}`);
  if (result.stop !== undefined) lines.push(`${result.hook}: its continue: false${result.stop.reason === undefined ? "" : ` (${result.stop.reason})`} is not honoured: ${where}`);
  return lines;
}

/** The plugin's agent-event listener, or undefined when its file has no hooks for an event without a typed point. */
export function observedListener(agent: AgentDialect, model: HooksModel, options: ObservedOptions): Listener<"agent-event"> | undefined {
  const specs = agent.commandHooks.events;
  const events = new Set(Object.entries(model.groups).filter(([event, groups]) => specs[event]?.point === "agent-event" && groups.some((g) => g.hooks.length > 0)).map(([event]) => event));
  if (events.size === 0) return undefined;
  const { settings } = options;
  const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.agent-event.tools`);
  const longestMs = Math.max(...[...events].map((event) => longestRunMs(model.groups[event] ?? [])));
  const fire = async (event: AgentEventEvent, signal: AbortSignal): Promise<unknown> => {
    // Another agent's event of the same name is not this file's: its hooks never see it.
    if (event.dialect !== model.dialect || !events.has(event.eventName)) return PASS;
    const selected = selectObserved(model.groups[event.eventName] ?? [], observedMatchValues(specs[event.eventName], event.payload));
    if (selected.hooks.length === 0) return PASS;
    const firing = { event: event.eventName, data: event, matchValue: "" };
    const own = ownPayloadOf(agent.name, firing);
    const results = await runHooks(agent, firing, selected, options, {
      signal,
      payload: (_firing, extras) => (own === undefined ? agent.commandHooks.observedPayload(event, extras) : own.text),
    });
    signal.throwIfAborted();
    const lines = results.flatMap((result) => notHonoured(result, event.eventName));
    options.onObserved?.({ plugin: options.plugin, event: event.eventName, results, notHonoured: lines, systemMessages: results.flatMap((r) => (r.systemMessage === undefined ? [] : [r.systemMessage])) });
    const failed = results.filter((r) => r.error !== undefined);
    const [first] = failed;
    if (first?.error !== undefined) throw pluginFault(options.plugin, "agent-event", CAUSE[first.error.kind], failed.map((r) => `${r.hook}: ${r.error?.message ?? "failed"}`).join("; "));
    return PASS;
  };
  const deadlineMs = settings.deadlineMs ?? longestMs + DEADLINE_GRACE_MS;
  return {
    plugin: options.plugin,
    point: "agent-event",
    kind: "command",
    traits: COMMAND_TRAITS,
    priority: settings.priority ?? 0,
    // The subscription's matchers are the event names the file has hooks for.
    matches: (eventName) => events.has(eventName) && narrow(eventName),
    deadlineMs,
    ownBudgetMs: deadlineMs,
    // Observers' failures are contained whatever the policy; the fault is still audited with its cause.
    failurePolicy: "fail-open",
    sideEffectFree: false,
    call: (event: AgentEventEvent, _ctx: unknown, call: ListenerCall) => fire(event, signalOf(call.cancellation)),
  };
}
