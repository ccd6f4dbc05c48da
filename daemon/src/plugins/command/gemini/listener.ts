// The engine's view of a Gemini CLI hooks file: one Listener per point that has hooks.
//   SessionStart -> session-start   BeforeAgent -> pre-step     AfterTool  -> post-tool
//   AfterAgent   -> turn-stopping   SessionEnd  -> session-end
//   BeforeTool   -> rewrite AND pre-tool, its hooks run ONCE per call: at rewrite, where their
//                   tool_input is merged over the arguments (Gemini's documented merge: top-level
//                   keys replaced), and their verdict (deny, ask, continue:false) is held for the
//                   same call's pre-tool. A pre-tool with no held verdict (evaluate called without
//                   the rewrite), or whose call a later rewriter changed, runs the hooks itself on
//                   the arguments that will really run.
// Hooks of a firing run concurrently, or one after another when any matched group is
// `sequential` (each seeing the previous one's tool_input / context, as Gemini does).
import { POINT_TABLE, accept, ask, block, compileToolMatcher, deny, enter, inject, pluginMessage, reject, replace, snapshotJson, steer } from "@hookd/sdk";
import type { FailurePolicy, JsonObject, PointName, SessionInfo } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { childEnv } from "../../../child-env.js";
import { pluginFault } from "../../../engine/faults.js";
import type { FaultCause } from "../../../engine/faults.js";
import type { EventOf, Listener, ListenerCall, ListenerTraits } from "../../../engine/listener.js";
import { ownBudget } from "../listener.js";
import type { PointSettings } from "../listener.js";
import type { ObservedReport } from "../observe.js";
import { promptOf } from "../payload.js";
import type { PayloadExtras } from "../payload.js";
import { runHook } from "../runner.js";
import { geminiObservedListener } from "./observe.js";
import { interpretGeminiRun, mergeGeminiResults } from "./output.js";
import type { GeminiErrorKind, GeminiMerged, GeminiResult } from "./output.js";
import type { GeminiHookEvent, GeminiHookGroup, GeminiHookSpec, GeminiHooksModel } from "./parse.js";
import { buildGeminiPayload, geminiTrigger } from "./payload.js";
import type { GeminiPayloadInput } from "./payload.js";

const TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: true, settlesItself: false, sendsOnNextTurn: false });
const PASS = { kind: "pass" } as const;
const GRACE_MS = 1_000;
/** Held BeforeTool verdicts, per plugin: bounded so calls that never reach pre-tool cannot grow it. */
const MAX_HELD = 1_024;

type GeminiPoint = "session-start" | "pre-step" | "rewrite" | "pre-tool" | "post-tool" | "turn-stopping" | "session-end";

const EVENT_OF: Readonly<Record<GeminiPoint, GeminiHookEvent>> = {
  "session-start": "SessionStart",
  "pre-step": "BeforeAgent",
  rewrite: "BeforeTool",
  "pre-tool": "BeforeTool",
  "post-tool": "AfterTool",
  "turn-stopping": "AfterAgent",
  "session-end": "SessionEnd",
};

const CAUSE: Readonly<Record<GeminiErrorKind, FaultCause>> = { timeout: "deadline_exceeded", crash: "crashed", exit: "crashed", cancelled: "crashed", garbage: "invalid_answer", spawn: "unavailable" };

export interface GeminiFiring {
  readonly plugin: string;
  readonly point: GeminiPoint;
  readonly event: GeminiHookEvent;
  readonly results: readonly GeminiResult[];
  readonly merged: GeminiMerged;
}

export interface GeminiListenerOptions {
  readonly plugin: string;
  readonly failurePolicy?: FailurePolicy;
  readonly points?: Partial<Record<PointName, PointSettings>>;
  readonly env?: NodeJS.ProcessEnv;
  readonly fallbackCwd: string;
  /** What the agent told about the session (its transcript), when known. */
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
  readonly onReport?: (firing: GeminiFiring) => void;
  /** Receives every firing at agent-event (events without a typed point; observe.ts). */
  readonly onObserved?: (report: ObservedReport) => void;
}

/** The payload input for a firing, or undefined when Gemini would not fire for this event. */
function inputOf(point: GeminiPoint, data: unknown): GeminiPayloadInput | undefined {
  switch (point) {
    case "session-start":
      return { event: "SessionStart", data: data as EventOf<"session-start"> };
    case "session-end":
      return { event: "SessionEnd", data: data as EventOf<"session-end"> };
    case "pre-step": {
      const prompt = promptOf(data as EventOf<"pre-step">);
      return prompt === undefined ? undefined : { event: "BeforeAgent", data: data as EventOf<"pre-step">, prompt };
    }
    case "rewrite":
    case "pre-tool":
      return { event: "BeforeTool", data: data as EventOf<"pre-tool"> };
    case "post-tool": {
      // A call hookd refused never ran: Gemini fires no AfterTool for a blocked call.
      const post = data as EventOf<"post-tool">;
      return post.result.isError && post.result.code === "denied" ? undefined : { event: "AfterTool", data: post };
    }
    case "turn-stopping":
      return { event: "AfterAgent", data: data as EventOf<"turn-stopping"> };
  }
}

