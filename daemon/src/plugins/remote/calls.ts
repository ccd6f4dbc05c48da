// The calls of a remote plugin: one Listener (kind "remote", or "managed") per subscribed point, each call one
// RPC on the admitted channel with the listener's deadline. Every failure is a plugin fault,
// classified here once (a dropped channel of a managed plugin whose process died is "crashed"),
// so the listener's failure policy decides; failures feed the counters and the ejection.
import type { PointName } from "@hookd/sdk";
import { pluginFault } from "../../engine/faults.js";
import type { FaultCause } from "../../engine/faults.js";
import type { EventOf, Listener, ListenerCall, ListenerTraits } from "../../engine/listener.js";
import type { Admission } from "./admission.js";
import { isRpcFailure, rpcFailure } from "./connection.js";
import type { ListenerSettings } from "./manifest.js";
import type { CallStats } from "./stats.js";

/** A remote handler has no next(); its answers come over gRPC; it settles its own calls; its request is sent when the event loop turns. */
const REMOTE_TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: true, settlesItself: true, sendsOnNextTurn: true });

/** What a call needs of the plugin it belongs to. */
export interface CallSite {
  readonly plugin: string;
  /** The listeners' kind: what `hookd check` and the metrics show for the plugin. */
  readonly kind: "remote" | "managed";
  readonly admission: Admission;
  readonly stats: CallStats;
  /**
   * A managed plugin's: asked when a call fails as UNAVAILABLE, resolves true when the process
   * behind the socket died (the call is then "crashed").
   */
  readonly crashed?: () => Promise<boolean>;
}

export function remoteListeners(site: CallSite, settings: readonly ListenerSettings[]): readonly Listener[] {
  return Object.freeze(
    settings.map((s): Listener => {
      const { point, deadlineMs } = s;
      return Object.freeze({
        plugin: site.plugin,
        point,
        kind: site.kind,
        traits: REMOTE_TRAITS,
        priority: s.priority,
        matches: s.matches,
        deadlineMs,
        failurePolicy: s.failurePolicy,
        sideEffectFree: s.sideEffectFree,
        call: (event: EventOf<PointName>, _ctx: unknown, engine: ListenerCall) => call(site, point, deadlineMs, event, engine),
      });
    }),
  );
}

/** Every failure is a plugin fault, so the listener's failure policy decides. */
async function call(site: CallSite, point: PointName, deadlineMs: number, event: EventOf<PointName>, engine: ListenerCall): Promise<unknown> {
  const { admission, stats } = site;
  stats.called();
  const conn = admission.serving();
  if (conn === undefined) {
    stats.failedFast();
    throw admission.failFast(point);
  }
  const started = performance.now();
  try {
    // The wire carries the plugin's own deadline; a shorter effective one (the point's budget) is
    // the engine's to enforce, and is then the caller giving up, not the plugin failing.
    const answer = await conn.call(point, event, deadlineMs, engine.cancellation, engine.traceparent);
    stats.sample(performance.now() - started);
    stats.succeeded();
    admission.answered();
    return answer;
  } catch (error) {
    stats.sample(performance.now() - started);
    const failure = isRpcFailure(error) ? error : rpcFailure("error_status", String(error));
    if (failure.details.byCaller) {
      stats.cancelledByCaller();
      throw pluginFault(site.plugin, point, failure.details.fault, failure.message);
    }
    const crashed = failure.details.fault === "unavailable" && site.crashed !== undefined && (await site.crashed());
    const cause: FaultCause = crashed ? "crashed" : failure.details.fault;
    const fault = pluginFault(site.plugin, point, cause, failure.message);
    admission.callFailed(`${point}: ${cause.replace(/_/g, " ")}: ${failure.message}`, stats.failed());
    throw fault;
  }
}
