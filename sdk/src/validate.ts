// Validation of decisions handed to the daemon by untyped code (JS plugins, worker results,
// wrapper-authored tool results). Total: every function answers a result whose error names the
// offending field; valid input comes back deep-frozen, as a copy that shares nothing with the
// caller's (or as is, when it was deep-frozen already). Owns the rules per point; the shapes
// themselves live in decisions.ts.
import { z } from "zod";
import type { DecisionPoint, TypedDecision } from "./convert/decisions.js";
import { isDecisionPoint } from "./convert/decisions.js";
import type { AcceptDecision, BlockDecision, Pass } from "./decisions.js";
import { abstain, allow, pass } from "./decisions.js";
import type { ErrorCode } from "./errors.js";
import { HookdError } from "./errors.js";
import type { JsonObject } from "./json.js";
import { JsonError, deepFreeze, isDeeplyFrozen, parseJson, snapshotJson } from "./json.js";
import type { AgentMessage, PointName, ToolResult } from "./types.js";

/** What a handler at point P may answer: its decision or pass (tool-result observers answer nothing). */
export type PointAnswer<P extends PointName> = P extends DecisionPoint ? TypedDecision<P> : Pass;

export type DecisionCheck<P extends PointName> =
  | { readonly ok: true; readonly decision: PointAnswer<P> }
  | { readonly ok: false; readonly error: HookdError };

export type ToolResultCheck = { readonly ok: true; readonly result: ToolResult } | { readonly ok: false; readonly error: HookdError };

// ---- messages and content ------------------------------------------------------------------

