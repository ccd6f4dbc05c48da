// What both transports of a remote plugin share on the wire: the request of each point (encoded
// once per fan-out), the decoding of a point's answer (garbage bytes, a missing decision, another
// point's decision) and the classification of every failure into a FaultCause. The unary calls
// (connection.ts) and the Attach stream (attach-stream.ts) give the same answers and the same
// faults because they both end here.
import { create, fromBinary } from "@bufbuild/protobuf";
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import { status } from "@grpc/grpc-js";
import type { StatusObject } from "@grpc/grpc-js";
import { HookdError, POINTS, hasCode, pass } from "@hookd/sdk";
import { PLUGIN_METHODS, fromProtoDecision, fromProtoPoint, isDecisionPoint, toProtoEvent, toProtoPoint } from "@hookd/sdk/internal";
import type { PointName } from "@hookd/sdk";
import type { DecisionPoint, ProtoDecision } from "@hookd/sdk/internal";
import { pb, serviceDefinition, statusName } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import { isPluginFault } from "../../engine/faults.js";
import type { FaultCause } from "../../engine/faults.js";
import type { EventOf } from "../../engine/listener.js";

/** Why one RPC gave no usable answer. The plugin wraps it into a plugin fault naming itself. */
export interface RpcFailureDetails {
  readonly fault: FaultCause;
  /**
   * The caller cut the call short (turn aborted, or the point's budget ran out before the
   * plugin's own deadline): reported, but not counted against the plugin's health.
   */
  readonly byCaller: boolean;
}

export type RpcFailure = HookdError<RpcFailureDetails>;

export function rpcFailure(fault: FaultCause, detail: string, byCaller = false): RpcFailure {
  return new HookdError("rpc_failure", detail, { details: { fault, byCaller } });
}

/** Only rpcFailure() makes the code, so the code says the details are there. */
export function isRpcFailure(error: unknown): error is RpcFailure {
  return hasCode(error, "rpc_failure");
}

export interface PointRpc {
  readonly path: string;
  readonly input: DescMessage;
  readonly output: DescMessage;
  readonly serialize: (message: MessageShape<DescMessage>) => Buffer;
  /** The response field number holding the decision: the point's `Point` value. */
  readonly field: number;
}

const definition = serviceDefinition(pb.HookPlugin);
export const RPCS = Object.fromEntries(
  POINTS.map((point) => {
    const method = definition[PLUGIN_METHODS[point]];
    const rpc: PointRpc = {
      path: method.path,
      input: method.method.input,
      output: method.method.output,
      serialize: method.requestSerialize as (message: MessageShape<DescMessage>) => Buffer,
      field: toProtoPoint(point),
    };
    return [point, rpc];
  }),
) as Readonly<Record<PointName, PointRpc>>;

/**
 * The last request encoded. A fan-out calls every plugin of a point with the same event back to
 * back, so the event is encoded once rather than once per plugin. Keyed by identity, and only for
 * a frozen event (as the engine hands over): its content cannot have changed.
 */
let lastEncoded: { readonly point: PointName; readonly event: object; readonly bytes: Buffer } | undefined;

export function encodeRequest<P extends PointName>(point: P, rpc: PointRpc, event: EventOf<P>): Buffer {
  if (lastEncoded !== undefined && lastEncoded.event === event && lastEncoded.point === point) return lastEncoded.bytes;
  const bytes = rpc.serialize(create(rpc.input, { event: toProtoEvent(point, event) }));
  if (Object.isFrozen(event)) lastEncoded = { point, event, bytes };
  return bytes;
}

/** Responses this short carry no payload (pass, allow, abstain, accept as is): remembered per point. */
const SMALL_RESPONSE_BYTES = 16;
const SMALL_RESPONSES_PER_POINT = 32;
const smallAnswers = new Map<PointName, Map<string, unknown>>();

/**
 * The typed answer of a response. A short one is decoded once and remembered by its bytes: most
 * plugins answer pass or allow on most calls, and decoding (a frozen singleton, in the end) is a
 * pure function of the bytes. Failures are never remembered.
 */