function select(groups: readonly GeminiHookGroup[], input: string | undefined): { hooks: GeminiHookSpec[]; sequential: boolean } {
  const seen = new Set<string>();
  const hooks: GeminiHookSpec[] = [];
  let sequential = false;
  for (const group of groups) {
    if (!group.matches(input ?? "")) continue;
    sequential ||= group.sequential;
    for (const hook of group.hooks) {
      if (seen.has(hook.key)) continue;
      seen.add(hook.key);
      hooks.push(hook);
    }
  }
  return { hooks, sequential };
}

async function runAll(input: GeminiPayloadInput, hooks: readonly GeminiHookSpec[], sequential: boolean, options: GeminiListenerOptions, signal: AbortSignal): Promise<GeminiResult[]> {
  const { session } = input.data;
  const cwd = session.cwd === "" ? options.fallbackCwd : session.cwd;
  const base = { GEMINI_PROJECT_DIR: cwd, GEMINI_CWD: cwd, GEMINI_SESSION_ID: session.sessionId, CLAUDE_PROJECT_DIR: cwd };
  const one = async (hook: GeminiHookSpec, current: GeminiPayloadInput): Promise<GeminiResult> => {
    const run = await runHook({ command: hook.command, cwd, env: childEnv(options.env ?? process.env, { ...base, ...hook.env }), stdin: buildGeminiPayload(current, new Date(), options.extrasOf?.(session) ?? {}), timeoutMs: hook.timeoutMs, signal });
    return interpretGeminiRun(hook.id, run);
  };
  if (!sequential) return Promise.all(hooks.map((hook) => one(hook, input)));
  const results: GeminiResult[] = [];
  let current = input;
  for (const hook of hooks) {
    const result = await one(hook, current);
    results.push(result);
    current = chained(current, result);
  }
  return results;
}

/** The input the next sequential hook sees: the previous one's context or tool_input applied. */
function chained(input: GeminiPayloadInput, result: GeminiResult): GeminiPayloadInput {
  if (input.event === "BeforeAgent" && result.context !== undefined) return { ...input, prompt: `${input.prompt}\n\n${result.context}` };
  if (input.event === "BeforeTool" && result.toolInput !== undefined) {
    const call = input.data.call;
    return { ...input, data: { ...input.data, call: { ...call, arguments: { ...(call.arguments as JsonObject), ...result.toolInput } } } };
  }
  return input;
}

function reasonOf(plugin: string, merged: GeminiMerged, fallback: string): string {
  return merged.stop?.reason ?? merged.reason ?? `${fallback} by command hook ${merged.by.join(", ")} of ${plugin}`;
}

/** The point's answer for a merged firing (before the failure policy). */
function answerOf(point: GeminiPoint, plugin: string, data: unknown, merged: GeminiMerged): unknown {
  const contexts = merged.contexts.map((text) => pluginMessage(plugin, text));
  switch (point) {
    case "rewrite": {
      if (merged.toolInput === undefined) return PASS;
      const args = (data as EventOf<"rewrite">).call.arguments as JsonObject;
      return replace({ ...args, ...merged.toolInput });
    }
    case "pre-tool":
      if (merged.stop !== undefined || merged.decision === "deny") return deny(reasonOf(plugin, merged, "denied"));
      return merged.decision === "ask" ? ask(reasonOf(plugin, merged, "approval asked")) : PASS;
    case "pre-step":
      if (merged.stop !== undefined || merged.decision === "deny") return reject(reasonOf(plugin, merged, "blocked"));
      return contexts.length === 0 ? PASS : enter([...(data as EventOf<"pre-step">).messages, ...contexts]);
    case "post-tool":
      if (merged.stop !== undefined || merged.decision === "deny") return contexts.length === 0 ? block(reasonOf(plugin, merged, "blocked")) : block(reasonOf(plugin, merged, "blocked"), contexts);
      return contexts.length === 0 ? PASS : accept({ additionalContexts: contexts });
    case "turn-stopping":
      // continue:false is "stop now"; a deny asks Gemini to retry with the reason as the prompt.
      if (merged.stop !== undefined || merged.decision !== "deny") return PASS;
      return steer([pluginMessage(plugin, merged.reason ?? "continue")]);
    case "session-start":
      return contexts.length === 0 ? PASS : inject(contexts);
    case "session-end":
      return undefined;
  }
}

