// StatusError: the one error type on both sides of the gRPC adapter. A handler throws it to choose
// the status its caller gets; a typed client throws it with the status the peer sent. Owns the
// HookdError-code → gRPC-status table; knows nothing of calls or streams.
import { status } from "@grpc/grpc-js";
import type { Metadata, StatusObject } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import type { ErrorCode } from "../errors.js";

/** A numeric gRPC status code, as grpc-js's `status` enum holds them. */
export type StatusCode = status;

/**
 * The status a thrown HookdError is answered with. A Record, so adding a code to ERROR_CODES
 * fails the type check here until it is mapped.
 */
export const STATUS_FOR_ERROR_CODE: Readonly<Record<ErrorCode, StatusCode>> = {
  invalid_plugin: status.INVALID_ARGUMENT,
  invalid_decision: status.UNKNOWN, // the handler's own answer was unusable: an application failure
  invalid_json: status.INVALID_ARGUMENT,
  invalid_argument: status.INVALID_ARGUMENT,
  deadline_exceeded: status.DEADLINE_EXCEEDED,
  unavailable: status.UNAVAILABLE,
  cancelled: status.CANCELLED,
  plugin_error: status.UNKNOWN, // gRPC's code for "the application threw"
  internal: status.INTERNAL,
};

/** "INVALID_ARGUMENT" for 3; codes this grpc-js does not know read as "CODE_<n>". */
export function statusName(code: number): string {
  const name = status[code]; // the enum's reverse mapping
  return name ?? `CODE_${code}`;
}

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
  if (error instanceof HookdError) return new StatusError(STATUS_FOR_ERROR_CODE[error.code], error.message, { cause: error });
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
