// The shape every point file fills in: one `PointSpec` states a point's whole rule (mode,
// tool scope, gate, budget, proto codecs, RPC methods, how untyped answers are read, the default
// and the fail-closed answer). Mechanisms (runners, validation, conversion, RPC tables) read these specs
// through the table in index.ts and never name a point themselves.
import type { DescMessage, Message, MessageInitShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Result } from "../convert/result.js";
import { decode } from "../convert/result.js";
import * as pb from "../proto.js";
import type { AgentMessage, DecisionTrace } from "../types.js";
import { fieldError } from "../errors.js";
import { hasNotice, noticeFromProto, noticeToProto, withNotice } from "../notice.js";

/**
 * How a point calls its plugins (the seed's kinds of authority):
 * - waterfall: outermost first, the first decision is final, `pass` hands on, all pass = default;
 * - guards: every guard in order until the first deny; a guard can never allow;
 * - around: wrappers around core dispatch, each may call `next()`;
 * - notification: every listener, concurrently; answers collected in listener order, failures contained;
 * - chain: every listener, one at a time in order, each seeing the event as the previous one's
 *   answer left it (`apply`); `pass` changes nothing; only a failure policy's refusal ends it early.
 */
export type PointMode = pb.PointModeName;

/** The types of one point, declared once in its file. */
export interface PointShape {
  readonly event: object;
  /** The point's own decisions, pass excluded (`never` when the point answers nothing). */
  readonly decision: unknown;
  /** What a handler's answer is once validated: a decision or pass. */
  readonly answer: unknown;
  /** The handler signature plugin authors implement. */
  readonly handler: unknown;
  readonly protoEvent: Message;
  /** The proto decision message; `never` when the point answers nothing. */
  readonly protoDecision: Message;
}

type Facts = typeof pb.POINT_FACTS;

/** The facts the proto declares for a point (the `(hookd.v1.point)` option), as fields of its spec. */
export interface ProtoFacts<N extends keyof Facts> {
  readonly name: N;
  readonly proto: Facts[N]["proto"];
  readonly mode: Facts[N]["mode"];
  readonly toolScoped: Facts[N]["match"] extends "tool_name" ? true : false;
  readonly gate: Facts[N]["gate"];
}

/** A point spec's proto-declared fields; spread first into the spec, so the table cannot restate them. */
export function protoFacts<N extends keyof Facts>(name: N): ProtoFacts<N> {
  const facts: Facts[keyof Facts] = pb.POINT_FACTS[name];
  return Object.freeze({ name, proto: facts.proto, mode: facts.mode, toolScoped: facts.match === "tool_name", gate: facts.gate }) as ProtoFacts<N>;
}

/** The HookPlugin RPC that serves a point, by its local name. */
export type PluginMethod = Exclude<keyof typeof pb.HookPlugin.method, "describe">;
/** The HookHost evaluate RPC of a point, by its local name. */
export type EvaluateMethod = Exclude<keyof typeof pb.HookHost.method, "session">;

export interface EventCodec<T extends PointShape> {
  readonly schema: DescMessage & { readonly typeName: string };
  toProto(event: T["event"]): T["protoEvent"];
  /** Total: a missing session/call/result, bad JSON or an unspecified enum is an `invalid_argument` error. */
  fromProto(message: T["protoEvent"], path?: string): Result<T["event"]>;
}

export interface DecisionCodec<T extends PointShape> {
  readonly schema: DescMessage;
  /** Trusts the typed form; throws HookdError only for what the types forbid (e.g. a non-JSON value). */
  toProto(decision: T["answer"]): T["protoDecision"];
  /** Total: unusable input is an `invalid_decision` (or `invalid_json`) error naming the proto field. */
  fromProto(message: T["protoDecision"], path?: string): Result<T["answer"]>;
}

