// connectHost: an agent's connection to hookd's HookHost service. Holds one channel (its options
// and service config the caller's, e.g. round_robin over a dns:/// target) and the identity and
// affinity metadata every call carries (affinity.ts); opens hosted sessions and makes the
// evaluate calls (over one Evaluate stream unless told to go unary). What a session does lives in
// session.ts, its stream and reconnects in session-link.ts.
import { status } from "@grpc/grpc-js";
import type { ChannelOptions } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { parseAddress } from "../grpc/address.js";
import { closeClient, createClient } from "../grpc/client.js";
import { StatusError } from "../grpc/status.js";
import * as pb from "../proto.js";
import type { Evaluator } from "./evaluate.js";
import { evaluator } from "./evaluate.js";
import { DEFAULT_EVALUATE_RETRY, evaluateRetryPolicy } from "./evaluate-retry.js";
import { AGENT_HEADER, HEADER_VALUE, withSession } from "./affinity.js";
import { openFrame } from "./frames.js";
import { Session } from "./session.js";
import { DEFAULT_RECONNECT, SessionLink } from "./session-link.js";
import type { AgentHandlers, AgentTool, ConnectOptions, HostedSession, OpenSessionOptions, ReconnectOptions } from "./types.js";

export interface HostClient extends Evaluator {
  /**
   * Opens (or, with source "resume", continues) a session on a new Session stream; the open frame
   * is sent at once. Throws HookdError("invalid_argument") for an empty session id or missing
   * handlers, StatusError(FAILED_PRECONDITION) once the client is closed; a refusal by the daemon
   * arrives as the rejection of `opened`.
   */
  openSession(options: OpenSessionOptions, handlers: AgentHandlers): HostedSession;
  /** Closes the channel: calls and streams in flight end with a status. Idempotent. */
  close(): void;
}

/**
 * `target` is "unix:///abs/path", "unix:/abs/path", "host:port", or a gRPC name-resolver target
 * ("dns:///host:port", "ipv4:addr:port,addr:port", "ipv6:..."). Nothing connects until the first call.
 */
export function connectHost(target: string, options: ConnectOptions = {}): HostClient {
  // A clear error now instead of grpc-js's at the first call.
  if (!/^(dns|ipv4|ipv6):./.test(target)) parseAddress(target);
  const transport = options.evaluateTransport;
  if (transport !== undefined && transport !== "stream" && transport !== "unary") {
    throw new HookdError("invalid_argument", `connectHost: evaluateTransport must be "stream" or "unary", got ${JSON.stringify(transport)}`);
  }
  const metadata = identityMetadata(options);
  const reconnect = reconnectPolicy(options.reconnect);
  const stub = clientFor(target, options);
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw new StatusError(status.FAILED_PRECONDITION, `the host client for ${target} is closed`);
  };
  const evaluation = evaluator(stub, metadata, assertOpen, options.evaluateTransport ?? "stream", options.evaluateRetry === false ? { ...DEFAULT_EVALUATE_RETRY, maxAttempts: 1 } : evaluateRetryPolicy(options.evaluateRetry));
  return Object.freeze({
    ...evaluation.methods,
    openSession(session: OpenSessionOptions, handlers: AgentHandlers): HostedSession {
      assertOpen();
      if (typeof session.sessionId !== "string" || session.sessionId === "") {
        throw new HookdError("invalid_argument", "openSession: sessionId must be a non-empty string");
      }
      if (typeof handlers.runStep !== "function" || typeof handlers.dispatch !== "function") {
        throw new HookdError("invalid_argument", "openSession: handlers need runStep and dispatch functions");
      }
      const finalizers = new Map<string, NonNullable<AgentTool["finalize"]>>();
      for (const [index, tool] of session.tools.entries()) {
        if (tool.finalize === undefined) continue;
        if (typeof tool.finalize !== "function") throw new HookdError("invalid_argument", `openSession: tools[${index}].finalize must be a function`);
        finalizers.set(tool.name, tool.finalize);
      }
      const open = openFrame(session, options.agentId);
      const resume = openFrame({ ...session, source: "resume" }, options.agentId);
      const sessionMetadata = withSession(metadata, session.sessionId);
      const streamMetadata = session.traceparent === undefined ? sessionMetadata : { ...sessionMetadata, traceparent: checkTraceparent(session.traceparent, "openSession") };
      const link = new SessionLink(() => stub.session({ metadata: streamMetadata }), session.sessionId, open, resume, reconnect);
      return new Session(link, session.sessionId, handlers, finalizers);
    },
    close(): void {
      if (closed) return;
      closed = true;
      evaluation.close();
      closeClient(stub);
    },
  });
}

function identityMetadata(options: ConnectOptions): Readonly<Record<string, string>> {
  const { token, agentId } = options;
  for (const [field, value] of [["token", token], ["agentId", agentId]] as const) {
    if (value !== undefined && (typeof value !== "string" || !HEADER_VALUE.test(value))) {
      throw new HookdError("invalid_argument", `connectHost: ${field} must be non-empty printable ASCII without surrounding spaces`);
    }
  }
  return Object.freeze({
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...(agentId === undefined ? {} : { [AGENT_HEADER]: agentId }),
    ...(options.traceparent === undefined ? {} : { traceparent: checkTraceparent(options.traceparent, "connectHost") }),
  });
}

/** version 00, a non-zero trace id and span id, flags: the W3C Trace Context header, lowercase hex. */
const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

function checkTraceparent(value: unknown, where: string): string {
  if (typeof value !== "string" || !TRACEPARENT.test(value)) {
    throw new HookdError("invalid_argument", `${where}: traceparent must be a W3C trace context (00-<32 hex trace id>-<16 hex span id>-<2 hex flags>), got ${JSON.stringify(value)}`);
  }
  return value;

}

function clientFor(target: string, options: ConnectOptions): ReturnType<typeof createClient<typeof pb.HookHost>> {
  const channel = channelOptions(options);
  try {
    return createClient(pb.HookHost, target, { ...(options.credentials === undefined ? {} : { credentials: options.credentials }), channelOptions: channel });
  } catch (error) {
    // grpc-js checks the service config when it builds the channel.
    throw new HookdError("invalid_argument", `connectHost: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The caller's channel options, with the service config as grpc-js takes it (JSON text). */
function channelOptions(options: ConnectOptions): ChannelOptions {
  const { serviceConfig } = options;
  if (serviceConfig === undefined) return { ...options.channelOptions };
  if (typeof serviceConfig !== "object" || serviceConfig === null || Array.isArray(serviceConfig)) {
    throw new HookdError("invalid_argument", "connectHost: serviceConfig must be a service config object");
  }
  return { ...options.channelOptions, "grpc.service_config": JSON.stringify(serviceConfig) };
}

function reconnectPolicy(given: ReconnectOptions = {}): Required<ReconnectOptions> {
  const policy = { ...DEFAULT_RECONNECT, ...given };
  for (const [field, value] of Object.entries(policy)) {
    const ok = Number.isSafeInteger(value) && value >= (field === "maxAttempts" ? 0 : 1);
    if (!ok) throw new HookdError("invalid_argument", `connectHost: reconnect.${field} must be an integer ${field === "maxAttempts" ? ">= 0" : ">= 1"}, got ${JSON.stringify(value)}`);
  }
  return policy;
}
