// agent-event: the one observe-only point for an agent's own hook events that no typed point
// carries (Claude Code's Notification or PreCompact, Codex's and Gemini CLI's others): the
// dialect, the agent's event name and its payload as lossless JSON. Plugins subscribe by event
// name (the subscription's matchers match `eventName`), answer nothing, and their failures are
// contained: such an event is observed, never blocked (docs/agent-events.md says why).
import { enumMap, readJson } from "../convert/result.js";
import { jsonText, readSessionInfo, toProtoSessionInfo } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import type { JsonValue } from "../json.js";
import * as pb from "../proto.js";
import type { SessionInfo } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, PointSpec } from "./define.js";
import { POINT_BUDGET, eventCodec, protoFacts } from "./define.js";
import { fieldError } from "../errors.js";

/**
 * The hook dialect of the agent that sent an event: a value of the proto's AgentDialect enum in
 * kebab case ("claude-code", "gemini"), so an agent added to the enum needs no change here.
 */
export type AgentDialect = string;

const dialectNames = Object.fromEntries(
  pb.AgentDialectSchema.values.filter((value) => value.number !== 0).map((value) => [value.localName.toLowerCase().replaceAll("_", "-"), value.number as pb.AgentDialect]),
) as Readonly<Record<string, pb.AgentDialect>>;

export const AGENT_DIALECTS: readonly AgentDialect[] = Object.freeze(Object.keys(dialectNames));

export interface AgentEventEvent {
  readonly session: SessionInfo;
  readonly dialect: AgentDialect;
  /** The agent's own event name, exactly as it sent it ("PreCompact", "Notification", ...). Non-empty. */
  readonly eventName: string;
  /** The agent's whole payload, parsed losslessly (integers keep every digit) and frozen. */
  readonly payload: JsonValue;
}

export interface AgentEventTypes {
  readonly event: AgentEventEvent;
  readonly decision: never;
  readonly answer: Pass;
  /** Observes one agent event; cannot change or block anything, failures are contained. */
  readonly handler: (event: AgentEventEvent, ctx: HandlerContext) => Awaitable<void>;
  readonly protoEvent: pb.AgentEventEvent;
  readonly protoDecision: never;
}

const dialects = enumMap<AgentDialect, pb.AgentDialect>(dialectNames);

export const agentEventPoint = {
  ...protoFacts("agent-event"),
  budget: POINT_BUDGET,
  pluginMethod: "agentEvent",
  // Subscriptions name the events they want, with the same whole-name globs tools use.
  matchKey: (event) => event.eventName,
  event: eventCodec<AgentEventTypes, typeof pb.AgentEventEventSchema>(
    pb.AgentEventEventSchema,
    (event) => ({
      session: toProtoSessionInfo(event.session),
      dialect: dialects.toProto(event.dialect),
      eventName: event.eventName,
      payloadJson: jsonText(event.payload, "event.payload"),
    }),
    (message, path) => {
      if (message.eventName === "") throw fieldError(`${path}.event_name`, "required");
      return {
        session: readSessionInfo(message.session, `${path}.session`),
        dialect: dialects.read(message.dialect, `${path}.dialect`),
        eventName: message.eventName,
        payload: readJson(message.payloadJson, `${path}.payload_json`).value,
      };
    },
  ),
  decision: undefined,
  singletons: [pass()],
  // Whatever an observer returns is ignored.
  readAnswer: () => pass(),
  fallback: () => undefined,
  failClosed: () => pass(),
} as const satisfies PointSpec<"agent-event", AgentEventTypes>;

export const agentEventEvaluate: EvaluateSpec<AgentEventEvent, EvaluateOptions, void, "evaluateAgentEvent"> = {
  method: "evaluateAgentEvent",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse: () => undefined,
  toResponse: () => ({}),
};
