// One gRPC channel to a remote plugin and what the daemon does over it: health checks, Describe,
// and one RPC per point event. Owns the wire: the request encoding, the decoding of answers
// (garbage bytes, a missing decision, another point's decision) and the classification of every
// failure into a FaultCause. Knows nothing of ejection, listeners or processes.
import { create, fromBinary } from "@bufbuild/protobuf";
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import { Channel, status } from "@grpc/grpc-js";
import type { ChannelCredentials, ChannelOptions, StatusObject } from "@grpc/grpc-js";
import { HookdError, POINTS, pass } from "@hookd/sdk";
import { PLUGIN_METHODS, fromProtoDecision, fromProtoPoint, isDecisionPoint, toProtoEvent, toProtoPoint } from "@hookd/sdk/internal";
import type { PointName } from "@hookd/sdk";
import type { DecisionPoint, ProtoDecision } from "@hookd/sdk/internal";
import { StatusError, createClient, pb, serviceDefinition, startUnaryCall, statusName } from "@hookd/sdk/internal";
import type { Cancellation, TypedClient } from "@hookd/sdk/internal";
import { PluginFault } from "../../engine/faults.js";
import type { FaultCause } from "../../engine/faults.js";
import type { EventOf } from "../../engine/listener.js";
import { readManifest } from "./manifest.js";
import type { RemoteManifest } from "./manifest.js";

/** Why one RPC gave no usable answer. The plugin wraps it into a PluginFault naming itself. */
export class RpcFailure extends Error {
  override readonly name = "RpcFailure";
  constructor(
    readonly fault: FaultCause,
    detail: string,
    /**
     * The caller cut the call short (turn aborted, or the point's budget ran out before the
     * plugin's own deadline): reported, but not counted against the plugin's health.
     */
    readonly byCaller = false,
  ) {
    super(detail);
  }
}

interface PointRpc {
  readonly path: string;
  readonly input: DescMessage;
  readonly output: DescMessage;
  readonly serialize: (message: MessageShape<DescMessage>) => Buffer;
  /** The response field number holding the decision: the point's `Point` value. */
  readonly field: number;
}

