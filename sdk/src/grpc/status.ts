// StatusError: a gRPC status as a peer sent it or a handler chooses it, on both sides of the gRPC
// adapter. Owns the one table from a HookdError code to its gRPC and its HTTP status, and the
// reading of any thrown error through it; knows nothing of calls or streams.
import { status } from "@grpc/grpc-js";
import type { Metadata, StatusObject } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import type { ErrorCode } from "../errors.js";

/** A numeric gRPC status code, as grpc-js's `status` enum holds them. */
export type StatusCode = status;

/** The statuses a HookdError of one code is answered with, over gRPC and over HTTP. */
export interface ErrorStatus {
  readonly grpc: StatusCode;
  readonly http: number;
}

/**
 * The status each code is answered with. A Record, so adding a code to ERROR_CODES fails the
 * type check here until it is mapped. A gRPC status reaches HTTP through the code of its name
 * (UNAUTHENTICATED through `unauthenticated`), or as 500 when no code has it.
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, ErrorStatus>> = {
  invalid_plugin: { grpc: status.INVALID_ARGUMENT, http: 400 },
  invalid_decision: { grpc: status.UNKNOWN, http: 500 }, // the handler's own answer was unusable: an application failure
  invalid_json: { grpc: status.INVALID_ARGUMENT, http: 400 },
  invalid_argument: { grpc: status.INVALID_ARGUMENT, http: 400 },
  invalid_config: { grpc: status.INVALID_ARGUMENT, http: 400 },
  usage: { grpc: status.INVALID_ARGUMENT, http: 400 },
  unauthenticated: { grpc: status.UNAUTHENTICATED, http: 401 },
  permission_denied: { grpc: status.PERMISSION_DENIED, http: 403 },
  not_found: { grpc: status.NOT_FOUND, http: 404 },
  method_not_allowed: { grpc: status.UNIMPLEMENTED, http: 405 },
  too_large: { grpc: status.RESOURCE_EXHAUSTED, http: 413 }, // grpc-js's own status for an oversized message
  resource_exhausted: { grpc: status.RESOURCE_EXHAUSTED, http: 429 },
  deadline_exceeded: { grpc: status.DEADLINE_EXCEEDED, http: 500 },
  unavailable: { grpc: status.UNAVAILABLE, http: 503 },
  cancelled: { grpc: status.CANCELLED, http: 499 }, // the client closed the request
  plugin_error: { grpc: status.UNKNOWN, http: 500 }, // gRPC's code for "the application threw"
  // The daemon handles these inside; one that escapes is a bug, answered like any other.
  plugin_fault: { grpc: status.INTERNAL, http: 500 },
  listener_error: { grpc: status.INTERNAL, http: 500 },
  rpc_failure: { grpc: status.INTERNAL, http: 500 },
  unknown_tool: { grpc: status.INTERNAL, http: 500 },
  internal: { grpc: status.INTERNAL, http: 500 },
};

/** The code named like a gRPC status ("unauthenticated" for UNAUTHENTICATED), if there is one. */
function codeOfStatus(code: StatusCode): ErrorCode | undefined {
  const name = statusName(code).toLowerCase();
  return Object.hasOwn(ERROR_STATUS, name) ? (name as ErrorCode) : undefined;
}

/**
 * The HTTP status a failure is answered with: a HookdError's by its code, a StatusError's by the
 * code of its status' name; anything else is a bug (500).
 */
export function httpStatusOf(error: unknown): number {
  if (error instanceof HookdError) return ERROR_STATUS[error.code].http;
  if (error instanceof StatusError) {
    const code = codeOfStatus(error.code);
    return code === undefined ? 500 : ERROR_STATUS[code].http;
  }
  return 500;
}

/** "INVALID_ARGUMENT" for 3; codes this grpc-js does not know read as "CODE_<n>". */
export function statusName(code: number): string {
  const name = status[code]; // the enum's reverse mapping
  return name ?? `CODE_${code}`;
}

/**
 * The error type of the gRPC wire, beside HookdError: its code is the gRPC status number a peer
 * sent (any of them, most with no HookdError code) with the peer's trailers, and it is what agent
 * clients catch. A HookdError becomes one at the adapter, by ERROR_STATUS.
 */
export class StatusError extends Error {
  override readonly name = "StatusError";
  /** Numeric, as grpc-js's `status` enum; compare with `status.NOT_FOUND` etc. */
  readonly code: StatusCode;
  /** The status message exactly as sent on the wire (`message` adds the code name). */
  readonly details: string;
  /** Trailers sent with the status, when there were any. */
  readonly metadata: Metadata | undefined;

  constructor(code: StatusCode, details: string, options?: { cause?: unknown; metadata?: Metadata }) {
    super(`${statusName(code)}: ${details}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = details;
    this.metadata = options?.metadata;
  }

  get codeName(): string {
    return statusName(this.code);
  }

  /** What grpc-js needs to end a call with this status. */
  toStatus(): Partial<StatusObject> {
    return { code: this.code, details: this.details, ...(this.metadata ? { metadata: this.metadata } : {}) };
  }
}

/**
 * The status a handler's failure is answered with: a StatusError as is, a HookdError by its code,
 * an AbortError/TimeoutError as CANCELLED/DEADLINE_EXCEEDED, anything else INTERNAL with its
 * message (a handler that throws a plain Error has a bug, and the message helps find it).
 */
export function toStatusError(error: unknown): StatusError {
  if (error instanceof StatusError) return error;
  if (error instanceof HookdError) return new StatusError(ERROR_STATUS[error.code].grpc, error.message, { cause: error });
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return toStatusError(HookdError.from(error));
  }
  const message = error instanceof Error ? error.message : String(error);
  return new StatusError(status.INTERNAL, message, { cause: error });
}

/**
 * Rejects a request whose bytes decoded but whose content is wrong, naming the field path:
 * `throw invalidArgument("event.call.arguments_json", "not valid JSON")`.
 */
export function invalidArgument(fieldPath: string, problem: string, options?: { cause?: unknown }): StatusError {
  return new StatusError(status.INVALID_ARGUMENT, `${fieldPath}: ${problem}`, options);
}