const refuses = (answer: unknown): boolean => ["deny", "reject", "block"].includes((answer as { kind?: string } | undefined)?.kind ?? "");

export function geminiCommandListeners(model: GeminiHooksModel, options: GeminiListenerOptions): Listener[] {
  // callId -> the verdict and the arguments text it was given for (what the call runs with if no
  // later rewriter changes it).
  const held = new Map<string, { readonly merged: GeminiMerged; readonly argumentsJson: string }>();
  const listeners: Listener[] = [];
  for (const point of Object.keys(EVENT_OF) as GeminiPoint[]) {
    const event = EVENT_OF[point];
    const groups = model.groups[event] ?? [];
    if (!groups.some((group) => group.hooks.length > 0)) continue;
    const settings = options.points?.[point] ?? {};
    const policy = settings.failurePolicy ?? options.failurePolicy ?? "fail-open";
    const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.${point}.tools`);
    const isTool = event === "BeforeTool" || event === "AfterTool";
    const timeouts = groups.flatMap((group) => group.hooks.map((hook) => hook.timeoutMs));
    // Sequential groups run their hooks one after another: the deadline covers all of them.
    const longestMs = groups.some((group) => group.sequential) ? timeouts.reduce((a, b) => a + b, 0) : Math.max(...timeouts);
    // A point whose handlers answer nothing (session-end) gets no pass and no fail-closed refusal.
    const answersNothing = POINT_TABLE[point].decision === undefined;
    const fire = async (data: unknown, signal: AbortSignal): Promise<unknown> => {
      const input = inputOf(point, data);
      if (input === undefined) return answersNothing ? undefined : PASS;
      const callId = isTool ? (data as EventOf<"pre-tool">).call.callId : "";
      const kept = point === "pre-tool" ? held.get(callId) : undefined;
      if (kept !== undefined) held.delete(callId);
      let merged = kept !== undefined && kept.argumentsJson === (data as EventOf<"pre-tool">).call.argumentsJson ? kept.merged : undefined;
      if (merged === undefined) {
        const tool = isTool ? (data as EventOf<"pre-tool">).call.toolName : geminiTrigger(input);
        const { hooks, sequential } = select(groups, tool);
        if (hooks.length === 0) return answersNothing ? undefined : PASS;
        const results = await runAll(input, hooks, sequential, options, signal);
        signal.throwIfAborted();
        merged = mergeGeminiResults(results);
        options.onReport?.({ plugin: options.plugin, point, event, results, merged });
        if (point === "rewrite") {
          const { call } = data as EventOf<"rewrite">;
          const args = merged.toolInput === undefined ? call.argumentsJson : snapshotJson({ ...(call.arguments as JsonObject), ...merged.toolInput }, "arguments").text;
          held.set(callId, { merged, argumentsJson: args });
          if (held.size > MAX_HELD) held.delete(held.keys().next().value ?? "");
        }
      }
      const answer = answerOf(point, options.plugin, data, merged);
      const [first] = merged.errors;
      // Fail-open: a failed hook is Gemini's non-blocking warning. Fail-closed: the point refuses,
      // unless the answer already refuses (its reason is the more useful one).
      if (first?.error === undefined || policy === "fail-open" || refuses(answer) || answersNothing) return answer;
      throw pluginFault(options.plugin, point, CAUSE[first.error.kind], merged.errors.map((r) => `${r.hook}: ${r.error?.message ?? "failed"}`).join("; "));
    };
    const deadlineMs = settings.deadlineMs ?? longestMs + GRACE_MS;
    listeners.push({
      plugin: options.plugin,
      point,
      kind: "command",
      traits: TRAITS,
      priority: settings.priority ?? 0,
      matches: isTool ? (tool: string) => narrow(tool) && groups.some((group) => group.hooks.length > 0 && group.matches(tool)) : () => true,
      deadlineMs,
      ...ownBudget(point, deadlineMs),
      failurePolicy: policy,
      sideEffectFree: false,
      call: (data: unknown, _ctx: unknown, call: ListenerCall) => fire(data, signalOf(call.cancellation)),
    });
  }
  const observed = geminiObservedListener(model, {
    plugin: options.plugin,
    settings: options.points?.["agent-event"] ?? {},
    fallbackCwd: options.fallbackCwd,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.extrasOf === undefined ? {} : { extrasOf: options.extrasOf }),
    ...(options.onObserved === undefined ? {} : { onObserved: options.onObserved }),
  });
  if (observed !== undefined) listeners.push(observed);
  return listeners;
}
