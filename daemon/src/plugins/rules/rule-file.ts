// The rule file format of `kind: rules` plugins (YAML, docs/rules.md) as a zod schema, and reading
// the files a plugin's `rules` globs name. Owns shape and file discovery; compiling the CEL and
// checking verbs against points is compile.ts's.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { HookdError } from "@hookd/sdk";
import { parseDocument } from "yaml";
import { z } from "zod";

/** Every verb a rule can decide; which point takes which is verbs.ts's. */
export const RULE_VERBS = ["allow", "deny", "ask", "patch", "block", "context", "reject", "steer", "approve"] as const;
export type RuleVerb = (typeof RULE_VERBS)[number];

export const ruleSchema = z.strictObject({
  /** The rule's name, unique across the plugin's files; decisions, audit records and traces name it. */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "letters, digits, '.', '_', ':' or '-'"),
  /** What the rule is for, for people reading the file. */
  description: z.string().optional(),
  /** The point the rule decides at (default pre-tool). */
  point: z.string().default("pre-tool"),
  /** Tool points: tool names or `*` globs, or `kind:shell` (read, write, edit, fetch, search, mcp); absent or empty: every tool. */
  tools: z.array(z.string().min(1)).optional(),
  /** CEL, boolean: the rule decides when it is true. Absent: always. */
  when: z.string().min(1).optional(),
  /** What the rule decides when it applies; the verbs a point takes are in docs/rules.md. */
  decision: z.enum(RULE_VERBS),
  /** The reason, feedback or context text of the decision. */
  message: z.string().min(1).optional(),
  /** CEL, string: the message computed from the event (instead of `message`). */
  messageExpression: z.string().min(1).optional(),
  /** CEL, a map: the JSON merge patch of a rewrite's `patch` decision. */
  patch: z.string().min(1).optional(),
  /** Shown to the agent's user (its systemMessage), never to the model; not at rewrite or guard. */
  userMessage: z.string().min(1).optional(),
  /** Asks the agent to stop, with this reason for its user (continue: false); not at rewrite or guard. */
  stopAgent: z.string().min(1).optional(),
});

/** A parameter's value: a string or a list of strings (paths, globs, branch names). */
export const paramValueSchema = z.union([z.string(), z.array(z.string())]);
export type ParamValue = z.infer<typeof paramValueSchema>;
export const PARAM_NAME = /^[a-z][a-z0-9_]*$/;

export const ruleFileSchema = z.strictObject({
  /** Parameters the rules read as `params.<name>`, with their defaults; a rules plugin's `params` overrides them. */
  params: z.record(z.string().regex(PARAM_NAME, "lower-case letters, digits and '_'"), paramValueSchema).optional(),
  /** The rules, in the order they are tried: the first that decides wins. */
  rules: z.array(ruleSchema).min(1),
});

export type RuleSpec = z.infer<typeof ruleSchema>;

/** A rule file read: its rules and the parameters it declares. */
export interface RuleFile {
  readonly file: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly rules: readonly RuleSource[];
}

export interface RuleSource {
  readonly file: string;
  /** Index of the rule in its file's `rules`. */
  readonly index: number;
  readonly rule: RuleSpec;
}

/** The files `patterns` name, in order, each pattern's matches sorted; a pattern matching nothing is a config error. */
export function ruleFiles(patterns: readonly string[], where: string): string[] {
  const files: string[] = [];
  for (const pattern of patterns) {
    const matched = /[*?]/.test(basename(pattern)) ? matchDirectory(pattern) : exists(pattern) ? [pattern] : [];
    if (matched.length === 0) throw new HookdError("invalid_plugin", `${where}: ${pattern}: no rule file there`);
    for (const file of matched) if (!files.includes(file)) files.push(file);
  }
  return files;
}

function matchDirectory(pattern: string): string[] {
  const dir = dirname(pattern);
  if (/[*?]/.test(dir)) throw new HookdError("invalid_plugin", `${pattern}: only the file name may hold '*' or '?'`);
  const regex = new RegExp(`^${basename(pattern).replace(/[\\^$.|+()[\]{}]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => regex.test(name)).sort().map((name) => join(dir, name)).filter(exists);
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Reads and validates one rule file; errors name the file and the rule (index and id). */
export function readRuleFile(file: string): RuleFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new HookdError("invalid_plugin", `${file}: cannot be read: ${(error as Error).message}`);
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new HookdError("invalid_plugin", `${file}: ${doc.errors.map((e) => `line ${e.linePos?.[0].line ?? "?"}: ${e.message.split("\n")[0] ?? e.message}`).join("; ")}`);
  }
  const raw: unknown = doc.toJS();
  const parsed = ruleFileSchema.safeParse(raw);
  if (!parsed.success) {
    const rules = (raw as { rules?: unknown } | null)?.rules;
    throw new HookdError("invalid_plugin", `${file}: ${parsed.error.issues.map((issue) => `${issuePath(issue.path, rules)}: ${issue.message}`).join("; ")}`);
  }
  return { file, params: parsed.data.params ?? {}, rules: parsed.data.rules.map((rule, index) => ({ file, index, rule })) };
}

/** `rules[2] (id "x").when`: the path of an issue, with the id of the rule it is in when it has one. */
function issuePath(path: readonly PropertyKey[], rules: unknown): string {
  const [top, index, ...rest] = path;
  if (top !== "rules" || typeof index !== "number") return path.map(String).join(".") || "(file)";
  const id = Array.isArray(rules) ? (rules[index] as { id?: unknown } | undefined)?.id : undefined;
  const named = typeof id === "string" ? ` (id "${id}")` : "";
  return `rules[${index}]${named}${rest.length > 0 ? `.${rest.map(String).join(".")}` : ""}`;
}
