// connectHost: an agent's connection to hookd's HookHost service. Holds one channel and the
// identity metadata every call carries (a bearer token, or the declared agent id); opens hosted
// sessions and makes the evaluate calls (over one Evaluate stream unless told to go unary). What a session does lives in session.ts.
import { status } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { parseAddress } from "../grpc/address.js";
import { closeClient, createClient } from "../grpc/client.js";
import { StatusError } from "../grpc/status.js";
import * as pb from "../proto.js";
import type { Evaluator } from "./evaluate.js";
import { evaluator } from "./evaluate.js";
import { openFrame } from "./frames.js";
import { Session } from "./session.js";
import type { AgentHandlers, AgentTool, ConnectOptions, HostedSession, OpenSessionOptions } from "./types.js";

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

/** `target` is "unix:///abs/path", "unix:/abs/path" or "host:port". Nothing connects until the first call. */
export function connectHost(target: string, options: ConnectOptions = {}): HostClient {
  parseAddress(target); // a clear error now instead of grpc-js's at the first call
  const transport = options.evaluateTransport;
  if (transport !== undefined && transport !== "stream" && transport !== "unary") {
    throw new HookdError("invalid_argument", `connectHost: evaluateTransport must be "stream" or "unary", got ${JSON.stringify(transport)}`);
  }
  const metadata = identityMetadata(options);
  const stub = createClient(pb.HookHost, target, options.credentials === undefined ? {} : { credentials: options.credentials });
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw new StatusError(status.FAILED_PRECONDITION, `the host client for ${target} is closed`);
  };
  const evaluation = evaluator(stub, metadata, assertOpen, options.evaluateTransport ?? "stream");
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
      const frame = openFrame(session, options.agentId);
      const streamMetadata = session.traceparent === undefined ? metadata : { ...metadata, traceparent: checkTraceparent(session.traceparent, "openSession") };
      return new Session(stub.session({ metadata: streamMetadata }), session.sessionId, frame, handlers, finalizers);
    },
    close(): void {
      if (closed) return;
      closed = true;
      evaluation.close();
      closeClient(stub);
    },
  });
}

/** Metadata values must be printable ASCII (grpc-js refuses anything else at call time). */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function identityMetadata(options: ConnectOptions): Readonly<Record<string, string>> {
  const { token, agentId } = options;
  for (const [field, value] of [["token", token], ["agentId", agentId]] as const) {
    if (value !== undefined && (typeof value !== "string" || !HEADER_VALUE.test(value))) {
      throw new HookdError("invalid_argument", `connectHost: ${field} must be non-empty printable ASCII without surrounding spaces`);
    }
  }
  const trace: Record<string, string> = options.traceparent === undefined ? {} : { traceparent: checkTraceparent(options.traceparent, "connectHost") };
  if (token !== undefined) return Object.freeze({ authorization: `Bearer ${token}`, ...trace });
  if (agentId !== undefined) return Object.freeze({ "x-hookd-agent": agentId, ...trace });
  return Object.freeze(trace);
}

/** version 00, a non-zero trace id and span id, flags: the W3C Trace Context header, lowercase hex. */
const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

function checkTraceparent(value: unknown, where: string): string {
  if (typeof value !== "string" || !TRACEPARENT.test(value)) {
    throw new HookdError("invalid_argument", `${where}: traceparent must be a W3C trace context (00-<32 hex trace id>-<16 hex span id>-<2 hex flags>), got ${JSON.stringify(value)}`);
  }
  return value;
}
