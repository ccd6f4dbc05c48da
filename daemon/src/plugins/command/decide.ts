// The merged hook outcome to the hookd decision of the point it fired at, and the failure policy
// for hooks that failed. Pure; the listener turns a "fault" into a plugin fault so the engine
// records it and applies the point's refusal (deny, reject, block) exactly as for any plugin.
//   rewrite:       PreToolUse updatedInput (folded in file order) -> replace{arguments}
//   pre-tool:      stop or deny -> deny (a default reason when none); ask -> ask; allow -> allow
//   approval:      stop or any deny -> reject{reason}; allow -> approve
//   pre-step:      stop or block -> reject{reason}; contexts -> enter{batch + context messages}
//   post-tool:     stop or block -> block{feedback: reason}; updatedToolOutput -> accept{value};
//                  contexts -> accept{additionalContexts}
//   turn-stopping: block -> steer{one user-role message sourced to the plugin}; stop closes the turn
//   session-start: contexts -> inject
//   session-end, turn-end: observers, nothing to answer
// Anything else is pass. Context messages are user-role messages sourced to the plugin. At every
// point but the observers, the hooks' systemMessages become the answer's message for the user and
// a `continue: false` its stop request (with the stopReason), so the agent gets both as written.
import { USER_MESSAGE_SEPARATOR, accept, allow, approve, ask, block, deny, enter, inject, pluginMessage, reject, replace, steer, withNotice } from "@hookd/sdk";
import type { FailurePolicy, JsonObject, Pass, PointAnswer, UserNotice } from "@hookd/sdk";
import type { CommandPoint, HookErrorKind } from "../../agents/contract.js";
import { hooksOf } from "../../agents/contract.js";
import type { FaultCause } from "../../engine/faults.js";
import type { EventOf } from "../../engine/listener.js";
import type { Merged } from "./merge.js";

export type { CommandPoint } from "../../agents/contract.js";

/** The tool input after a hook's updatedInput, as the agent applies it (whole, or a patch). */
export type ApplyInput = (args: JsonObject, input: JsonObject) => JsonObject;

export type Decided<P extends CommandPoint> =
  | { readonly type: "answer"; readonly answer: PointAnswer<P> }
  | { readonly type: "fault"; readonly cause: FaultCause; readonly detail: string };

const PASS: Pass = { kind: "pass" };

export const CAUSE: Readonly<Record<HookErrorKind, FaultCause>> = {
  timeout: "deadline_exceeded",
  crash: "crashed",
  exit: "crashed",
  cancelled: "crashed",
  garbage: "invalid_answer",
  spawn: "unavailable",
};

function contextMessages(plugin: string, merged: Merged) {
  return merged.contexts.map((context) => pluginMessage(plugin, context.text));
}

const who = hooksOf;

/**
 * The reason a refusal without one gets, unless the agent's own wording is passed (the
 * CommandHooks' blockedWithoutReason): what the model reads never names hookd's hooks or plugins.
 */
export const BLOCKED_BY_HOOK = "Blocked by hook";

