// The one error type of hookd, with a closed set of codes listed here in ERROR_CODES and
// documented in docs/errors.md (a test keeps the two in step). `HookdError.from(unknown)` turns
// anything thrown into one, so callers classify failures in one place.

export const ERROR_CODES = {
  invalid_plugin: "A plugin definition is malformed (no name, no handlers, an unknown point, a bad matcher).",
  invalid_decision: "A plugin answered something that is not a valid decision for the point.",
  invalid_json: "Text is not JSON, or a value cannot be held as JSON losslessly.",
  invalid_argument: "A caller sent a malformed request; the message names the field.",
  invalid_config: "The config file cannot be read or does not validate; every problem is listed.",
  usage: "A command line is wrong: an unknown command or option, a missing or extra argument.",
  unauthenticated: "The caller gave no credentials, or unknown ones.",
  permission_denied: "The caller may not act for the agent or session it names.",
  not_found: "What the request names does not exist (an endpoint, a session, a service).",
  method_not_allowed: "The HTTP endpoint was called with a method it does not answer.",
  too_large: "A request is over the size limit.",
  resource_exhausted: "A limit is reached (sessions, calls in flight, a reader's backlog).",
  deadline_exceeded: "A plugin did not answer within its deadline.",
  unavailable: "A plugin or peer could not be reached.",
  cancelled: "The caller cancelled the operation (turn cancelled, agent disconnected).",
  plugin_error: "A plugin threw or answered with an error status.",
  plugin_fault: "A plugin could not give a usable answer; its failure policy decides.",
  listener_error: "An in-process or worker handler threw or answered an invalid decision.",
  rpc_failure: "One RPC to a remote plugin gave no usable answer.",
  unknown_tool: "The agent's tool dispatch does not know the called tool.",
  internal: "A bug in hookd; the message says where.",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What a HookdError carries beyond its code and message, typed by the helpers that make it. */
export type HookdErrorDetails = object | undefined;

/** The options of a HookdError: details are required when its type says there are some. */
export type HookdErrorOptions<Details extends HookdErrorDetails> = { readonly cause?: unknown } & (undefined extends Details
  ? { readonly details?: Details }
  : { readonly details: Details });

export class HookdError<Details extends HookdErrorDetails = HookdErrorDetails> extends Error {
  override readonly name = "HookdError";
  readonly code: ErrorCode;
  /**
   * Fields a caller needs besides the message (a fault's plugin and cause, a bad field's path).
   * Read them through the narrowing helper of the code (e.g. `isFieldError`), never by shape.
   */
  readonly details: Details;

  constructor(code: ErrorCode, message: string, options?: HookdErrorOptions<Details>) {
    super(message, options);
    this.code = code;
    // Only the options' type can say a Details other than undefined is required and given.
    this.details = options?.details as Details;
  }

  /** Normalizes anything thrown: abort becomes cancelled, a timeout becomes deadline_exceeded. */
  static from(error: unknown, fallback: ErrorCode = "plugin_error"): HookdError {
    // instanceof cannot know the details type: any HookdError is one of the default.
    if (error instanceof HookdError) return error as HookdError;
    if (error instanceof Error) {
      if (error.name === "TimeoutError") return new HookdError("deadline_exceeded", error.message, { cause: error });
      if (error.name === "AbortError") return new HookdError("cancelled", error.message, { cause: error });
      return new HookdError(fallback, error.message, { cause: error });
    }
    return new HookdError(fallback, String(error), { cause: error });
  }
}

/** Whether `error` is a HookdError of `code`. */
export function hasCode(error: unknown, code: ErrorCode): error is HookdError {
  return error instanceof HookdError && error.code === code;
}

/** The details of a problem at one field of an input. */
export interface FieldDetails {
  /** The field path, e.g. "event.call.arguments_json" or "tool_input". */
  readonly field: string;
}

/**
 * A problem at one field, "<field>: <problem>". Readers throw it with the default code; the
 * conversion boundary that catches it (decode, check) then gives it the code of what it reads
 * (`invalid_decision` for an answer). A code named here (e.g. `invalid_json`) is kept.
 */
export function fieldError(field: string, problem: string, code: ErrorCode = "invalid_argument", cause?: unknown): HookdError<FieldDetails> {
  return new HookdError<FieldDetails>(code, `${field}: ${problem}`, { details: { field }, ...(cause === undefined ? {} : { cause }) });
}

export function isFieldError(error: unknown): error is HookdError<FieldDetails> {
  return error instanceof HookdError && typeof (error.details as Partial<FieldDetails> | undefined)?.field === "string";
}

/** A field error as the boundary reading a `code` kind of input reports it. */
export function atBoundary(error: HookdError<FieldDetails>, code: ErrorCode): HookdError {
  return new HookdError(error.code === "invalid_argument" ? code : error.code, error.message);
}
