// The typed Decisions: one small discriminated union per point, with constructors. In-process
// handlers, servePlugin handlers and the normalized answers of remote plugins all speak these.
// Owns the shapes and their constructors; validation of untyped input lives in validate.ts.
import type { JsonValue } from "./json.js";
import type { AgentMessage, ContentBlock } from "./types.js";

/** Defer to the next plugin (waterfalls) or contribute nothing (notifications). */
export interface Pass {
  readonly kind: "pass";
}

// session-start ------------------------------------------------------------------------------
export interface InjectDecision {
  readonly kind: "inject";
  readonly messages: readonly AgentMessage[];
}
export type SessionStartDecision = InjectDecision;

// pre-step -----------------------------------------------------------------------------------
export interface EnterDecision {
  readonly kind: "enter";
  /** The complete batch for the step. */
  readonly messages: readonly AgentMessage[];
}
export interface RejectDecision {
  readonly kind: "reject";
  readonly reason: string;
}
export type PreStepDecision = EnterDecision | RejectDecision;

// pre-tool -----------------------------------------------------------------------------------
export interface AllowDecision {
  readonly kind: "allow";
}
export interface DenyDecision {
  readonly kind: "deny";
  readonly reason: string;
}
export interface AskDecision {
  readonly kind: "ask";
  readonly reason: string;
}
export type PreToolDecision = AllowDecision | DenyDecision | AskDecision;

// guard --------------------------------------------------------------------------------------
export interface AbstainDecision {
  readonly kind: "abstain";
}
export type GuardDecision = AbstainDecision | DenyDecision;

// post-tool ----------------------------------------------------------------------------------
interface AcceptBase {
  readonly kind: "accept";
  readonly additionalContexts?: readonly AgentMessage[];
}
/** Accept unchanged. */
export interface AcceptUnchanged extends AcceptBase {
  readonly content?: never;
  readonly value?: never;
}
/** Replace only what the model sees; the canonical value is kept. */
export interface AcceptContent extends AcceptBase {
  readonly content: readonly ContentBlock[];
  readonly value?: never;
}
/** Replace the canonical value; it is revalidated and the presentation recomputed. */
export interface AcceptValue extends AcceptBase {
  readonly value: JsonValue;
  readonly content?: never;
}
export type AcceptDecision = AcceptUnchanged | AcceptContent | AcceptValue;
export interface BlockDecision {
  readonly kind: "block";
  /** Shown to the model verbatim; a fallback text is used when empty. */
  readonly feedback: string;
  readonly additionalContexts?: readonly AgentMessage[];
}
export type PostToolDecision = AcceptDecision | BlockDecision;

// turn-stopping ------------------------------------------------------------------------------
export interface SteerDecision {
  readonly kind: "steer";
  readonly messages: readonly AgentMessage[];
}
export type TurnStoppingDecision = SteerDecision;

// ---- constructors --------------------------------------------------------------------------

const PASS: Pass = Object.freeze({ kind: "pass" });
const ALLOW: AllowDecision = Object.freeze({ kind: "allow" });
const ABSTAIN: AbstainDecision = Object.freeze({ kind: "abstain" });

export const pass = (): Pass => PASS;
export const allow = (): AllowDecision => ALLOW;
export const deny = (reason: string): DenyDecision => ({ kind: "deny", reason });
export const ask = (reason: string): AskDecision => ({ kind: "ask", reason });
export const abstain = (): AbstainDecision => ABSTAIN;
export const enter = (messages: readonly AgentMessage[]): EnterDecision => ({ kind: "enter", messages });
export const reject = (reason: string): RejectDecision => ({ kind: "reject", reason });
export const inject = (messages: readonly AgentMessage[]): InjectDecision => ({ kind: "inject", messages });
export const steer = (messages: readonly AgentMessage[]): SteerDecision => ({ kind: "steer", messages });
export const block = (feedback: string, additionalContexts?: readonly AgentMessage[]): BlockDecision =>
  additionalContexts === undefined ? { kind: "block", feedback } : { kind: "block", feedback, additionalContexts };

type AcceptOptions =
  | { readonly content?: never; readonly value?: never; readonly additionalContexts?: readonly AgentMessage[] }
  | { readonly content: readonly ContentBlock[]; readonly value?: never; readonly additionalContexts?: readonly AgentMessage[] }
  | { readonly value: JsonValue; readonly content?: never; readonly additionalContexts?: readonly AgentMessage[] };

export function accept(options: AcceptOptions = {}): AcceptDecision {
  return { kind: "accept", ...options };
}

/** For exhaustive switches over decision unions. */
export function unreachable(value: never, what = "value"): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
