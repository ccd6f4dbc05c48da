// The tool pipeline's public surface for the loop, the host service and the evaluate API.
// Internal helpers (the gate, normalization details) stay behind their own modules.
export { runToolBatch, runToolCall } from "./pipeline.js";
export type { ToolPipelineOptions, ToolCallOutcome, ToolBatchOutcome } from "./pipeline.js";
export { sealCall } from "./seal.js";
export type { ProposedCall, CallScope, SealedCall } from "./seal.js";
export { decideToolPolicy, RETURN_ASK } from "./policy.js";
export { APPROVER_DECIDER } from "./ask.js";
export type { PolicyVerdict, PolicyPhase } from "./policy.js";
export { rewriteCall } from "./rewrite.js";
export type { RewriteVerdict } from "./rewrite.js";
export { reviewResult } from "./review.js";
export type { ReviewOutcome } from "./review.js";
export { finalizeResult } from "./finalize.js";
export { resolveApproval } from "./approval.js";
export type { ApprovalAnswer, ApprovalSeam, ApprovalRequest, ApprovalOutcome, ApprovalResolution } from "./approval.js";
export { presentValue, toolLookup, unknownTool } from "./spec.js";
export type { ToolSpec, ToolLookup, Dispatch, AwaitedFinalize } from "./spec.js";
export { FAILURE_CODES, type FailureCode } from "./normalize.js";
export { DEFAULT_MAX_CONCURRENCY } from "./gate.js";
