// The unary Evaluate* calls for agents that keep their own loop: a typed event goes out through the
// SDK's event codecs, the merged decision and its trace come back typed. One invoker for all six;
// a request that cannot be built or an answer that cannot be used rejects as a StatusError.
import { status } from "@grpc/grpc-js";
import { Problem } from "../convert/result.js";
import type { Result } from "../convert/result.js";
import { eventCodec } from "../convert/events.js";
import { decisionCodec } from "../convert/decisions.js";
import { readMessages, readToolResult } from "../convert/values.js";
import { accept, allow, enter } from "../decisions.js";
import type * as ev from "../events.js";
import type { CallOptions, TypedClient } from "../grpc/client.js";
import { StatusError, toStatusError } from "../grpc/status.js";
import { deepFreeze } from "../json.js";
import type * as pb from "../proto.js";
import { readTrace } from "./frames.js";
import { messageOf } from "./results.js";
import type {
  EvaluateOptions,
  EvaluatePreToolOptions,
  PostToolEvaluation,
  PreStepEvaluation,
  PreToolEvaluation,
  SessionStartEvaluation,
  TurnStoppingEvaluation,
} from "./types.js";

export interface Evaluator {
  evaluateSessionStart(event: ev.SessionStartEvent, options?: EvaluateOptions): Promise<SessionStartEvaluation>;
  /** A `pass` from the daemon (which it should never send) reads as the default: enter the claimed batch. */
  evaluatePreStep(event: ev.PreStepEvent, options?: EvaluateOptions): Promise<PreStepEvaluation>;
  /** A `pass` reads as the default, allow. */
  evaluatePreTool(event: ev.PreToolEvent, options?: EvaluatePreToolOptions): Promise<PreToolEvaluation>;
  /** A `pass` reads as the default, accept unchanged. */
  evaluatePostTool(event: ev.PostToolEvent, options?: EvaluateOptions): Promise<PostToolEvaluation>;
  evaluateToolResult(event: ev.ToolResultEvent, options?: EvaluateOptions): Promise<void>;
  evaluateTurnStopping(event: ev.TurnStoppingEvent, options?: EvaluateOptions): Promise<TurnStoppingEvaluation>;
}

type HostStub = TypedClient<typeof pb.HookHost>;

/** `assertOpen` throws (a StatusError) once the client is closed. */
export function evaluator(stub: HostStub, metadata: Readonly<Record<string, string>>, assertOpen: () => void): Evaluator {
  /** `send` builds the request and calls; `read` turns the answer into typed form, throwing what it cannot use. */
  async function invoke<R, T>(rpc: string, options: EvaluateOptions, send: (call: CallOptions) => Promise<R>, read: (response: R) => T): Promise<T> {
    let response: R;
    try {
      assertOpen();
      response = await send({ metadata, signal: options.signal, timeoutMs: options.timeoutMs });
    } catch (error) {
      throw toStatusError(error); // a typed event the codecs refuse is INVALID_ARGUMENT
    }
    try {
      return deepFreeze(read(response));
    } catch (error) {
      throw new StatusError(status.INTERNAL, `${rpc}: the daemon's answer is unusable: ${messageOf(error)}`, { cause: error });
    }
  }

  return {
    evaluateSessionStart: (event, options = {}) =>
      invoke(
        "EvaluateSessionStart",
        options,
        (call) => stub.evaluateSessionStart({ event: eventCodec["session-start"].toProto(event) }, call),
        (response) => ({ contexts: readMessages(response.contexts, "response.contexts") }),
      ),
    evaluatePreStep: (event, options = {}) =>
      invoke(
        "EvaluatePreStep",
        options,
        (call) => stub.evaluatePreStep({ event: eventCodec["pre-step"].toProto(event) }, call),
        (response) => {
          const decision = need(response.decision, (d) => decisionCodec["pre-step"].fromProto(d, "response.decision"));
          return { decision: decision.kind === "pass" ? enter(event.messages) : decision, trace: readTrace(response.trace, "response.trace") };
        },
      ),
    evaluatePreTool: (event, options = {}) =>
      invoke(
        "EvaluatePreTool",
        options,
        (call) => stub.evaluatePreTool({ event: eventCodec["pre-tool"].toProto(event), agentResolvesAsk: options.agentResolvesAsk === true }, call),
        (response) => {
          const decision = need(response.decision, (d) => decisionCodec["pre-tool"].fromProto(d, "response.decision"));
          return { decision: decision.kind === "pass" ? allow() : decision, trace: readTrace(response.trace, "response.trace") };
        },
      ),
    evaluatePostTool: (event, options = {}) =>
      invoke(
        "EvaluatePostTool",
        options,
        (call) => stub.evaluatePostTool({ event: eventCodec["post-tool"].toProto(event) }, call),
        (response) => {
          const decision = need(response.decision, (d) => decisionCodec["post-tool"].fromProto(d, "response.decision"));
          return {
            decision: decision.kind === "pass" ? accept() : decision,
            result: readToolResult(response.result, "response.result"),
            trace: readTrace(response.trace, "response.trace"),
          };
        },
      ),
    evaluateToolResult: (event, options = {}) =>
      invoke(
        "EvaluateToolResult",
        options,
        (call) => stub.evaluateToolResult({ event: eventCodec["tool-result"].toProto(event) }, call),
        () => undefined,
      ),
    evaluateTurnStopping: (event, options = {}) =>
      invoke(
        "EvaluateTurnStopping",
        options,
        (call) => stub.evaluateTurnStopping({ event: eventCodec["turn-stopping"].toProto(event) }, call),
        (response) => ({
          decision: need(response.decision, (d) => decisionCodec["turn-stopping"].fromProto(d, "response.decision")),
          capped: response.capped,
          trace: readTrace(response.trace, "response.trace"),
        }),
      ),
  };
}

/** The decision is required: a missing one, or one the codec refuses, is thrown. */
function need<M, T>(message: M | undefined, read: (message: M) => Result<T>): T {
  if (message === undefined) throw new Problem("response.decision", "missing");
  const result = read(message);
  if (!result.ok) throw result.error;
  return result.value;
}
