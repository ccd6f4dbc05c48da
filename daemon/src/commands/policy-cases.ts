// The policy test file `hookd test` reads (YAML): what it tests (a config, or rule files and
// builtins as one rules plugin) and its cases, each an event (shorthand, hookd's proto JSON, or an
// agent's own hook JSON) with the decision, rule and reason it must get.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parseDocument } from "yaml";
import { z } from "zod";
import { AGENT_NAMES, agentDialect } from "../agents/registry.js";
import { eventError, readDialectEvent, readProtoEvent } from "./eval-input.js";
import type { EvalInput } from "./eval-input.js";

const json = z.json();

export const expectSchema = z.strictObject({
  /** The final decision: deny, ask, allow, block, reject, context, ... or pass when nothing decides. */
  decision: z.string().min(1),
  /** The id of the rule that must decide; "": no rule may decide; absent: not checked. */
  rule: z.string().optional(),
  /** A regular expression the reason must match. */
  reason: z.string().min(1).optional(),
});

export const caseSchema = z
  .strictObject({
    /** What the case shows, one line. */
    name: z.string().min(1),
    /** Shorthand: a call of this tool (pre-tool; with `output`, post-tool). */
    tool: z.string().min(1).optional(),
    /** Shorthand: the tool's arguments. */
    arguments: z.record(z.string(), json).optional(),
    /** Shorthand with `tool`: the tool's output text, making the case a post-tool event. */
    output: z.string().optional(),
    /** Shorthand: a user prompt, as the pre-step event of a step holding it. */
    prompt: z.string().optional(),
    /** Shorthand: the session's agent id (a dialect name picks that agent's tool kinds); default the file's session. */
    agent: z.string().min(1).optional(),
    /** Shorthand: the session's working directory; default the file's session. */
    cwd: z.string().optional(),
    /** hookd's proto JSON wrapped in its point: {"preTool": {...}}. */
    event: z.record(z.string(), json).optional(),
    /** With `payload`: the agent whose own hook JSON it is (claude-code, codex, gemini, ...). */
    dialect: z.string().min(1).optional(),
    /** An agent's own hook JSON (what it posts to the HTTP endpoint). */
    payload: z.record(z.string(), json).optional(),
    /** What the case must be decided. */
    expect: expectSchema,
  })
  .refine((c) => [c.tool !== undefined, c.prompt !== undefined, c.event !== undefined, c.payload !== undefined].filter(Boolean).length === 1, {
    message: "give exactly one of tool (with arguments), prompt, event or payload (with dialect)",
  })
  .refine((c) => (c.payload === undefined) === (c.dialect === undefined), { path: ["dialect"], message: "dialect goes with payload" });

export const policyTestSchema = z.strictObject({
  /** A config file whose plugins decide (relative to this file); `hookd test --config` overrides it. */
  config: z.string().min(1).optional(),
  /** Rule files tested as one rules plugin (relative to this file). */
  rules: z.array(z.string().min(1)).optional(),
  /** Builtins tested in that plugin (builtin:NAME). */
  include: z.array(z.string().min(1)).optional(),
  /** Parameter values for that plugin. */
  params: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  /** The session of the shorthand cases: agent id and working directory. */
  session: z.strictObject({ agent: z.string().min(1).optional(), cwd: z.string().optional() }).optional(),
  /** The cases, run in order. */
  cases: z.array(caseSchema).min(1),
});

export type PolicyCase = z.infer<typeof caseSchema>;
export type PolicyTestFile = z.infer<typeof policyTestSchema> & { readonly file: string };

/** Reads and validates a test file; paths in it resolve against its directory. Problems name the file and the key. */
export function readPolicyTests(file: string): PolicyTestFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw eventError(`${file}: cannot be read: ${(error as Error).message}`);
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw eventError(`${file}: ${doc.errors.map((e) => `line ${e.linePos?.[0].line ?? "?"}: ${e.message.split("\n")[0] ?? ""}`).join("; ")}`);
  const parsed = policyTestSchema.safeParse(doc.toJS());
  if (!parsed.success) throw eventError(`${file}: ${parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(file)"}: ${i.message}`).join("; ")}`);
  const abs = (path: string): string => (isAbsolute(path) ? path : resolve(dirname(file), path));
  const data = parsed.data;
  return {
    ...data,
    file,
    ...(data.config === undefined ? {} : { config: abs(data.config) }),
    ...(data.rules === undefined ? {} : { rules: data.rules.map(abs) }),
  };
}

/** The case's event as eval reads one: shorthands are built as hookd's proto JSON. */
export function caseInput(test: PolicyTestFile, testCase: PolicyCase, index: number): EvalInput {
  if (testCase.payload !== undefined) {
    const agent = agentDialect(testCase.dialect ?? "");
    if (agent === undefined) throw eventError(`${test.file}: cases[${index}].dialect: expected one of ${AGENT_NAMES.join(", ")}, got "${testCase.dialect ?? ""}"`);
    return readDialectEvent(JSON.stringify(testCase.payload), agent, testCase.agent ?? agent.name);
  }
  const sessionId = `test-${index + 1}`;
  const session = { sessionId, agentId: testCase.agent ?? test.session?.agent ?? "claude-code", cwd: testCase.cwd ?? test.session?.cwd ?? "" };
  if (testCase.event !== undefined) return readProtoEvent(JSON.stringify(testCase.event), undefined);
  if (testCase.prompt !== undefined) {
    const message = { id: "m1", role: "ROLE_USER", content: [{ text: testCase.prompt }], source: { user: {} } };
    return readProtoEvent(JSON.stringify({ preStep: { session, turn: 1, step: 1, messages: [message] } }), undefined);
  }
  const callId = `c-${index + 1}`;
  const call = { callId, rootCallId: callId, toolName: testCase.tool, argumentsJson: JSON.stringify(testCase.arguments ?? {}), sessionId, turn: 1, step: 1 };
  if (testCase.output === undefined) return readProtoEvent(JSON.stringify({ preTool: { session, call } }), undefined);
  const result = { success: { valueJson: JSON.stringify(testCase.output), content: [{ text: testCase.output }] } };
  return readProtoEvent(JSON.stringify({ postTool: { session, call, result } }), undefined);
}
