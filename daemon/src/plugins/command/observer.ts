// What the two dialects' observers (observe.ts, gemini/observe.ts) share once their hooks ran:
// the report of one firing, a failed hook turned into the plugin's fault with its cause, and the
// agent-event listener's fixed shape. Each dialect keeps its own matching, payload and running.
import type { AgentEventEvent } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { pluginFault } from "../../engine/faults.js";
import type { FaultCause } from "../../engine/faults.js";
import type { Listener, ListenerCall, ListenerTraits } from "../../engine/listener.js";
import type { HookErrorKind } from "./output.js";

const TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: true, settlesItself: false, sendsOnNextTurn: false });
const PASS = { kind: "pass" } as const;
/** Beyond the longest hook's timeout, so a hook's own timeout (not the listener's deadline) ends it. */
const GRACE_MS = 1_000;
const CAUSE: Readonly<Record<HookErrorKind, FaultCause>> = { timeout: "deadline_exceeded", crash: "crashed", exit: "crashed", cancelled: "crashed", garbage: "invalid_answer", spawn: "unavailable" };

/** What the log needs of one hook's result, in either dialect's interpretation. */
export interface ObservedResult {
  readonly hook: string;
  readonly status: string;
  readonly durationMs: number;
  readonly exitCode?: number;
  readonly notes: readonly string[];
  readonly systemMessage?: string;
  readonly error?: { readonly kind: HookErrorKind; readonly message: string };
}

/** One firing at agent-event: every hook's result in file order, and what the hooks asked for that an observer cannot do. */
export interface ObservedReport {
  readonly plugin: string;
  readonly event: string;
  readonly results: readonly ObservedResult[];
  /** Blocks and stops the hooks answered, one line each: never honoured at an observe-only point. */
  readonly notHonoured: readonly string[];
  readonly systemMessages: readonly string[];
}

export { PASS };

/** Reports one firing and answers pass, or throws the plugin's fault naming every hook that failed. */
export function settleObserved(plugin: string, event: string, results: readonly ObservedResult[], notHonoured: readonly string[], onObserved?: (report: ObservedReport) => void): typeof PASS {
  onObserved?.({ plugin, event, results, notHonoured, systemMessages: results.flatMap((r) => (r.systemMessage === undefined ? [] : [r.systemMessage])) });
  const failed = results.filter((r) => r.error !== undefined);
  const [first] = failed;
  if (first?.error !== undefined) throw pluginFault(plugin, "agent-event", CAUSE[first.error.kind], failed.map((r) => `${r.hook}: ${r.error?.message ?? "failed"}`).join("; "));
  return PASS;
}

export interface ObserverSpec {
  readonly plugin: string;
  readonly settings: { readonly priority?: number; readonly deadlineMs?: number };
  /** The longest time the hooks of one firing may take. */
  readonly longestMs: number;
  /** The subscription's matchers: the event names the file has hooks for. */
  readonly matches: (eventName: string) => boolean;
  readonly fire: (event: AgentEventEvent, signal: AbortSignal) => Promise<unknown>;
}

/** The agent-event listener of a command plugin that observes. */
export function observerListener(spec: ObserverSpec): Listener<"agent-event"> {
  const deadlineMs = spec.settings.deadlineMs ?? spec.longestMs + GRACE_MS;
  return {
    plugin: spec.plugin,
    point: "agent-event",
    kind: "command",
    traits: TRAITS,
    priority: spec.settings.priority ?? 0,
    matches: spec.matches,
    deadlineMs,
    ownBudgetMs: deadlineMs,
    // Observers' failures are contained whatever the policy; the fault is still audited with its cause.
    failurePolicy: "fail-open",
    sideEffectFree: false,
    call: (event: AgentEventEvent, _ctx: unknown, call: ListenerCall) => spec.fire(event, signalOf(call.cancellation)),
  };
}
