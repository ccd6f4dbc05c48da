// Plugin failures, classified once, as HookdError codes with typed details. A plugin fault means
// the plugin could not give a usable answer (deadline, crash, unreachable, garbage on the wire):
// its failure policy decides. A listener error is an in-process handler's own bug and follows the
// seed's rule (a final normalized failure at tool points, a turn error at loop points).
import { HookdError, hasCode } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";

export type FaultCause =
  | "deadline_exceeded"
  | "unavailable"
  | "crashed"
  | "invalid_answer"
  | "wrong_point"
  | "error_status"
  | "ejected"
  // A policy the daemon evaluates itself (kind: rules, kind: rego) failed or gave a value the point
  // cannot use: unlike an in-process handler's bug, the plugin's failure, under its failure policy.
  | "listener_error";

/** What a plugin fault names besides its message. */
export interface FaultDetails {
  readonly plugin: string;
  readonly point: PointName;
  /** Why the plugin could not answer; recorded in metrics and the audit log. */
  readonly fault: FaultCause;
}

export type PluginFault = HookdError<FaultDetails>;

/** The plugin could not give a usable answer: its failure policy decides. */
export function pluginFault(plugin: string, point: PointName, fault: FaultCause, detail: string): PluginFault {
  return new HookdError("plugin_fault", `plugin ${plugin} at ${point}: ${fault.replace(/_/g, " ")}: ${detail}`, { details: { plugin, point, fault } });
}

/** Only pluginFault() makes the code, so the code says the details are there. */
export function isPluginFault(error: unknown): error is PluginFault {
  return hasCode(error, "plugin_fault");
}

/** What a listener error names besides its message. */
export interface ListenerErrorDetails {
  readonly plugin: string;
  readonly point: PointName;
  /** What the handler threw (or its invalid answer), also the error's cause. */
  readonly error: HookdError;
}

export type ListenerError = HookdError<ListenerErrorDetails>;

/** The handler threw or answered something invalid: the seed's listener error. */
export function listenerError(plugin: string, point: PointName, error: HookdError): ListenerError {
  return new HookdError("listener_error", `plugin ${plugin} at ${point}: ${error.message}`, { cause: error, details: { plugin, point, error } });
}