/** The decision for the point, before the failure policy. */
export function mapMerged<P extends CommandPoint>(point: P, plugin: string, event: EventOf<P>, merged: Merged, applyInput: ApplyInput = (_args, input) => input, noReason: string = BLOCKED_BY_HOOK): PointAnswer<P> {
  const stopReason = merged.stop === undefined ? undefined : (merged.stop.reason ?? noReason);
  const contexts = contextMessages(plugin, merged);
  const table: { [K in CommandPoint]: (event: EventOf<K>) => PointAnswer<K> } = {
    rewrite: (rewrite) => {
      const input = merged.updatedInput?.input;
      // The pre-tool listener answers a stop or a deny from the same run; a rewrite never refuses.
      return isObject(input) ? replace(applyInput(rewrite.call.arguments as JsonObject, input)) : PASS;
    },
    "pre-tool": () => {
      if (stopReason !== undefined) return deny(stopReason);
      const permission = merged.permission;
      if (permission === undefined) return PASS;
      switch (permission.decision) {
        case "deny":
          return deny(permission.reason ?? noReason);
        case "ask":
          return ask(permission.reason ?? `${who(plugin, permission.by)} asks for approval`);
        case "allow":
          return allow();
      }
    },
    approval: () => {
      if (stopReason !== undefined) return reject(stopReason);
      const verdict = merged.approval;
      if (verdict === undefined) return PASS;
      return verdict.decision === "deny" ? reject(verdict.reason ?? noReason) : approve();
    },
    "pre-step": (preStep) => {
      if (stopReason !== undefined) return reject(stopReason);
      if (merged.block !== undefined) return reject(merged.block.reason ?? noReason);
      return contexts.length === 0 ? PASS : enter([...preStep.messages, ...contexts]);
    },
    "post-tool": () => {
      const feedback = stopReason ?? merged.block?.reason;
      if (feedback !== undefined) return contexts.length === 0 ? block(feedback) : block(feedback, contexts);
      // A hook's updatedToolOutput replaces what the model sees (a redaction, a summary).
      const output = merged.updatedOutput?.output;
      if (output !== undefined) return accept(contexts.length === 0 ? { value: output } : { value: output, additionalContexts: contexts });
      return contexts.length === 0 ? PASS : accept({ additionalContexts: contexts });
    },
    "turn-stopping": () => {
      // continue:false means "stop now": it wins over any hook asking to go on (and is sent on as the stop request).
      if (merged.stop !== undefined || merged.block === undefined) return PASS;
      return steer([pluginMessage(plugin, merged.block.reason ?? noReason)]);
    },
    "session-start": () => (contexts.length === 0 ? PASS : inject(contexts)),
    "session-end": () => PASS,
    "turn-end": () => PASS,
  };
  const answer = (table[point] as (event: EventOf<P>) => PointAnswer<P>)(event);
  return NOTICE_POINTS.has(point) ? withNotice(answer, noticeOfHooks(merged, stopReason)) : answer;
}

/** The points whose answers carry a message for the user and a stop request (the observers' do not). */
const NOTICE_POINTS: ReadonlySet<CommandPoint> = new Set(["session-start", "pre-step", "pre-tool", "approval", "post-tool", "turn-stopping"]);

/** The hooks' systemMessages (in file order) for the user, and their `continue: false` as the stop request it is. */
function noticeOfHooks(merged: Merged, stopReason: string | undefined): UserNotice {
  const message = merged.systemMessages.join(USER_MESSAGE_SEPARATOR);
  return { ...(message === "" ? {} : { userMessage: message }), ...(stopReason === undefined ? {} : { stopAgent: { reason: stopReason } }) };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuses(answer: { readonly kind?: string }): boolean {
  return answer.kind === "deny" || answer.kind === "reject" || answer.kind === "block";
}

/**
 * The decision with the failure policy applied; a hook's failure is always a fault with its cause
 * (so the audit and the trace show it), except where the other hooks' answer must stand. Under
 * fail-open the engine then passes, as the agents proceed; an answer the other hooks gave (a
 * deny, a context) stands instead, and the failure is in the report and the log. Under
 * fail-closed an answer that already refuses stands (its reason is the more useful one);
 * anything else becomes the fault, which the point's failure policy turns into a refusal.
 */
export function decide<P extends CommandPoint>(point: P, plugin: string, event: EventOf<P>, merged: Merged, policy: FailurePolicy, applyInput?: ApplyInput, noReason?: string): Decided<P> {
  const answer = mapMerged(point, plugin, event, merged, applyInput, noReason);
  const [first] = merged.errors;
  if (first?.error === undefined || refuses(answer)) return { type: "answer", answer };
  if (policy === "fail-open" && answer.kind !== "pass") return { type: "answer", answer };
  const detail = merged.errors.map((result) => `${result.hook}: ${result.error?.message ?? "failed"}`).join("; ");
  return { type: "fault", cause: CAUSE[first.error.kind], detail };
}
