// The engine events of one hosted session as frames for its agent on the stream attached at the
// time (turn started and ended, tool results, appended contexts), with the trace of who decided
// each call attached to its result. Owns the frame shapes of events; requests and replies are
// hosted-session.ts's.
import type { create } from "@bufbuild/protobuf";
import { toProtoTrace, turnEndedReasons } from "@hookd/sdk";
import { toProtoMessage, toProtoToolCall, toProtoToolResult } from "@hookd/sdk/internal";
import type { pb } from "@hookd/sdk/internal";
import type { EngineEvent } from "../engine/events.js";

type SessionResponseInit = Parameters<typeof create<typeof pb.SessionResponseSchema>>[1];
type Frame = NonNullable<SessionResponseInit>["frame"];

/** Where frames for the agent go. `send` never throws; a closed stream drops frames. */
export interface AgentStream {
  send(frame: Frame): void;
}

export class SessionRelay {
  /** Turns engine events into frames for the agent. */
  relay(event: EngineEvent, stream: AgentStream | undefined): void {
    switch (event.type) {
      case "turn-started":
        stream?.send({ case: "turnStarted", value: { turn: event.scope.turn } });
        return;
      case "call-settled": {
        const { trace } = event;
        stream?.send({
          case: "toolResult",
          value: { call: toProtoToolCall(event.call), result: toProtoToolResult(event.result), ...(trace ? { trace: toProtoTrace(trace) } : {}) },
        });
        return;
      }
      case "contexts-appended":
        stream?.send({ case: "context", value: { messages: event.messages.map(toProtoMessage) } });
        return;
      case "turn-ended":
        stream?.send({
          case: "turnEnded",
          value: { turn: event.scope.turn, reason: turnEndedReasons.toProto(event.reason), detail: event.detail, steps: event.steps },
        });
        return;
      case "invocation":
      case "decision":
      case "shadow-decision":
      case "step-started":
        return; // not the agent's concern
    }
  }
}
