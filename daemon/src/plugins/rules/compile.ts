// Compiles rule files into a rule set: each rule's CEL parsed, checked against its point's
// variables and planned once, its matchers compiled and its verb checked against its point.
// Every error is a config error naming the file, the rule (index and id), the key and the column.
import { CelScalar, celEnv, mapType, parse, plan } from "@bufbuild/cel";
import type { CelResult, CelValue } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { RE2JS } from "@bufbuild/re2";
import { HookdError, POINT_TABLE, compileToolMatcher } from "@hookd/sdk";
import type { PointSpec, StopAgent, ToolMatcher } from "@hookd/sdk";
import type { ToolKind } from "../../agents/tool-kinds.js";
import { checkExpression } from "./check.js";
import { commandGuard } from "./command-guard.js";
import type { CommandGuard } from "./command-guard.js";
import type { CelKind } from "./check.js";
import { RULE_CEL_FUNCTIONS } from "./functions.js";
import { includedFiles } from "./library.js";
import { readRuleFile, ruleFiles } from "./rule-file.js";
import type { ParamValue, RuleSource, RuleVerb } from "./rule-file.js";
import { POINT_VARIABLES } from "./variables.js";
import type { Fields } from "./variables.js";
import { POINT_VERBS, RULE_POINTS, VERBS_WITH_MESSAGE, isRulePoint } from "./verbs.js";
import type { RulePoint } from "./verbs.js";

const TOOL_KINDS: readonly ToolKind[] = ["shell", "read", "write", "edit", "fetch", "search", "mcp"];
const TOOL_POINTS: ReadonlySet<RulePoint> = new Set(["pre-tool", "rewrite", "guard", "approval", "post-tool"]);

/** A point's variables as CEL values, converted once per evaluation (not on every read by every rule). */
export type Bindings = Readonly<Record<string, CelValue>>;

/** A planned expression: evaluates against a point's variables. */
export type Program = (bindings: Bindings) => CelResult;

export interface CompiledRule {
  readonly id: string;
  readonly description?: string;
  readonly file: string;
  readonly point: RulePoint;
  readonly verb: RuleVerb;
  /** Its tool matchers as written (`Bash`, `kind:shell`); empty: every tool. */
  readonly tools: readonly string[];
  /** Whether the rule applies to a call of this tool (name and kind); always true off the tool points. */
  readonly matchesTool: (toolName: string, kind: string) => boolean;
  readonly when?: Program;
  readonly message?: string;
  readonly messageExpression?: Program;
  readonly patch?: Program;
  /** Shown to the agent's user with the decision. */
  readonly userMessage?: string;
  /** Asks the agent to stop with the decision. */
  readonly stopAgent?: StopAgent;
  /** The variables' fields its expressions read, for explaining a decision. */
  readonly reads: readonly string[];
  /** What the commands of call.command must pass for `when` to hold, when it reads them so (command-guard.ts). */
  readonly commandGuard?: CommandGuard;
}

export interface RuleSet {
  readonly files: readonly string[];
  readonly rules: readonly CompiledRule[];
  /** The parameters the rules read as `params.<name>`: the files' defaults with the plugin's overrides. */
  readonly params: Readonly<Record<string, ParamValue>>;
}

/** What a rules plugin adds to its own files: builtins by name and parameter values. */
export interface RuleSetOptions {
  /** `builtin:NAME` entries; their rules come before the plugin's own files'. */
  readonly include?: readonly string[];
  readonly params?: Readonly<Record<string, ParamValue>>;
  /** The plugin's config key, for errors (`plugins.<name>`). */
  readonly plugin?: string;
}

// One environment per point: its variables are maps (their fields are checked by check.ts).
const ENVS = new Map<RulePoint, ReturnType<typeof envFor>>();
function envFor(point: RulePoint) {
  const names = [...Object.keys(POINT_VARIABLES[point]), "params"];
  const variables = Object.fromEntries(names.map((name) => [name, mapType(CelScalar.STRING, CelScalar.DYN)]));
  return celEnv({ funcs: [...strings, ...RULE_CEL_FUNCTIONS], variables, re2: REGEXES });
}

