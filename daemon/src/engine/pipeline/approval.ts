// The approval seam: how a gate's `ask` is resolved. Only allowed-once lets the call continue
// (guards still apply); a missing seam, a rejection, a cancellation and an unavailable channel
// each become a denial with its own reason. Owns that mapping; knows nothing of the agent's UI.
import { unreachable } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";

export type ApprovalOutcome = "allowed-once" | "rejected" | "cancelled" | "timed-out" | "unavailable";

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

/** Asks whoever can approve (the agent's user). A throwing seam counts as unavailable. */
export type ApprovalSeam = (request: ApprovalRequest) => Promise<ApprovalOutcome>;

/** How an ask was resolved: "no-seam" when the session has no approval channel at all. */
export type ApprovalResolution =
  | { readonly outcome: "allowed-once" }
  | { readonly outcome: Exclude<ApprovalOutcome, "allowed-once"> | "no-seam"; readonly reason: string };

const OUTCOMES: ReadonlySet<string> = new Set<ApprovalOutcome>(["allowed-once", "rejected", "cancelled", "timed-out", "unavailable"]);

/** Resolves an ask; never throws. */
export async function resolveApproval(seam: ApprovalSeam | undefined, request: ApprovalRequest): Promise<ApprovalResolution> {
  const asked = `${request.askedBy} asked: ${request.reason}`;
  if (seam === undefined) return { outcome: "no-seam", reason: `approval required but this session has no approval channel (${asked})` };
  let outcome: ApprovalOutcome;
  try {
    const answer: unknown = await seam(Object.freeze({ ...request }));
    outcome = typeof answer === "string" && OUTCOMES.has(answer) ? (answer as ApprovalOutcome) : "unavailable";
  } catch {
    outcome = "unavailable";
  }
  switch (outcome) {
    case "allowed-once":
      return { outcome };
    case "rejected":
      return { outcome, reason: `approval rejected (${asked})` };
    case "cancelled":
      return { outcome, reason: `approval cancelled before an answer (${asked})` };
    case "timed-out":
      return { outcome, reason: `no approval answer in time (${asked})` };
    case "unavailable":
      return { outcome, reason: `approval channel unavailable (${asked})` };
    default:
      return unreachable(outcome, "approval outcome");
  }
}