export function answerOf(point: PointName, rpc: PointRpc, bytes: Buffer): unknown {
  if (bytes.length > SMALL_RESPONSE_BYTES) return decodeAnswer(point, rpc, bytes);
  let known = smallAnswers.get(point);
  const key = bytes.toString("latin1");
  if (known?.has(key) === true) return known.get(key);
  const answer = decodeAnswer(point, rpc, bytes);
  if (known === undefined) smallAnswers.set(point, (known = new Map<string, unknown>()));
  if (known.size < SMALL_RESPONSES_PER_POINT) known.set(key, answer);
  return answer;
}

/**
 * The typed answer of a response: garbage bytes and a missing decision are invalid answers; a
 * missing decision next to an unknown field numbered like another point is that point's answer
 * sent to the wrong RPC; a decision that does not convert is an invalid answer naming the field.
 */
export function decodeAnswer(point: PointName, rpc: PointRpc, bytes: Buffer): unknown {
  let message: MessageShape<DescMessage>;
  try {
    message = fromBinary(rpc.output, bytes);
  } catch (error) {
    throw rpcFailure("invalid_answer", `${rpc.output.typeName}: cannot decode ${bytes.length} bytes: ${(error as Error).message}`);
  }
  if (!isDecisionPoint(point)) return pass(); // an observer answers nothing
  const decision = (message as { decision?: ProtoDecision<DecisionPoint> }).decision;
  if (decision === undefined) {
    const foreign = message.$unknown?.find((field) => field.wireType === WireType.LengthDelimited && field.no !== rpc.field && fromProtoPoint(field.no).ok);
    if (foreign !== undefined) {
      const other = fromProtoPoint(foreign.no);
      throw rpcFailure(
        "wrong_point",
        `the ${point} RPC was answered with the decision of ${other.ok ? other.value : "another point"} (field ${foreign.no}, expected ${rpc.field})`,
      );
    }
    throw rpcFailure("invalid_answer", `${rpc.output.typeName}: no decision`);
  }
  const converted = fromProtoDecision(point, decision, "decision");
  if (!converted.ok) throw rpcFailure("invalid_answer", converted.error.message);
  return converted.value;
}

export function statusFailure(error: StatusObject, deadlineMs: number, target: string, elapsedMs: number): RpcFailure {
  const status_ = `${statusName(error.code)}: ${error.details}`;
  // A server that enforces the deadline it was sent (grpc-go does) may cancel the call a moment
  // before our own timer fires: at the deadline, that is still a missed deadline.
  if (error.code === status.CANCELLED && elapsedMs >= deadlineMs - DEADLINE_SLACK_MS) {
    return rpcFailure("deadline_exceeded", `no answer within ${deadlineMs} ms (${status_})`);
  }
  switch (error.code) {
    case status.DEADLINE_EXCEEDED:
      return rpcFailure("deadline_exceeded", `no answer within ${deadlineMs} ms (${status_})`);
    case status.UNAVAILABLE:
      return rpcFailure("unavailable", `cannot reach ${target} (${status_})`);
    default:
      return rpcFailure("error_status", status_);
  }
}

/** Timers fire late, never early; this covers the gap between the engine's start and the RPC's. */
const DEADLINE_SLACK_MS = 20;

/**
 * The engine aborts the call's signal with a plugin fault at the effective deadline: the smaller
 * of the plugin's deadline and what is left of the point's budget. Only the plugin's own
 * deadline passing is its failure; anything else is the caller giving up.
 */
export function cancelled(signal: Cancellation, elapsedMs: number, deadlineMs: number): RpcFailure {
  const reason: unknown = signal.reason;
  if (isPluginFault(reason)) {
    const own = elapsedMs >= deadlineMs - DEADLINE_SLACK_MS;
    const why = own ? `no answer within ${deadlineMs} ms` : `the point's budget ran out after ${Math.round(elapsedMs)} ms`;
    return rpcFailure(reason.details.fault, `the call was cancelled: ${why}`, !own);
  }
  return rpcFailure("error_status", "CANCELLED: the caller cancelled the call", true);
}