// CEL's matches() compiles its pattern on every call; rules use a few fixed patterns, so each is compiled once.
const compiledRegexes = new Map<string, RE2JS>();
const REGEXES = {
  compile(pattern: string): RE2JS {
    let compiled = compiledRegexes.get(pattern);
    if (compiled === undefined) {
      compiled = RE2JS.compile(pattern);
      // A pattern built from event data could grow the cache without bound: only the first ones are kept.
      if (compiledRegexes.size < 1_000) compiledRegexes.set(pattern, compiled);
    }
    return compiled;
  },
};
function envOf(point: RulePoint): ReturnType<typeof envFor> {
  let env = ENVS.get(point);
  if (env === undefined) ENVS.set(point, (env = envFor(point)));
  return env;
}

/** Reads and compiles the rule files `patterns` name (after any builtins included); `where` names the plugin for errors (`plugins.<name>.rules`). */
export function loadRuleSet(patterns: readonly string[], where: string, options: RuleSetOptions = {}): RuleSet {
  const plugin = options.plugin ?? where.replace(/\.rules$/, "");
  const files = [...includedFiles(options.include ?? [], `${plugin}.include`), ...ruleFiles(patterns, where)];
  const read = files.map(readRuleFile);
  const params = resolveParams(read.map((file) => file.params), options.params ?? {}, `${plugin}.params`);
  const paramFields: Fields = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === "string" ? "string" : "list"]));
  const seen = new Map<string, RuleSource>();
  const rules = read.flatMap((file) => file.rules).map((source) => {
    const earlier = seen.get(source.rule.id);
    if (earlier !== undefined) throw ruleError(source, "id", `the id is also rule ${earlier.index} of ${earlier.file}; ids must be unique in a plugin`);
    seen.set(source.rule.id, source);
    return compileRule(source, paramFields);
  });
  return { files, rules, params };
}

/** The files' parameter defaults (the first file declaring one sets it) with the plugin's values; a value for no declared parameter, or of another type, is a config error. */
function resolveParams(declared: readonly Readonly<Record<string, ParamValue>>[], given: Readonly<Record<string, ParamValue>>, where: string): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  for (const defaults of declared) for (const [name, value] of Object.entries(defaults)) if (!(name in params)) params[name] = value;
  for (const [name, value] of Object.entries(given)) {
    const fallback = params[name];
    if (fallback === undefined) throw new HookdError("invalid_plugin", `${where}.${name}: no rule file of the plugin declares this parameter${Object.keys(params).length === 0 ? "" : `; declared: ${Object.keys(params).join(", ")}`}`);
    if (typeof fallback !== typeof value || Array.isArray(fallback) !== Array.isArray(value)) {
      throw new HookdError("invalid_plugin", `${where}.${name}: expected ${Array.isArray(fallback) ? "a list of strings" : "a string"}, as its default is`);
    }
    params[name] = value;
  }
  return params;
}

function ruleError(source: RuleSource, key: string, message: string): HookdError {
  return new HookdError("invalid_plugin", `${source.file}: rules[${source.index}] (id "${source.rule.id}").${key}: ${message}`);
}

/** Whether the point's decisions carry a message for the user and a stop request (notice.ts). */
function takesNotices(point: RulePoint): boolean {
  return (POINT_TABLE[point] as PointSpec).notices === true;
}