const oneOf = (values: readonly string[]): string => `expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

/** A discriminated union whose unknown tag is named as such; a non-object falls to the default message. */
function tagged<T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(tag: string, tags: readonly string[], options: T) {
  return z.discriminatedUnion(tag, options, { error: (issue) => (issue.code === "invalid_union" ? oneOf(tags) : undefined) });
}

const jsonText = z.string().superRefine((text, ctx) => {
  try {
    parseJson(text);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `not valid JSON (${(error as Error).message})`, params: { json: true } });
  }
});

const contentBlock = tagged("type", ["text", "json", "image"], [
  z.strictObject({ type: z.literal("text"), text: z.string() }),
  z.strictObject({ type: z.literal("json"), json: jsonText }),
  z.strictObject({ type: z.literal("image"), uri: z.string(), mediaType: z.string() }),
]);

const messageSource = tagged("kind", ["user", "plugin", "tool", "model"], [
  z.strictObject({ kind: z.literal("user") }),
  z.strictObject({ kind: z.literal("plugin"), name: z.string() }),
  z.strictObject({ kind: z.literal("tool"), callId: z.string() }),
  z.strictObject({ kind: z.literal("model") }),
]);

const message = z.strictObject({
  id: z.string(),
  role: z.enum(["user", "assistant"], { error: oneOf(["user", "assistant"]) }),
  content: z.array(contentBlock).min(1, { error: "a message needs at least one content block" }),
  source: messageSource,
});
const messages = z.array(message);

// ---- tool results --------------------------------------------------------------------------

const toolResult = z.discriminatedUnion(
  "isError",
  [
    // `value` and `metadata` are checked as JSON after the shape (see readToolResult).
    z.strictObject({
      isError: z.literal(false),
      value: z.unknown().optional(),
      content: z.array(contentBlock),
      metadata: z.unknown().optional(),
      contexts: messages,
    }),
    z.strictObject({
      isError: z.literal(true),
      message: z.string(),
      code: z.string(),
      name: z.string(),
      content: z.array(contentBlock),
      contexts: messages,
    }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? "expected true or false" : undefined) },
);

// ---- decisions -----------------------------------------------------------------------------

const kind = <K extends string>(name: K) => z.literal(name);
const needsReason = (what: string) => {
  const error = `${what} needs a non-empty reason`;
  return z.string({ error }).refine((reason) => reason.trim() !== "", { error });
};

const PASS = z.strictObject({ kind: kind("pass") });
const DENY = z.strictObject({ kind: kind("deny"), reason: needsReason("a deny") });
const ACCEPT = z.strictObject({
  kind: kind("accept"),
  content: z.array(contentBlock).optional(),
  value: z.unknown().optional(),
  additionalContexts: messages.optional(),
});
const BLOCK = z.strictObject({ kind: kind("block"), feedback: z.string(), additionalContexts: messages.optional() });

/** The kinds each point accepts, in the order error messages list them. */
const KINDS: { readonly [P in Exclude<PointName, "tool-result" | "execute">]: Readonly<Record<string, z.ZodType>> } = {
  "session-start": { inject: z.strictObject({ kind: kind("inject"), messages }), pass: PASS },
  "pre-step": {
    enter: z.strictObject({ kind: kind("enter"), messages }),
    reject: z.strictObject({ kind: kind("reject"), reason: needsReason("a reject") }),
    pass: PASS,
  },
  "pre-tool": {
    allow: z.strictObject({ kind: kind("allow") }),
    deny: DENY,
    ask: z.strictObject({ kind: kind("ask"), reason: needsReason("an ask") }),
    pass: PASS,
  },
  guard: { abstain: z.strictObject({ kind: kind("abstain") }), deny: DENY },
  "post-tool": { accept: ACCEPT, block: BLOCK, pass: PASS },
  "turn-stopping": {
    steer: z.strictObject({ kind: kind("steer"), messages: messages.min(1, { error: "a steer needs at least one message" }) }),
    pass: PASS,
  },
};

/** Notifications may answer nothing at all. */
const MAY_BE_UNDEFINED: ReadonlySet<PointName> = new Set(["session-start", "turn-stopping"]);

/**
 * Validates what a handler at `point` answered. Never throws. Notifications (session-start,
 * turn-stopping) take `undefined` as pass; a tool-result observer's answer is ignored (pass).
 */
export function validateDecision<P extends PointName>(point: P, input: unknown): DecisionCheck<P> {
  if (point === "tool-result") return { ok: true, decision: pass() as PointAnswer<P> };
  const bare = bareAnswer(point, input);
  if (bare !== undefined) return { ok: true, decision: bare as PointAnswer<P> };
  const checked = check("invalid_decision", input, () => readDecision(point, input));
  return checked.ok ? { ok: true, decision: checked.value as PointAnswer<P> } : checked;
}

/** Validates a tool result authored by untyped code (an execute wrapper, a worker). Never throws. */
export function validateToolResult(input: unknown, path = "result"): ToolResultCheck {
  const checked = check("invalid_argument", input, () => readToolResult(input, path));
  return checked.ok ? { ok: true, result: checked.value } : checked;
}

const PASS_ANSWER = pass();
const ALLOW_ANSWER = allow();
const ABSTAIN_ANSWER = abstain();

/** The constructors' frozen singletons (pass, allow, abstain): the commonest answers. */
export const SINGLETON_ANSWERS: ReadonlySet<unknown> = new Set([PASS_ANSWER, ALLOW_ANSWER, ABSTAIN_ANSWER]);

/**
 * The commonest answers without the schema walk (~7 us of CPU per call inside the daemon):
 * pass (any point but guard), allow (pre-tool) and abstain (guard), given as the constructors'
 * singleton or as a plain object holding only their `kind`, which is what a plugin with its own
 * copy of the SDK, a literal, or a worker's structured clone gives. Returns the singleton, as
 * the schema path does; undefined for anything else, which the schema then judges.
 */
function bareAnswer(point: PointName, input: unknown): unknown {
  if (typeof input !== "object" || input === null) return undefined;
  try {
    const kind: unknown = (input as { kind?: unknown }).kind;
    const answer =
      kind === "pass" && point !== "guard"
        ? PASS_ANSWER
        : kind === "allow" && point === "pre-tool"
          ? ALLOW_ANSWER
          : kind === "abstain" && point === "guard"
            ? ABSTAIN_ANSWER
            : undefined;
    if (answer === undefined || input === answer) return answer;
    // What the strict schema would accept, without it: a plain object whose only own key is `kind`.
    return Object.getPrototypeOf(input) === Object.prototype && Object.hasOwn(input, "kind") && Object.keys(input).length === 1 ? answer : undefined;
  } catch {
    return undefined; // a throwing getter or a proxy's trap: the schema path reports it
  }
}

function readDecision(point: PointName, input: unknown): unknown {
  const path = "decision";
  if (!isDecisionPoint(point)) {
    throw new Invalid("point", `unknown point ${JSON.stringify(point)}`);
  }
  if (input === undefined && MAY_BE_UNDEFINED.has(point)) return pass();
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new Invalid(path, `expected ${point === "execute" ? "a tool result or pass" : "a decision object"}, got ${describe(input)}`);
  }
  if (point === "execute") {
    if (!("kind" in input)) return readToolResult(input, path);
    parse(PASS, input, path, 'expected "pass" (a tool result has no kind)');
    return pass();
  }
  const kinds = KINDS[point];
  const name = (input as { kind?: unknown }).kind;
  const schema = typeof name === "string" && Object.hasOwn(kinds, name) ? kinds[name] : undefined;
  if (schema === undefined) {
    if (point === "guard" && name === "allow") throw new Invalid(`${path}.kind`, 'a guard can only deny or abstain, not "allow"');
    throw new Invalid(`${path}.kind`, oneOf(Object.keys(kinds)));
  }
  if (name === "accept" && "value" in input && (input as { content?: unknown }).content !== undefined) {
    throw new Invalid(path, "accept cannot replace both content and value");
  }
  const data = parse(schema, input, path) as { kind: string };
  switch (data.kind) {
    case "pass":
      return pass();
    case "allow":
      return allow();
    case "abstain":
      return abstain();
    case "accept":
      return readAccept(data as z.infer<typeof ACCEPT>, input, path);
    case "block": {
      const { feedback, additionalContexts } = data as z.infer<typeof BLOCK>;
      return { kind: "block", feedback, ...contexts(additionalContexts) } satisfies BlockDecision;
    }
    default:
      return data; // a fresh copy made by zod: deny, ask, reject, enter, inject, steer
  }
}

/** `value` present with any value, `undefined` included, replaces the canonical value and must be JSON. */
function readAccept(data: z.infer<typeof ACCEPT>, input: object, path: string): AcceptDecision {
  const extra = contexts(data.additionalContexts);
  if ("value" in input) return { kind: "accept", value: snapshotJson(data.value, `${path}.value`).value, ...extra };
  if (data.content !== undefined) return { kind: "accept", content: data.content, ...extra };
  return { kind: "accept", ...extra };
}

function readToolResult(input: unknown, path: string): ToolResult {
  if (typeof input !== "object" || input === null) throw new Invalid(path, `expected an object, got ${describe(input)}`);
  const data = parse(toolResult, input, path);
  if (data.isError) return data;
  if (!("value" in input)) throw new Invalid(`${path}.value`, "required");
  const { content, contexts: ctx } = data;
  const value = snapshotJson(data.value, `${path}.value`).value;
  if (data.metadata === undefined) return { isError: false, value, content, contexts: ctx };
  const metadata = snapshotJson(data.metadata, `${path}.metadata`).value;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw new Invalid(`${path}.metadata`, `expected a JSON object, got ${describe(metadata)}`);
  }
  return { isError: false, value, content, metadata: metadata as JsonObject, contexts: ctx };
}

const contexts = (list: AgentMessage[] | undefined) =>
  list === undefined || list.length === 0 ? {} : { additionalContexts: list };

// ---- plumbing ------------------------------------------------------------------------------

/** What the readers throw; `check` turns it into the error result. */
class Invalid extends Error {
  constructor(
    path: string,
    detail: string,
    readonly code?: ErrorCode,
  ) {
    super(`${path}: ${detail}`);
  }
}

type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HookdError };

/**
 * A valid input that is already deep-frozen is returned as is: nobody can change it, and a
 * handler handing on what `next()` gave it keeps its identity. Anything else comes back as a
 * frozen copy.
 */
function check<T>(code: ErrorCode, input: unknown, read: () => T): Checked<T> {
  try {
    const value = read();
    if (typeof input === "object" && input !== null && isDeeplyFrozen(input)) return { ok: true, value: input as T };
    return { ok: true, value: deepFreeze(value) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: new HookdError(error.code ?? code, error.message) };
    if (error instanceof JsonError) return { ok: false, error: new HookdError("invalid_json", error.message, { cause: error }) };
    // A throwing getter or proxy: still an answer we cannot use, never a crash.
    return { ok: false, error: HookdError.from(error, code) };
  }
}


/** Parses with zod; throws the first issue as `<path>.<field>: <message>`. */
function parse<S extends z.ZodType>(schema: S, input: unknown, path: string, message?: string): z.output<S> {
  const result = schema.safeParse(input, { error: defaultMessage });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new Invalid(path, "invalid");
  if (issue.code === "unrecognized_keys") throw new Invalid(fieldPath(path, [...issue.path, issue.keys[0] ?? "?"]), "unknown field");
  const json = issue.code === "custom" && (issue.params as { json?: boolean } | undefined)?.json === true;
  throw new Invalid(fieldPath(path, issue.path), message ?? issue.message, json ? "invalid_json" : undefined);
}

/** Our wording for zod's built-in issues; a schema's own `error` takes precedence over this. */
function defaultMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "required" : `expected ${article(issue.expected)}, got ${describe(issue.input)}`;
    case "invalid_value":
      return issue.values.length === 1 ? `expected ${JSON.stringify(issue.values[0])}` : oneOf(issue.values.map(String));
    default:
      return undefined;
  }
}

function fieldPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`), root);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}
