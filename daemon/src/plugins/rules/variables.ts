// The variables a rule reads at each point, their fields, and how they are built from the point's
// typed event: the proto's fields in the proto's (snake_case) names, arguments and tool values as
// CEL maps from the lossless JSON, plus the tool kind, command and path the agent's dialect gives.
import type { AgentMessage, JsonValue, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { LosslessNumber, messageText } from "@hookd/sdk";
import { TOOL_DIALECTS, toolFacts } from "../../agents/tool-kinds.js";
import type { ToolFacts } from "../../agents/tool-kinds.js";
import type { RulePoint } from "./verbs.js";

/** The coarse CEL type of a field, for the load-time check of what a rule reads. */
export type FieldType = "string" | "int" | "bool" | "list" | "map" | "dyn";
export type Fields = Readonly<Record<string, FieldType>>;

const SESSION: Fields = { session_id: "string", agent_id: "string", cwd: "string", parent_session_id: "string", agent_type: "string", dialect: "string" };
const CALL: Fields = {
  tool_name: "string",
  call_id: "string",
  root_call_id: "string",
  parent_call_id: "string",
  turn: "int",
  step: "int",
  arguments: "dyn",
  kind: "string",
  command: "string",
  path: "string",
  rewritten_by: "list",
};
const RESULT: Fields = { is_error: "bool", value: "dyn", text: "string", error_code: "string", error_message: "string" };
const APPROVAL: Fields = { reason: "string", asked_by: "string" };
const STEP: Fields = { turn: "int", step: "int", text: "string", messages: "list" };
const STOP: Fields = { turn: "int", step: "int", stop_hook_active: "bool", steered_continuations: "int", last_assistant_message: "string" };

/** The variables of each point a rule can decide at, and their fields. */
export const POINT_VARIABLES: Readonly<Record<RulePoint, Readonly<Record<string, Fields>>>> = {
  "pre-tool": { session: SESSION, call: CALL },
  rewrite: { session: SESSION, call: CALL },
  guard: { session: SESSION, call: CALL },
  approval: { session: SESSION, call: CALL, approval: APPROVAL },
  "post-tool": { session: SESSION, call: CALL, result: RESULT },
  "pre-step": { session: SESSION, step: STEP },
  "turn-stopping": { session: SESSION, stop: STOP },
};

/** A variable's value: plain objects, arrays, strings, bigint integers, doubles, booleans and null, as CEL takes them. */
export type CelData = string | number | bigint | boolean | null | readonly CelData[] | { readonly [key: string]: CelData };
export type Activation = Readonly<Record<string, { readonly [key: string]: CelData }>>;

/**
 * The dialect a session's tools are named in: the HTTP endpoint names an agent by its dialect
 * unless the config gives it another id, so a dialect-named agent is that dialect; any other
 * agent is "" (its tool names are looked up in every dialect's table).
 */
export function dialectOf(session: SessionInfo): string {
  return TOOL_DIALECTS.includes(session.agentId) ? session.agentId : "";
}

/** The fields of each variable the rules read ("*": all of them); a variable absent: every field. */
export type Wanted = ReadonlyMap<string, ReadonlySet<string>>;

type FieldsOf<S> = Readonly<Record<string, (source: S) => CelData>>;

/** The wanted fields of a variable, each built only when wanted (a call's arguments cost a conversion). */
function pick<S>(fields: FieldsOf<S>, source: S, wanted: ReadonlySet<string> | undefined): Record<string, CelData> {
  const out: Record<string, CelData> = {};
  for (const [field, build] of Object.entries(fields)) if (wanted === undefined || wanted.has("*") || wanted.has(field)) out[field] = build(source);
  return out;
}

const SESSION_DATA: FieldsOf<SessionInfo> = {
  session_id: (session) => session.sessionId,
  agent_id: (session) => session.agentId,
  cwd: (session) => session.cwd,
  parent_session_id: (session) => session.parentSessionId ?? "",
  agent_type: (session) => session.agentType ?? "",
  dialect: (session) => dialectOf(session),
};

interface CallSource {
  readonly call: ToolCall;
  /** The tool's kind, command and path by the session's dialect, looked up once. */
  readonly facts: () => ToolFacts;
}

const CALL_DATA: FieldsOf<CallSource> = {
  tool_name: ({ call }) => call.toolName,
  call_id: ({ call }) => call.callId,
  root_call_id: ({ call }) => call.rootCallId,
  parent_call_id: ({ call }) => call.parentCallId ?? "",
  turn: ({ call }) => BigInt(call.turn),
  step: ({ call }) => BigInt(call.step),
  arguments: ({ call }) => celJson(call.arguments),
  kind: ({ facts }) => facts().kind ?? "",
  command: ({ facts }) => facts().command ?? "",
  path: ({ facts }) => facts().path ?? "",
  rewritten_by: ({ call }) => [...(call.rewrittenBy ?? [])],
};

function callData(call: ToolCall, session: SessionInfo, wanted: ReadonlySet<string> | undefined): Record<string, CelData> {
  let facts: ToolFacts | undefined;
  return pick(CALL_DATA, { call, facts: () => (facts ??= toolFacts(dialectOf(session), call.toolName, call.arguments)) }, wanted);
}

function resultData(result: ToolResult): Record<string, CelData> {
  const shown = result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  // A tool that gives no content is shown its value: a string value is what the model reads.
  const text = shown === "" && !result.isError && typeof result.value === "string" ? result.value : shown;
  return result.isError
    ? { is_error: true, value: null, text, error_code: result.code, error_message: result.message }
    : { is_error: false, value: celJson(result.value), text, error_code: "", error_message: "" };
}

function messagesData(messages: readonly AgentMessage[]): CelData[] {
  return messages.map((message) => ({ role: message.role, text: messageText(message) }));
}

/** What a rule at `point` sees of `event` (the point's typed event): the `wanted` fields, or all. */
export function activationOf(point: RulePoint, event: unknown, wanted?: Wanted): Activation {
  const { session } = event as { session: SessionInfo };
  const base = { session: pick(SESSION_DATA, session, wanted?.get("session")) };
  const callOf = (call: ToolCall): Record<string, CelData> => callData(call, session, wanted?.get("call"));
  switch (point) {
    case "pre-tool":
    case "rewrite":
    case "guard":
      return { ...base, call: callOf((event as { call: ToolCall }).call) };
    case "approval": {
      const approval = event as { call: ToolCall; reason: string; askedBy: string };
      return { ...base, call: callOf(approval.call), approval: { reason: approval.reason, asked_by: approval.askedBy } };
    }
    case "post-tool": {
      const outcome = event as { call: ToolCall; result: ToolResult };
      return { ...base, call: callOf(outcome.call), result: resultData(outcome.result) };
    }
    case "pre-step": {
      const step = event as { turn: number; step: number; messages: readonly AgentMessage[] };
      return { ...base, step: { turn: BigInt(step.turn), step: BigInt(step.step), text: step.messages.map(messageText).join("\n"), messages: messagesData(step.messages) } };
    }
    case "turn-stopping": {
      const stop = event as { turn: number; step: number; stopHookActive: boolean; steeredContinuations: number; lastAssistantMessage?: AgentMessage };
      return {
        ...base,
        stop: {
          turn: BigInt(stop.turn),
          step: BigInt(stop.step),
          stop_hook_active: stop.stopHookActive,
          steered_continuations: BigInt(stop.steeredContinuations),
          last_assistant_message: stop.lastAssistantMessage === undefined ? "" : messageText(stop.lastAssistantMessage),
        },
      };
    }
  }
}

/** A lossless JSON value as CEL data: integers are CEL ints (bigint), other numbers doubles. */
export function celJson(value: JsonValue): CelData {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (value instanceof LosslessNumber) return Number(value.value);
  if (Array.isArray(value)) return (value as readonly JsonValue[]).map(celJson);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, CelData> = {};
    for (const [key, item] of Object.entries(value as Readonly<Record<string, JsonValue>>)) out[key] = celJson(item);
    return out;
  }
  return value;
}