export function compileRule(source: RuleSource, paramFields: Fields = {}): CompiledRule {
  const { rule } = source;
  const point = rule.point;
  if (!isRulePoint(point)) {
    throw ruleError(source, "point", `"${point}" takes no rule decisions; rules decide at ${Object.keys(POINT_VERBS).join(", ")}`);
  }
  const verbs = POINT_VERBS[point];
  if (!verbs.includes(rule.decision)) throw ruleError(source, "decision", `${point} cannot ${rule.decision}; it takes ${verbs.join(", ")}`);
  const needsMessage = VERBS_WITH_MESSAGE.has(rule.decision);
  if (needsMessage && rule.message === undefined && rule.messageExpression === undefined) throw ruleError(source, "message", `a ${rule.decision} needs a message or a messageExpression`);
  if (rule.message !== undefined && rule.messageExpression !== undefined) throw ruleError(source, "messageExpression", "give message or messageExpression, not both");
  if (!needsMessage && (rule.message !== undefined || rule.messageExpression !== undefined)) throw ruleError(source, "message", `a ${rule.decision} carries no message`);
  if ((rule.decision === "patch") !== (rule.patch !== undefined)) {
    throw ruleError(source, "patch", rule.decision === "patch" ? "a patch decision needs a patch (a CEL map)" : "only a patch decision takes a patch");
  }
  if (rule.tools !== undefined && !TOOL_POINTS.has(point)) throw ruleError(source, "tools", `${point} is not a tool point; tools match at ${[...TOOL_POINTS].join(", ")}`);
  for (const key of ["userMessage", "stopAgent"] as const) {
    if (rule[key] !== undefined && !takesNotices(point)) throw ruleError(source, key, `${point} decisions carry no ${key}; it is taken at ${RULE_POINTS.filter(takesNotices).join(", ")}`);
  }

  const reads = new Set<string>();
  let guard: CommandGuard | undefined;
  const compile = (key: "when" | "messageExpression" | "patch", text: string | undefined, wanted: CelKind): Program | undefined => {
    if (text === undefined) return undefined;
    const { program, reads: read, parsed } = compileExpression(source, point, key, text, wanted, paramFields);
    for (const field of read) reads.add(field);
    if (key === "when") guard = commandGuard(parsed.expr);
    return program;
  };
  const when = compile("when", rule.when, "bool");
  const messageExpression = compile("messageExpression", rule.messageExpression, "string");
  const patchProgram = compile("patch", rule.patch, "map");
  return {
    id: rule.id,
    ...(rule.description === undefined ? {} : { description: rule.description }),
    file: source.file,
    point,
    verb: rule.decision,
    tools: rule.tools ?? [],
    matchesTool: compileTools(source, rule.tools),
    ...(when === undefined ? {} : { when }),
    ...(rule.message === undefined ? {} : { message: rule.message }),
    ...(messageExpression === undefined ? {} : { messageExpression }),
    ...(patchProgram === undefined ? {} : { patch: patchProgram }),
    ...(rule.userMessage === undefined ? {} : { userMessage: rule.userMessage }),
    ...(rule.stopAgent === undefined ? {} : { stopAgent: { reason: rule.stopAgent } }),
    reads: [...reads],
    ...(guard === undefined ? {} : { commandGuard: guard }),
  };
}

function compileExpression(source: RuleSource, point: RulePoint, key: string, text: string, wanted: CelKind, paramFields: Fields): { program: Program; reads: readonly string[]; parsed: ReturnType<typeof parse> } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text);
  } catch (error) {
    const location = (error as { location?: { start?: { line?: number; column?: number } } }).location?.start;
    const message = (error as Error).message.replace(/^<input>:\d+:\d+: /, "");
    throw ruleError(source, key, `${at(text, location?.line, location?.column)}: ${message}`);
  }
  const checked = checkExpression(parsed, { ...POINT_VARIABLES[point], params: paramFields });
  if ("issue" in checked) {
    const { line, column } = lineColumn(text, checked.issue.offset);
    throw ruleError(source, key, `${at(text, line, column)}: ${checked.issue.message}`);
  }
  if (checked.type !== "dyn" && checked.type !== wanted) {
    throw ruleError(source, key, `must be ${wanted === "bool" ? "a boolean" : wanted === "map" ? "a map" : "a string"}, but it is ${article(checked.type)}`);
  }
  const planned = plan(envOf(point), parsed) as Program;
  return { program: planned, reads: checked.reads, parsed };
}

const article = (type: CelKind): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function at(text: string, line: number | undefined, column: number | undefined): string {
  const multiline = text.trimEnd().includes("\n");
  return multiline ? `line ${line ?? 1} column ${column ?? 1}` : `column ${column ?? 1}`;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function compileTools(source: RuleSource, tools: readonly string[] | undefined): (toolName: string, kind: string) => boolean {
  if (tools === undefined || tools.length === 0) return () => true;
  const kinds = new Set<string>();
  const names: string[] = [];
  tools.forEach((entry, index) => {
    if (!entry.startsWith("kind:")) return void names.push(entry);
    const kind = entry.slice("kind:".length);
    if (!(TOOL_KINDS as readonly string[]).includes(kind)) throw ruleError(source, `tools[${index}]`, `unknown tool kind "${kind}"; expected ${TOOL_KINDS.map((k) => `kind:${k}`).join(", ")}`);
    kinds.add(kind);
  });
  let byName: ToolMatcher | undefined;
  try {
    byName = names.length === 0 ? undefined : compileToolMatcher(names, "tools");
  } catch (error) {
    throw ruleError(source, "tools", (error as Error).message);
  }
  return (toolName, kind) => kinds.has(kind) || (byName?.(toolName) ?? false);
}
