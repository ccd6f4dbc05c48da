// How a turn ended has one vocabulary, the turn-end point's outcomes: the agent SDK reads the
// session stream's turn_ended frame into it, and each outcome maps to both released proto enums
// (the point's TurnEndOutcome, the stream's TurnEndReason) and back.
import { create } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import { readTurnEnded } from "../src/agent/frames.js";
import { fromProtoEvent, toProtoEvent } from "../src/convert.js";
import { events, turnEndedReasons } from "../src/index.js";
import type { TurnEndOutcome } from "../src/index.js";
import * as pb from "../src/proto.js";

const OUTCOMES: readonly TurnEndOutcome[] = ["completed", "blocked", "continuation_cap", "cancelled", "error"];

describe("the turn-end vocabulary", () => {
  test("a cancelled turn reads as the turn-end point's `cancelled` on the session stream (released as ABORTED)", () => {
    const ended = readTurnEnded(create(pb.TurnEndedSchema, { turn: 1, reason: pb.TurnEndReason.ABORTED, detail: "user pressed escape" }));
    expect(ended).toEqual({ end: { turn: 1, reason: "cancelled", detail: "user pressed escape", steps: 0 } });
  });

  test("every outcome goes through the stream's enum and the point's event and comes back the same", () => {
    for (const outcome of OUTCOMES) {
      const reason = turnEndedReasons.toProto(outcome);
      expect(readTurnEnded(create(pb.TurnEndedSchema, { turn: 1, reason })).end.reason).toBe(outcome);
      const event = fromProtoEvent("turn-end", toProtoEvent("turn-end", events.turnEnd({ outcome })));
      expect(event.ok && event.value.outcome).toBe(outcome);
    }
    expect(new Set(OUTCOMES.map((outcome) => turnEndedReasons.toProto(outcome))).size).toBe(OUTCOMES.length);
  });

  test("an unspecified reason still ends the turn, as an error that names the field", () => {
    expect(readTurnEnded(create(pb.TurnEndedSchema, { turn: 2 }))).toEqual({
      end: { turn: 2, reason: "error", detail: "turn_ended.reason: unspecified", steps: 0 },
      problem: "turn_ended.reason: unspecified",
    });
  });
});