const definition = serviceDefinition(pb.HookPlugin);
const RPCS = Object.fromEntries(
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

/** The plugin's own service name in grpc.health.v1, checked before the server's overall status. */
const HEALTH_SERVICE = pb.HookPlugin.typeName;

/**
 * The last request encoded. A fan-out calls every plugin of a point with the same event back to
 * back, so the event is encoded once rather than once per plugin. Keyed by identity, and only for
 * a frozen event (as the engine hands over): its content cannot have changed.
 */
let lastEncoded: { readonly point: PointName; readonly event: object; readonly bytes: Buffer } | undefined;

function encodeRequest<P extends PointName>(point: P, rpc: PointRpc, event: EventOf<P>): Buffer {
  if (lastEncoded !== undefined && lastEncoded.event === event && lastEncoded.point === point) return lastEncoded.bytes;
  const bytes = rpc.serialize(create(rpc.input, { event: toProtoEvent(point, event) }));
  if (Object.isFrozen(event)) lastEncoded = { point, event, bytes };
  return bytes;
}

/** What DescribeRequest tells the plugin about the daemon and about itself. */
export interface DescribeFields {
  /** The daemon's package version. */
  readonly daemonVersion: string;
  /** The name the config gives the plugin. */
  readonly pluginName: string;
}

export class RemoteConnection {
  readonly #channel: Channel;
  readonly #health: TypedClient<typeof pb.health.Health>;
  readonly #plugin: TypedClient<typeof pb.HookPlugin>;

  constructor(
    readonly target: string,
    credentials: ChannelCredentials,
    options: ChannelOptions = {},
  ) {
    this.#channel = new Channel(target, credentials, options);
    this.#health = createClient(pb.health.Health, this.#channel, { credentials });
    this.#plugin = createClient(pb.HookPlugin, this.#channel, { credentials });
  }

  /**
   * Resolves with undefined when the plugin reports SERVING, or with why not. A server without
   * a status for the plugin's service name is asked for its overall status ("").
   */
  async unhealthy(timeoutMs: number, signal: AbortSignal): Promise<string | undefined> {
    const check = async (service: string): Promise<pb.health.HealthCheckResponse_ServingStatus> =>
      (await this.#health.check({ service }, { timeoutMs, signal })).status;
    let serving: pb.health.HealthCheckResponse_ServingStatus;
    try {
      try {
        serving = await check(HEALTH_SERVICE);
      } catch (error) {
        if (!(error instanceof StatusError && error.code === status.NOT_FOUND)) throw error;
        serving = await check("");
      }
    } catch (error) {
      return `health check: ${error instanceof Error ? error.message : String(error)}`;
    }
    const SERVING = pb.health.HealthCheckResponse_ServingStatus.SERVING;
    return serving === SERVING ? undefined : `health check: ${pb.health.HealthCheckResponse_ServingStatus[serving] ?? serving}`;
  }

  /** The validated manifest; throws HookdError (invalid_plugin for a bad manifest, else unavailable). */
  async describe(timeoutMs: number, signal: AbortSignal, request: DescribeFields): Promise<RemoteManifest> {
    let response: pb.DescribeResponse;
    try {
      response = await this.#plugin.describe({ daemonVersion: request.daemonVersion, pluginName: request.pluginName }, { timeoutMs, signal });
    } catch (error) {
      throw new HookdError("unavailable", `Describe: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return readManifest(response.manifest);
  }

  /**
   * One point RPC with a gRPC deadline of now + `deadlineMs`, cancelled when `signal` aborts (a
   * call's LazyAbort is followed without making its AbortSignal).
   * Resolves with the typed answer (not yet validated: the engine does that); rejects with an
   * RpcFailure only.
   */
  call<P extends PointName>(point: P, event: EventOf<P>, deadlineMs: number, signal: Cancellation): Promise<unknown> {
    const rpc = RPCS[point];
    return new Promise((resolve, reject) => {
      const started = performance.now();
      if (signal.aborted) {
        reject(cancelled(signal, 0, deadlineMs));
        return;
      }
      let request: Buffer;
      try {
        request = encodeRequest(point, rpc, event);
      } catch (error) {
        reject(new RpcFailure("error_status", `the event could not be encoded: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      startUnaryCall(this.#channel, rpc.path, request, { deadline: Date.now() + deadlineMs, cancellation: signal }, (received, response) => {
        const elapsedMs = performance.now() - started;
        if (received.code !== status.OK) reject(signal.aborted ? cancelled(signal, elapsedMs, deadlineMs) : statusFailure(received, deadlineMs, this.target, elapsedMs));
        else if (response === undefined) reject(new RpcFailure("invalid_answer", "the plugin sent no response message"));
        else {
          try {
            resolve(answerOf(point, rpc, response));
          } catch (failure) {
            reject(failure instanceof RpcFailure ? failure : new RpcFailure("invalid_answer", String(failure)));
          }
        }
      });
    });
  }

  /** Closes the channel; calls still in flight fail, later ones are never made. */
  close(): void {
    this.#channel.close();
  }
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
function answerOf(point: PointName, rpc: PointRpc, bytes: Buffer): unknown {
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
function decodeAnswer(point: PointName, rpc: PointRpc, bytes: Buffer): unknown {
  let message: MessageShape<DescMessage>;
  try {
    message = fromBinary(rpc.output, bytes);
  } catch (error) {
    throw new RpcFailure("invalid_answer", `${rpc.output.typeName}: cannot decode ${bytes.length} bytes: ${(error as Error).message}`);
  }
  if (!isDecisionPoint(point)) return pass(); // an observer answers nothing
  const decision = (message as { decision?: ProtoDecision<DecisionPoint> }).decision;
  if (decision === undefined) {
    const foreign = message.$unknown?.find((field) => field.wireType === WireType.LengthDelimited && field.no !== rpc.field && fromProtoPoint(field.no).ok);
    if (foreign !== undefined) {
      const other = fromProtoPoint(foreign.no);
      throw new RpcFailure(
        "wrong_point",
        `the ${point} RPC was answered with the decision of ${other.ok ? other.value : "another point"} (field ${foreign.no}, expected ${rpc.field})`,
      );
    }
    throw new RpcFailure("invalid_answer", `${rpc.output.typeName}: no decision`);
  }
  const converted = fromProtoDecision(point, decision, "decision");
  if (!converted.ok) throw new RpcFailure("invalid_answer", converted.error.message);
  return converted.value;
}

function statusFailure(error: StatusObject, deadlineMs: number, target: string, elapsedMs: number): RpcFailure {
  const status_ = `${statusName(error.code)}: ${error.details}`;
  // A server that enforces the deadline it was sent (grpc-go does) may cancel the call a moment
  // before our own timer fires: at the deadline, that is still a missed deadline.
  if (error.code === status.CANCELLED && elapsedMs >= deadlineMs - DEADLINE_SLACK_MS) {
    return new RpcFailure("deadline_exceeded", `no answer within ${deadlineMs} ms (${status_})`);
  }
  switch (error.code) {
    case status.DEADLINE_EXCEEDED:
      return new RpcFailure("deadline_exceeded", `no answer within ${deadlineMs} ms (${status_})`);
    case status.UNAVAILABLE:
      return new RpcFailure("unavailable", `cannot reach ${target} (${status_})`);
    default:
      return new RpcFailure("error_status", status_);
  }
}

/** Timers fire late, never early; this covers the gap between the engine's start and the RPC's. */
const DEADLINE_SLACK_MS = 20;

/**
 * The engine aborts the call's signal with a PluginFault at the effective deadline: the smaller
 * of the plugin's deadline and what is left of the point's budget. Only the plugin's own
 * deadline passing is its failure; anything else is the caller giving up.
 */
function cancelled(signal: Cancellation, elapsedMs: number, deadlineMs: number): RpcFailure {
  const reason: unknown = signal.reason;
  if (reason instanceof PluginFault) {
    const own = elapsedMs >= deadlineMs - DEADLINE_SLACK_MS;
    const why = own ? `no answer within ${deadlineMs} ms` : `the point's budget ran out after ${Math.round(elapsedMs)} ms`;
    return new RpcFailure(reason.fault, `the call was cancelled: ${why}`, !own);
  }
  return new RpcFailure("error_status", "CANCELLED: the caller cancelled the call", true);
}