/** The evaluate RPC of a point for agents that keep their own loop (client and daemon sides). */
export interface EvaluateSpec<Event, Options, Evaluation, M extends EvaluateMethod = EvaluateMethod> {
  readonly method: M;
  /** The request's fields besides `event` (client side). */
  requestFields(options: Options): Record<string, unknown>;
  /** The options those fields stand for (daemon side). */
  requestOptions(request: Message): Omit<Options, keyof EvaluateOptions>;
  /** Reads the typed evaluation from the response (client side); throws a field error naming the field. */
  readResponse(response: Message, event: Event): Evaluation;
  /** Builds the response from the typed evaluation (daemon side). */
  toResponse(evaluation: Evaluation): Record<string, unknown>;
}

/** The daemon's budgets (its config `defaults`) a point can run under, by their config names. */
export type BudgetName = "pointBudgetMs" | "sessionEndBudgetMs";
/** The daemon's budgets in milliseconds, as one value a point's `budget` indexes; absent: unbudgeted. */
export type Budgets = { readonly [B in BudgetName]?: number };

/**
 * The budget bounding all of a point's plugins together. `stretches`: while the config leaves
 * the budget to its default, a listener's own need (a command hook's timeout) stretches it.
 */
export interface PointBudget {
  readonly of: BudgetName;
  readonly stretches: boolean;
}

/** The point budget: most points run under it. */
export const POINT_BUDGET: PointBudget = Object.freeze({ of: "pointBudgetMs", stretches: true });
/** session-end's own budget: a daemon stop ends every open session under it, so nothing stretches it. */
export const SESSION_END_BUDGET: PointBudget = Object.freeze({ of: "sessionEndBudgetMs", stretches: false });

export interface PointSpec<N extends string = string, T extends PointShape = PointShape> {
  // name, proto, mode, toolScoped and gate come from the proto (`protoFacts`), never written here.
  readonly name: N;
  readonly mode: PointMode;
  /** The event concerns one tool call (it has a `call`): its matchers match the tool name. */
  readonly toolScoped: boolean;
  /**
   * The name a subscription's matchers are tested against (the tool name at tool points, the
   * event name at agent-event). Present exactly where the proto's `match` is not `none`.
   */
  matchKey?(event: T["event"]): string;
  /** A failing plugin refuses by default (fail-closed); otherwise it is passed over (fail-open). */
  readonly gate: boolean;
  readonly budget: PointBudget;
  /** Set on the point that fires once the session is over: what the daemon keeps of the session may go. */
  readonly endsSession?: true;
  readonly proto: pb.Point;
  readonly pluginMethod: PluginMethod;
  readonly event: EventCodec<T>;
  /** Absent for a point whose handlers answer nothing. */
  readonly decision: DecisionCodec<T> | undefined;
  /** The answers taken without the schema walk when given as an object holding only their `kind`. */
  readonly singletons: readonly { readonly kind: string }[];
  /** Reads an untyped answer (pass included); throws a field error naming the field. The copy is frozen by the caller. */
  readAnswer(input: unknown, path: string): T["answer"];
  /** The decision when nobody decides, for waterfalls and guards; undefined elsewhere. */
  fallback(event: T["event"]): T["decision"] | undefined;
  /** What a failing plugin stands for under fail-closed (notifications: pass, contained). */
  failClosed(reason: string, plugin: string): T["answer"];
  /**
   * Chain points only: the event the next listener sees once `plugin`'s decision is applied, or
   * undefined when it changed nothing. Total for decisions readAnswer accepted.
   */
  apply?(event: T["event"], decision: T["decision"], plugin: string): T["event"] | undefined;
  /** Where the point's answers carry messages; absent when they carry none. */
  readonly authorship?: Authorship<T>;
  /** Its answers may carry a message for the user and a stop request (notice.ts). */
  readonly notices?: true;
}

/**
 * The messages a point's answers contribute, for the daemon to source them: authorship is the
 * daemon's, so each is sourced to the answering plugin unless it is one the plugin was given
 * (by the event, or by next()) and handed back unchanged.
 */
