// How a gate's `ask` is resolved: first the approval waterfall (plugins approve once, reject, or
// pass), then, when every plugin passed, the approval seam (the agent's own approver). Only
// allowed-once lets the call continue (guards still apply); a missing seam, a rejection, a
// cancellation, an unanswered request and an unavailable channel each become a denial with its
// own reason. Owns that mapping; knows nothing of the agent's UI.
import { unreachable } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";

export type ApprovalOutcome = "allowed-once" | "rejected" | "cancelled" | "timed-out" | "unavailable" | "no-approver";

export interface ApprovalRequest {
  readonly session: SessionInfo;
  readonly call: ToolCall;
  /** The asking plugin's question. */
  readonly reason: string;
  /** The plugin that asked. */
  readonly askedBy: string;
  /** The turn's cancellation. */
  readonly signal: AbortSignal;
}

/** An outcome, with the approver's optional explanation (recorded in the denial reason). */
export type ApprovalAnswer = ApprovalOutcome | { readonly outcome: ApprovalOutcome; readonly note?: string };

/** Asks whoever can approve (the agent's user). A throwing seam counts as unavailable. */
export type ApprovalSeam = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/** How an ask was resolved: "no-seam" when the session has no approval channel at all. */
export type ApprovalResolution =
  | { readonly outcome: "allowed-once" }
  | { readonly outcome: Exclude<ApprovalOutcome, "allowed-once"> | "no-seam"; readonly reason: string };

const OUTCOMES: ReadonlySet<string> = new Set<ApprovalOutcome>(["allowed-once", "rejected", "cancelled", "timed-out", "unavailable", "no-approver"]);

/** Asks the seam; never throws. */
export async function resolveApproval(seam: ApprovalSeam | undefined, request: ApprovalRequest): Promise<ApprovalResolution> {
  const asked = `${request.askedBy} asked: ${request.reason}`;
  if (seam === undefined) return { outcome: "no-seam", reason: `approval required but this session has no approval channel (${asked})` };
  let outcome: ApprovalOutcome;
  let note = "";
  try {
    const answer: unknown = await seam(Object.freeze({ ...request }));
    const read = readAnswer(answer);
    outcome = read.outcome;
    note = read.note;
  } catch {
    outcome = "unavailable";
  }
  const because = note === "" ? "" : `: ${note}`;
  switch (outcome) {
    case "allowed-once":
      return { outcome };
    case "rejected":
      return { outcome, reason: `approval rejected${because} (${asked})` };
    case "cancelled":
      return { outcome, reason: `approval cancelled before an answer${because} (${asked})` };
    case "timed-out":
      return { outcome, reason: `no approval answer in time${because} (${asked})` };
    case "unavailable":
      return { outcome, reason: `approval channel unavailable${because} (${asked})` };
    case "no-approver":
      return { outcome, reason: `approval required but the agent has no approver (${asked})` };
    default:
      return unreachable(outcome, "approval outcome");
  }
}

function readAnswer(answer: unknown): { readonly outcome: ApprovalOutcome; readonly note: string } {
  const { outcome, note } = typeof answer === "object" && answer !== null ? (answer as { outcome?: unknown; note?: unknown }) : { outcome: answer, note: "" };
  if (typeof outcome !== "string" || !OUTCOMES.has(outcome)) return { outcome: "unavailable", note: "" };
  return { outcome: outcome as ApprovalOutcome, note: typeof note === "string" ? note : "" };
}
