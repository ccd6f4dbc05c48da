// The agent client's public surface: connect to hookd, run a hosted session, make evaluate calls.
// Re-exported from "@hookd/sdk"; everything else under agent/ is internal.
export { connectHost, type HostClient } from "./connect.js";
export type { Evaluator } from "./evaluate.js";
export type { EvaluateRetryOptions } from "./evaluate-retry.js";
export { toolSuccess, toolFailure } from "./results.js";
export { StatusError, statusName, type StatusCode } from "../grpc/status.js";
export type {
  AgentHandlers,
  AgentTool,
  ApprovalAnswer,
  ApprovalInput,
  ConnectOptions,
  EvaluateOptions,
  FinalizeAnswer,
  FinalizeInput,
  HostedSession,
  CloseReason,
  OpenSessionOptions,
  PromptContent,
  ReconnectOptions,
  ProposedToolCall,
  SessionEvent,
  SessionOpenedInfo,
  SessionProblem,
  StepInput,
  StepOutput,
  TurnEnd,
  TurnEndReason,
} from "./types.js";