export interface Authorship<T extends PointShape> {
  /** The messages of the event a plugin may hand back unchanged, keeping their source. */
  given(event: T["event"]): readonly AgentMessage[];
  /** The messages an answer contributes, in order (none for pass). */
  contributed(answer: T["answer"]): readonly AgentMessage[];
  /** The answer with its contributed messages replaced, in the same order. */
  replaced(answer: T["answer"], messages: readonly AgentMessage[]): T["answer"];
}

/** The proto form of a decision trace; failure_cause "" when no failure policy decided. */
export function toProtoTrace(trace: DecisionTrace): MessageInitShape<typeof pb.DecisionTraceSchema> {
  return { decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "", durationUs: BigInt(trace.durationUs) };
}

export function readTrace(message: pb.DecisionTrace | undefined, path: string): DecisionTrace {
  if (message === undefined) throw fieldError(path, "missing");
  return {
    decidedBy: message.decidedBy,
    ...(message.failureCause === "" ? {} : { failureCause: message.failureCause }),
    durationUs: Number(message.durationUs),
  };
}

/** An event codec from a point's field mapping. */
export function eventCodec<T extends PointShape, D extends DescMessage & { readonly typeName: string }>(
  schema: D,
  to: (event: T["event"]) => MessageInitShape<D>,
  read: (message: T["protoEvent"], path: string) => T["event"],
): EventCodec<T> {
  return {
    schema,
    toProto: (event) => create(schema, to(event)),
    fromProto: (message, path = "event") => decode("invalid_argument", path, () => read(message, path)),
  };
}

/** The set case of a decision message's `decision` oneof. */
export type SetOneof<M> = M extends { readonly decision: infer O } ? Exclude<O, { case: undefined }> : never;
/** The init form of a decision message's `decision` oneof. */
export type OneofInit<M extends Message> =
  MessageInitShape<GenMessage<M>> extends { decision?: infer O } ? NonNullable<O> : never;

/** A decision codec from a point's oneof mapping; an unset oneof is an error. */
export function decisionCodec<T extends PointShape>(
  schema: GenMessage<T["protoDecision"]>,
  to: (decision: T["answer"]) => OneofInit<T["protoDecision"]>,
  read: (oneof: SetOneof<T["protoDecision"]>, path: string) => T["answer"],
  /** The decision message has `user_message` and `stop_agent` (notice.ts). */
  notices = false,
): DecisionCodec<T> {
  return {
    schema,
    // The generic T hides the concrete init shape from the compiler; `to` is checked per point.
    toProto: (decision) => create(schema, { decision: to(decision), ...(notices ? noticeToProto(decision) : {}) } as unknown as MessageInitShape<GenMessage<T["protoDecision"]>>),
    fromProto: (message, path = "decision") =>
      decode("invalid_decision", path, () => {
        const oneof = (message as unknown as { decision: { case: string | undefined } }).decision;
        if (oneof.case === undefined) throw fieldError(path, "no decision set");
        const answer = read(oneof as SetOneof<T["protoDecision"]>, path);
        if (!notices) return answer;
        const notice = noticeFromProto(message as unknown as Parameters<typeof noticeFromProto>[0], path);
        return hasNotice(notice) ? withNotice(answer, notice) : answer;
      }),
  };
}

export const PASS_ONEOF = { case: "pass", value: {} } as const;

/** Options of every evaluate call (client side). */
export interface EvaluateOptions {
  /** Aborting cancels the call (CANCELLED). */
  readonly signal?: AbortSignal;
  /** A deadline relative to the start of the call (DEADLINE_EXCEEDED). */
  readonly timeoutMs?: number;
}

/** The decision required in an evaluate response: a missing one, or one the codec refuses, is thrown. */
export function needDecision<M, T>(message: M | undefined, read: (message: M) => Result<T>): T {
  if (message === undefined) throw fieldError("response.decision", "missing");
  const result = read(message);
  if (!result.ok) throw result.error;
  return result.value;
}
