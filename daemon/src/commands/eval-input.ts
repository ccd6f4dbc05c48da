// What `hookd eval` is given: the event (hookd's proto JSON for a point, or an agent's own hook
// JSON read by the daemon's HTTP endpoint readers, so the mapping is the endpoint's), and for
// --explain the audit records to compare with. Every problem names what is wrong: the field of
// the event (as the proto JSON reader or the endpoint's reader names it) or the option.
import { readFileSync } from "node:fs";
import type { Message } from "@bufbuild/protobuf";
import { create, fromJson } from "@bufbuild/protobuf";
import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import { EVALUATED_POINTS, EVALUATE_TABLE, HookdError, POINT_TABLE } from "@hookd/sdk";
import type { EvaluatedPoint } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import type { AgentDialect, HookRequest } from "../agents/contract.js";
import { readHookRequest } from "../agents/read-request.js";
import type { AuditRecord } from "../ops/audit.js";
import { usageError } from "./usage.js";

/** The names a point's matchers are tested against, where the event has them. */
export interface MatchKeys {
  readonly toolName?: string;
  readonly eventName?: string;
}

export type EvalInput =
  | { readonly kind: "proto"; readonly point: EvaluatedPoint; readonly request: Message & { event?: unknown }; readonly keys: MatchKeys; readonly callId: string; readonly sessionId: string }
  | { readonly kind: "hook"; readonly agent: AgentDialect; readonly request: HookRequest; readonly keys: MatchKeys; readonly callId: string; readonly sessionId: string };

/** The event, a record or the config's plugins could not be used: exit 1 with its message (which names the field or plugin). */
export function eventError(message: string): HookdError {
  return new HookdError("invalid_argument", message);
}

/** The text of a file, or of stdin for "-". */
export function readSource(source: string, what: string): string {
  try {
    return readFileSync(source === "-" ? 0 : source, "utf8");
  } catch (error) {
    throw eventError(`${what}: cannot read ${source === "-" ? "stdin" : source}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const camel = (point: string): string => point.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const POINT_BY_KEY = new Map<string, EvaluatedPoint>(EVALUATED_POINTS.flatMap((p): [string, EvaluatedPoint][] => [[p, p], [camel(p), p]]));

/** The point a --point value names. */
export function pointOption(value: string): EvaluatedPoint {
  const point = POINT_BY_KEY.get(value);
  if (point === undefined) throw usageError(`--point: expected one of ${EVALUATED_POINTS.join(", ")}, got "${value}"`, "eval");
  return point;
}

function parseJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw eventError(`${what}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const isObject = (value: unknown): value is { [key: string]: JsonValue } => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * hookd's proto JSON: the event of `--point`, or a one-key wrapper naming the point
 * ({"preTool": {...}} or {"pre-tool": {...}}). The point's evaluate request is built around it;
 * an ask is returned to the caller (agentResolvesAsk) wherever the request has that field.
 */
export function readProtoEvent(text: string, point: EvaluatedPoint | undefined): EvalInput {
  const json = parseJson(text, "EVENT");
  if (!isObject(json)) throw eventError("EVENT: expected a JSON object");
  const keys = Object.keys(json);
  const wrapped = keys.length === 1 && keys[0] !== undefined ? POINT_BY_KEY.get(keys[0]) : undefined;
  if (wrapped !== undefined && point !== undefined && wrapped !== point) throw usageError(`--point ${point} disagrees with the event's wrapper "${keys[0]}"`, "eval");
  const at = wrapped ?? point;
  if (at === undefined) {
    throw usageError(`give --point (${EVALUATED_POINTS.join(", ")}) or wrap the event in its point ({"preTool": {...}}), or give --dialect for an agent's own hook JSON`, "eval");
  }
  // The point's evaluate request ({"event": {...}}, as an agent sends it) is taken too.
  const eventJson = wrapped !== undefined ? json[keys[0] ?? ""] : keys.length === 1 && keys[0] === "event" ? json.event : json;
  const schema = POINT_TABLE[at].event.schema;
  let event: Message;
  try {
    event = fromJson(schema, eventJson ?? null);
  } catch (error) {
    throw eventError(`EVENT (${at}, ${schema.typeName}): ${error instanceof Error ? error.message.replace(/^\[\w+\] /, "") : String(error)}`);
  }
  const input: DescMessage = pb.HookHost.method[EVALUATE_TABLE[at].method].input;
  const resolvesAsk = input.fields.some((f) => f.localName === "agentResolvesAsk");
  const request = create(input, { event, ...(resolvesAsk ? { agentResolvesAsk: true } : {}) }) as Message & { event?: unknown };
  const fields = event as unknown as { session?: { sessionId?: string }; call?: { callId?: string; toolName?: string }; eventName?: string };
  return {
    kind: "proto",
    point: at,
    request,
    keys: { ...(fields.call?.toolName === undefined ? {} : { toolName: fields.call.toolName }), ...(fields.eventName === undefined ? {} : { eventName: fields.eventName }) },
    callId: fields.call?.callId ?? "",
    sessionId: fields.session?.sessionId ?? "",
  };
}

/** An agent's own hook JSON, read exactly as the daemon's HTTP endpoint reads it. */
export function readDialectEvent(text: string, agent: AgentDialect, agentId: string): EvalInput {
  // A stop is the first of its turn: eval has no earlier ones to count.
  const steeredContinuations = (): number => 0;
  try {
    const request = readHookRequest(agent, text, { agentId, steeredContinuations });
    const call = "data" in request && "call" in request.data ? request.data.call : undefined;
    return { kind: "hook", agent, request, keys: { ...(call === undefined ? {} : { toolName: call.toolName }), eventName: request.event }, callId: call?.callId ?? "", sessionId: request.session.sessionId };
  } catch (error) {
    throw eventError(`EVENT (${agent.name} hook JSON): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** One audit line as a record; names what is missing. */
export function readAuditLine(line: string, where: string): AuditRecord {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch (error) {
    throw eventError(`${where}: not an audit record (not JSON: ${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isObject(record)) throw eventError(`${where}: not an audit record (expected a JSON object)`);
  for (const field of ["kind", "point", "plugin", "decision", "sessionId"] as const) {
    if (typeof record[field] !== "string") throw eventError(`${where}: not an audit record (${field}: expected a string)`);
  }
  return record as unknown as AuditRecord;
}

/** --record: the JSON text itself, or a file holding one line. */
export function recordOption(value: string): AuditRecord[] {
  const text = value.trimStart().startsWith("{") ? value : readSource(value, "--record");
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== 1) throw eventError(`--record: expected one audit line, got ${lines.length}`);
  return [readAuditLine(lines[0] ?? "", "--record")];
}

/** --from-audit FILE --call-id ID: every record of that call (or, for records without a call, of that session). */
export function auditRecordsOf(file: string, callId: string): AuditRecord[] {
  const lines = readSource(file, "--from-audit").split("\n");
  const records: AuditRecord[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let record: AuditRecord;
    try {
      record = readAuditLine(line, `${file}:${i + 1}`);
    } catch {
      // A line a crash tore (the audit trail fences it with a newline and keeps it) is no record.
      return;
    }
    if (record.callId === callId || (record.callId === "" && record.sessionId === callId)) records.push(record);
  });
  if (records.length === 0) throw eventError(`--from-audit: no record of call "${callId}" in ${file}`);
  return records;
}
