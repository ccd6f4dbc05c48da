// approval: the waterfall resolving a pre-tool `ask`, before the agent's own approver. A plugin
// approves this one call (allowed-once), rejects it with a reason, or passes; when every plugin
// passes, the daemon asks the agent's approver (no answer in time denies). The guards still run
// after an approval. A failing plugin under fail-closed rejects, naming itself. Default: pass
// (the agent's approver decides).
import { z } from "zod";
import { unknownCase, unknownVariant } from "../convert/result.js";
import { readSessionInfo, readToolCall, toProtoSessionInfo, toProtoToolCall } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, WaterfallContext } from "../handler.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, kind, needsReason, readKind } from "../schema.js";
import type { DecisionTrace, SessionInfo, ToolCall } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, needDecision, protoFacts, readTrace, toProtoTrace } from "./define.js";
import type { RejectDecision } from "./pre-step.js";
import { reject } from "./pre-step.js";
import { callToolName } from "./tool-events.js";

export interface ApprovalEvent {
  readonly session: SessionInfo;
  /** The sealed call a pre-tool plugin asked about. */
  readonly call: ToolCall;
  /** The asking plugin's question. */
  readonly reason: string;
  /** The plugin that asked. */
  readonly askedBy: string;
}

/** Allow this one call (allowed-once); the guards still run. */
export interface ApproveDecision {
  readonly kind: "approve";
}
export type ApprovalDecision = ApproveDecision | RejectDecision;

const APPROVE: ApproveDecision = Object.freeze({ kind: "approve" });
export const approve = (): ApproveDecision => APPROVE;

export interface ApprovalEvaluation {
  /** approve or reject; pass when no plugin decided (the agent's own approver should be asked). */
  readonly decision: ApprovalDecision | Pass;
  readonly trace: DecisionTrace;
}

export interface ApprovalTypes {
  readonly event: ApprovalEvent;
  /**
   * What the point decides. Unlike other waterfalls its default is outside the plugins, so the
   * waterfall's outcome may be `pass`: "ask the agent's approver".
   */
  readonly decision: ApprovalDecision | Pass;
  readonly answer: ApprovalDecision | Pass;
  /** Waterfall resolving an ask: approve once, reject, or pass to the agent's approver. */
  readonly handler: (event: ApprovalEvent, ctx: WaterfallContext<ApprovalDecision | Pass>) => Awaitable<ApprovalDecision | Pass>;
  readonly protoEvent: pb.ApprovalEvent;
  readonly protoDecision: pb.ApprovalDecision;
}

const KINDS = {
  approve: z.strictObject({ kind: kind("approve") }),
  reject: z.strictObject({ kind: kind("reject"), reason: needsReason("a reject") }),
  pass: PASS_SCHEMA,
};

export const approvalPoint = {
  ...protoFacts("approval"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "approve",
  event: eventCodec<ApprovalTypes, typeof pb.ApprovalEventSchema>(
    pb.ApprovalEventSchema,
    (event) => ({ session: toProtoSessionInfo(event.session), call: toProtoToolCall(event.call), reason: event.reason, askedBy: event.askedBy }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      call: readToolCall(message.call, `${path}.call`),
      reason: message.reason,
      askedBy: message.askedBy,
    }),
  ),
  decision: decisionCodec<ApprovalTypes>(
    pb.ApprovalDecisionSchema,
    (d): OneofInit<pb.ApprovalDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "approve": return { case: "approve", value: {} };
        case "reject": return { case: "reject", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "approve": return approve();
        case "reject": return reject(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
    true,
  ),
  singletons: [pass(), APPROVE],
  readAnswer(input, path) {
    const data = readKind(KINDS, input, path);
    if (data.kind === "pass") return pass();
    if (data.kind === "approve") return approve();
    return data as RejectDecision;
  },
  // Nobody decided: the daemon goes on to the agent's approver.
  fallback: () => pass(),
  // A failing approver never approves: it rejects, and the reason names it.
  failClosed: (reason, plugin) => reject(reason.includes(plugin) ? reason : `${plugin}: ${reason}`),
  notices: true,
} as const satisfies PointSpec<"approval", ApprovalTypes>;

export const approvalEvaluate: EvaluateSpec<ApprovalEvent, EvaluateOptions, ApprovalEvaluation, "evaluateApproval"> = {
  method: "evaluateApproval",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse(message) {
    const response = message as pb.EvaluateApprovalResponse;
    const decision = needDecision(response.decision, (d) => approvalPoint.decision.fromProto(d, "response.decision"));
    return { decision, trace: readTrace(response.trace, "response.trace") };
  },
  toResponse: (evaluation) => ({ decision: approvalPoint.decision.toProto(evaluation.decision), trace: toProtoTrace(evaluation.trace) }),
};
