// One gRPC channel to a remote plugin and what the daemon does over it: health checks, Describe,
// and every point call, over the Attach stream when the plugin has one (attach-link.ts) or one
// unary RPC per call. What an answer means is answers.ts's, the same for both transports. Knows
// nothing of ejection, listeners or processes.
import { Channel, Metadata, connectivityState, status } from "@grpc/grpc-js";
import type { ChannelCredentials, ChannelOptions } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { StatusError, createClient, pb, startUnaryCall } from "@hookd/sdk/internal";
import type { Cancellation, TypedClient } from "@hookd/sdk/internal";
import type { EventOf } from "../../engine/listener.js";
import type { Logger } from "../../log.js";
import { silentLogger } from "../../log.js";
import { RPCS, answerOf, cancelled, encodeRequest, isRpcFailure, rpcFailure, statusFailure } from "./answers.js";
import { AttachLink } from "./attach-link.js";
import type { AttachSettings } from "./attach-link.js";
import { readManifest } from "./manifest.js";
import type { RemoteManifest } from "./manifest.js";

export { isRpcFailure, rpcFailure, type RpcFailure } from "./answers.js";

/** What the connection tells its owner about the stream path. */
export interface ConnectionEvents {
  readonly log?: Logger;
  /** An Attach answer was refused (an id never sent or answered twice, an undecodable frame). */
  readonly refused?: (detail: string) => void;
  /** How long a broken Attach stream waits before it is reopened. */
  readonly backoff?: { readonly initialBackoffMs: number; readonly maxBackoffMs: number };
}

/** The plugin's own service name in grpc.health.v1, checked before the server's overall status. */
const HEALTH_SERVICE = pb.HookPlugin.typeName;

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
  readonly #link: AttachLink;

  constructor(
    readonly target: string,
    credentials: ChannelCredentials,
    options: ChannelOptions = {},
    events: ConnectionEvents = {},
  ) {
    this.#channel = new Channel(target, credentials, options);
    this.#health = createClient(pb.health.Health, this.#channel, { credentials });
    this.#plugin = createClient(pb.HookPlugin, this.#channel, { credentials });
    this.#link = new AttachLink({
      channel: this.#channel,
      target,
      log: events.log ?? silentLogger,
      backoff: events.backoff ?? { initialBackoffMs: 100, maxBackoffMs: 10_000 },
      refused: events.refused ?? (() => {}),
    });
  }

  /** After Describe: which transport the manifest prefers; opens the stream unless unary. */
  attach(settings: AttachSettings): void {
    this.#link.configure(settings);
  }

  /**
   * Calls `lost` once, when the connection the health check and Describe went over is gone: the
   * channel leaves READY (the plugin closed it or died, or the channel went idle), at once if it
   * is not READY now. Whatever connects next is another server until checked again.
   */
  watchLoss(lost: () => void): void {
    const READY = connectivityState.READY;
    if (this.#channel.getConnectivityState(false) !== READY) {
      queueMicrotask(lost);
      return;
    }
    try {
      this.#channel.watchConnectivityState(READY, Infinity, () => lost());
    } catch {
      queueMicrotask(lost); // shut down already
    }
  }

  /** The transport calls take now. */
  get transport(): "stream" | "unary" {
    return this.#link.transport;
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
   * One point call: over the Attach stream when there is one (the daemon's timer enforces
   * `deadlineMs`, a cancel frame follows `signal`), else unary. Resolves with the typed answer
   * (not yet validated: the engine does that); rejects with an RpcFailure only. `traceparent`
   * (tracing on) goes in the call's metadata, or in the Attach call frame.
   */
  call<P extends PointName>(point: P, event: EventOf<P>, deadlineMs: number, signal: Cancellation, traceparent?: string): Promise<unknown> {
    const stream = this.#link.stream();
    if (stream === undefined) return this.unary(point, event, deadlineMs, signal, traceparent);
    return stream.call(point, event, deadlineMs, signal, (left) => this.#rerouted(point, event, left, signal, traceparent), traceparent);
  }

  /**
   * A call the plugin never saw on a stream that ended goes unary, but only over the connection
   * that was admitted: a lost one is re-admitted first (admission.ts), never reached unchecked.
   */
  #rerouted<P extends PointName>(point: P, event: EventOf<P>, deadlineMs: number, signal: Cancellation, traceparent?: string): Promise<unknown> {
    if (this.#channel.getConnectivityState(false) !== connectivityState.READY) {
      return Promise.reject(rpcFailure("unavailable", `cannot reach ${this.target}: the connection was lost before the call was sent`));
    }
    return this.unary(point, event, deadlineMs, signal, traceparent);
  }

  /**
   * One point RPC with a gRPC deadline of now + `deadlineMs`, cancelled when `signal` aborts (a
   * call's LazyAbort is followed without making its AbortSignal).
   * Resolves with the typed answer (not yet validated: the engine does that); rejects with an
   * RpcFailure only.
   */
  unary<P extends PointName>(point: P, event: EventOf<P>, deadlineMs: number, signal: Cancellation, traceparent?: string): Promise<unknown> {
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
        reject(rpcFailure("error_status", `the event could not be encoded: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      const options = { deadline: Date.now() + deadlineMs, cancellation: signal, ...(traceparent === undefined ? {} : { metadata: traceMetadata(traceparent) }) };
      startUnaryCall(this.#channel, rpc.path, request, options, (received, response) => {
        const elapsedMs = performance.now() - started;
        if (received.code !== status.OK) reject(signal.aborted ? cancelled(signal, elapsedMs, deadlineMs) : statusFailure(received, deadlineMs, this.target, elapsedMs));
        else if (response === undefined) reject(rpcFailure("invalid_answer", "the plugin sent no response message"));
        else {
          try {
            resolve(answerOf(point, rpc, response));
          } catch (failure) {
            reject(isRpcFailure(failure) ? failure : rpcFailure("invalid_answer", String(failure)));
          }
        }
      });
    });
  }

  /** Closes the channel; calls still in flight fail, later ones are never made. */
  close(): void {
    this.#link.close();
    this.#channel.close();
  }
}


/** The W3C trace context header of a traced call (the name is lowercase in gRPC metadata). */
function traceMetadata(traceparent: string): Metadata {
  const metadata = new Metadata();
  metadata.set("traceparent", traceparent);
  return metadata;
}
