// The engine events of one hosted session as frames for its agent on the stream attached at the
// time (turn started and ended, tool results, appended contexts), with the trace of who decided
// each call attached to its result. Owns the frame shapes of events; requests and replies are
// hosted-session.ts's.
import type { create } from "@bufbuild/protobuf";
import { toProtoMessage, toProtoToolCall, toProtoToolResult } from "@hookd/sdk/internal";
import { pb } from "@hookd/sdk/internal";
import type { EngineEvent, TurnEndReason } from "../engine/events.js";

type SessionResponseInit = Parameters<typeof create<typeof pb.SessionResponseSchema>>[1];
type Frame = NonNullable<SessionResponseInit>["frame"];

/** Where frames for the agent go. `send` never throws; a closed stream drops frames. */
export interface AgentStream {
  send(frame: Frame): void;
}

const END_REASON: Record<TurnEndReason, pb.TurnEndReason> = {
  completed: pb.TurnEndReason.COMPLETED,
  blocked: pb.TurnEndReason.BLOCKED,
  error: pb.TurnEndReason.ERROR,
  aborted: pb.TurnEndReason.ABORTED,
  continuation_cap: pb.TurnEndReason.CONTINUATION_CAP,
};

interface CallTrace {
  decidedBy: string;
  failureCause: string;
  durationUs: number;
}

export class SessionRelay {
  /** Made on the first tool call: an idle session holds no map (bench/: sessions). */
  #traces: Map<string, CallTrace> | undefined;

  /** Turns engine events into frames for the agent; records who decided each call. */
  relay(event: EngineEvent, stream: AgentStream | undefined): void {
    switch (event.type) {
      case "decision": {
        const callId = event.scope.callId;
        if (callId === undefined || (event.point !== "pre-tool" && event.point !== "guard")) return;
        // A guard's deny overrides the pre-tool decision; an abstaining guard list does not.
        if (event.point === "guard" && event.decision !== "deny") return;
        (this.#traces ??= new Map()).set(callId, { decidedBy: event.decidedBy, failureCause: event.cause ?? "", durationUs: event.durationUs });
        return;
      }
      case "turn-started":
        stream?.send({ case: "turnStarted", value: { turn: event.scope.turn } });
        return;
      case "tool-result": {
        const trace = this.#traces?.get(event.call.callId);
        this.#traces?.delete(event.call.callId);
        stream?.send({
          case: "toolResult",
          value: {
            call: toProtoToolCall(event.call),
            result: toProtoToolResult(event.result),
            ...(trace ? { trace: { decidedBy: trace.decidedBy, failureCause: trace.failureCause, durationUs: BigInt(trace.durationUs) } } : {}),
          },
        });
        return;
      }
      case "contexts-appended":
        stream?.send({ case: "context", value: { messages: event.messages.map(toProtoMessage) } });
        return;
      case "turn-ended":
        this.#traces?.clear();
        stream?.send({
          case: "turnEnded",
          value: { turn: event.scope.turn, reason: END_REASON[event.reason], detail: event.detail, steps: event.steps },
        });
        return;
      default:
        return;
    }
  }
}
