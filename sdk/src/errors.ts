// The one error type of hookd, with a closed set of codes listed here in ERROR_CODES and
// documented in docs/errors.md (a test keeps the two in step). `HookdError.from(unknown)` turns
// anything thrown into one, so callers classify failures in one place.

export const ERROR_CODES = {
  invalid_plugin: "A plugin definition is malformed (no name, no handlers, an unknown point, a bad matcher).",
  invalid_decision: "A plugin answered something that is not a valid decision for the point.",
  invalid_json: "Text is not JSON, or a value cannot be held as JSON losslessly.",
  invalid_argument: "A caller sent a malformed request; the message names the field.",
  deadline_exceeded: "A plugin did not answer within its deadline.",
  unavailable: "A plugin or peer could not be reached.",
  cancelled: "The caller cancelled the operation (turn cancelled, agent disconnected).",
  plugin_error: "A plugin threw or answered with an error status.",
  internal: "A bug in hookd; the message says where.",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class HookdError extends Error {
  override readonly name = "HookdError";
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  /** Normalizes anything thrown: abort becomes cancelled, a timeout becomes deadline_exceeded. */
  static from(error: unknown, fallback: ErrorCode = "plugin_error"): HookdError {
    if (error instanceof HookdError) return error;
    if (error instanceof Error) {
      if (error.name === "TimeoutError") return new HookdError("deadline_exceeded", error.message, { cause: error });
      if (error.name === "AbortError") return new HookdError("cancelled", error.message, { cause: error });
      return new HookdError(fallback, error.message, { cause: error });
    }
    return new HookdError(fallback, String(error), { cause: error });
  }
}
