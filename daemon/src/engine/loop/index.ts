// The session loop's public surface, for the gRPC host and the evaluate API. Everything else in
// this folder is internal to the loop.
export { EngineSession, type EngineSessionOptions, type InboxSource } from "./session.js";
export { decideTurnStop, settleTurnStop, type TurnStop, type TurnStopOptions } from "./stop.js";
export {
  DEFAULT_LIMITS,
  resolveLimits,
  type LoopLimits,
  type ModelStep,
  type ProposedCall,
  type StepInput,
  type StepReply,
  type ToolBatchContext,
  type ToolBatchOutcome,
  type ToolBatchRunner,
  type TurnOutcome,
} from "./types.js";
export type { MessageContent } from "./messages.js";
