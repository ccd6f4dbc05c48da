// guard: the synchronous list after the whole gate waterfall before a call. Every guard runs in order until
// the first deny; a guard may deny or abstain, never allow, so ordering cannot resurrect a call a
// final invariant forbids. Default: abstain.
import { z } from "zod";
import { unknownCase, unknownVariant } from "../convert/result.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import * as pb from "../proto.js";
import { kind, readKind } from "../schema.js";
import type { OneofInit, PointSpec } from "./define.js";
import { POINT_BUDGET, decisionCodec, eventCodec, protoFacts } from "./define.js";
import type { DenyDecision } from "./deny.js";
import { DENY_SCHEMA, deny } from "./deny.js";
import type { ToolCallEvent } from "./tool-events.js";
import { callToolName, readCallEvent, toCallEvent } from "./tool-events.js";
import { fieldError } from "../errors.js";

export interface AbstainDecision {
  readonly kind: "abstain";
}
export type GuardDecision = AbstainDecision | DenyDecision;
export type GuardEvent = ToolCallEvent;

const ABSTAIN: AbstainDecision = Object.freeze({ kind: "abstain" });
export const abstain = (): AbstainDecision => ABSTAIN;

export interface GuardTypes {
  readonly event: GuardEvent;
  readonly decision: GuardDecision;
  /** A guard has no pass: it abstains. */
  readonly answer: GuardDecision;
  /** Guard after the whole gate waterfall: deny or abstain, never allow. */
  readonly handler: (event: GuardEvent, ctx: HandlerContext) => Awaitable<GuardDecision>;
  readonly protoEvent: pb.GuardEvent;
  readonly protoDecision: pb.GuardDecision;
}

const KINDS = { abstain: z.strictObject({ kind: kind("abstain") }), deny: DENY_SCHEMA };

export const guardPoint = {
  ...protoFacts("guard"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "guard",
  event: eventCodec<GuardTypes, typeof pb.GuardEventSchema>(pb.GuardEventSchema, toCallEvent, readCallEvent),
  decision: decisionCodec<GuardTypes>(
    pb.GuardDecisionSchema,
    (d): OneofInit<pb.GuardDecision> => {
      switch (d.kind) {
        case "abstain": return { case: "abstain", value: {} };
        case "deny": return { case: "deny", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "abstain": return abstain();
        case "deny": return deny(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
  ),
  singletons: [ABSTAIN],
  readAnswer(input, path) {
    if (typeof input === "object" && input !== null && (input as { kind?: unknown }).kind === "allow") {
      throw fieldError(`${path}.kind`, 'a guard can only deny or abstain, not "allow"');
    }
    const data = readKind(KINDS, input, path);
    return data.kind === "abstain" ? abstain() : (data as DenyDecision);
  },
  fallback: () => abstain(),
  failClosed: (reason) => deny(reason),
} as const satisfies PointSpec<"guard", GuardTypes>;
