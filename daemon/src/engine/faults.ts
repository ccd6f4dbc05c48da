// Plugin failures, classified once. A PluginFault means the plugin could not give a usable
// answer (deadline, crash, unreachable, garbage on the wire): its failure policy decides. Any
// other error thrown by an in-process handler is the handler's own bug and follows the seed's
// rule (a final normalized failure at tool points, a turn error at loop points).
import type { HookdError } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";

export type FaultCause =
  | "deadline_exceeded"
  | "unavailable"
  | "crashed"
  | "invalid_answer"
  | "wrong_point"
  | "error_status"
  | "ejected";

export class PluginFault extends Error {
  override readonly name = "PluginFault";
  constructor(
    readonly plugin: string,
    readonly point: PointName,
    /** Why the plugin could not answer; recorded in metrics and the audit log. */
    readonly fault: FaultCause,
    detail: string,
  ) {
    super(`plugin ${plugin} at ${point}: ${fault.replace(/_/g, " ")}: ${detail}`);
  }
}

/** The handler threw or answered something invalid: the seed's listener error. */
export class ListenerError extends Error {
  override readonly name = "ListenerError";
  constructor(
    readonly plugin: string,
    readonly point: PointName,
    readonly error: HookdError,
  ) {
    super(`plugin ${plugin} at ${point}: ${error.message}`, { cause: error });
  }
}
