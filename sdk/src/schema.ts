// The zod schemas of the shared vocabulary (content blocks, messages, tool results) and the
// plumbing every point's answer reader uses: a field error names the offending field, `parse` turns
// zod's first issue into one, `check` makes a reader total. The per-point rules live in points/.
import { z } from "zod";
import type { ErrorCode } from "./errors.js";
import { HookdError, atBoundary, fieldError, hasCode, isFieldError } from "./errors.js";
import type { JsonObject } from "./json.js";
import { deepFreeze, isDeeplyFrozen, parseJson, snapshotJson } from "./json.js";
import type { AgentMessage, ToolResult } from "./types.js";

export const oneOf = (values: readonly string[]): string => `expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

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

export const contentBlock = tagged("type", ["text", "json", "image"], [
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
export const messages = z.array(message);

const RESULT_SCHEMA = z.discriminatedUnion(
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

// ---- decision building blocks ----------------------------------------------------------------

export const kind = <K extends string>(name: K) => z.literal(name);
export const needsReason = (what: string) => {
  const error = `${what} needs a non-empty reason`;
  return z.string({ error }).refine((reason) => reason.trim() !== "", { error });
};
export const PASS_SCHEMA = z.strictObject({ kind: kind("pass") });

/** Empty context lists are left out of the typed form. */
export const contexts = (list: AgentMessage[] | undefined) =>
  list === undefined || list.length === 0 ? {} : { additionalContexts: list };

/**
 * Reads an answer tagged by `kind`: picks the schema of its kind among `kinds` (in the order
 * error messages list them) and parses it. Returns the parsed copy; throws a field error.
 */
export function readKind(kinds: Readonly<Record<string, z.ZodType>>, input: unknown, path: string): { readonly kind: string } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw fieldError(path, `expected a decision object, got ${describe(input)}`);
  }
  const name = (input as { kind?: unknown }).kind;
  const schema = typeof name === "string" && Object.hasOwn(kinds, name) ? kinds[name] : undefined;
  if (schema === undefined) throw fieldError(`${path}.kind`, oneOf(Object.keys(kinds)));
  return parse(schema, input, path) as { kind: string };
}

// ---- tool results ----------------------------------------------------------------------------

export function readToolResult(input: unknown, path: string): ToolResult {
  if (typeof input !== "object" || input === null) throw fieldError(path, `expected an object, got ${describe(input)}`);
  const data = parse(RESULT_SCHEMA, input, path);
  if (data.isError) return data;
  if (!("value" in input)) throw fieldError(`${path}.value`, "required");
  const { content, contexts: ctx } = data;
  const value = snapshotJson(data.value, `${path}.value`).value;
  if (data.metadata === undefined) return { isError: false, value, content, contexts: ctx };
  const metadata = snapshotJson(data.metadata, `${path}.metadata`).value;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw fieldError(`${path}.metadata`, `expected a JSON object, got ${describe(metadata)}`);
  }
  return { isError: false, value, content, metadata: metadata as JsonObject, contexts: ctx };
}

// ---- plumbing --------------------------------------------------------------------------------

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HookdError };

/**
 * A valid input that is already deep-frozen is returned as is: nobody can change it, and a
 * handler handing on what `next()` gave it keeps its identity. Anything else comes back as a
 * frozen copy.
 */
export function check<T>(code: ErrorCode, input: unknown, read: () => T): Checked<T> {
  try {
    const value = read();
    if (typeof input === "object" && input !== null && isDeeplyFrozen(input)) return { ok: true, value: input as T };
    return { ok: true, value: deepFreeze(value) };
  } catch (error) {
    if (isFieldError(error)) return { ok: false, error: atBoundary(error, code) };
    if (hasCode(error, "invalid_json")) return { ok: false, error: new HookdError("invalid_json", error.message, { cause: error }) };
    // A throwing getter or proxy: still an answer we cannot use, never a crash.
    return { ok: false, error: HookdError.from(error, code) };
  }
}

/** Parses with zod; throws the first issue as `<path>.<field>: <message>`. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, path: string, message?: string): z.output<S> {
  const result = schema.safeParse(input, { error: defaultMessage });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw fieldError(path, "invalid");
  if (issue.code === "unrecognized_keys") throw fieldError(fieldPath(path, [...issue.path, issue.keys[0] ?? "?"]), "unknown field");
  const json = issue.code === "custom" && (issue.params as { json?: boolean } | undefined)?.json === true;
  throw fieldError(fieldPath(path, issue.path), message ?? issue.message, json ? "invalid_json" : "invalid_argument");
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

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}
