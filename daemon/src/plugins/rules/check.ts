// The load-time check of a rule's CEL: every variable and field it reads exists at the rule's
// point, every function exists with that many arguments, and the expression's type (as far as it
// can be known before run time) is the one its key needs. Errors carry the column they are at.
// @bufbuild/cel plans expressions but does not export a type checker, hence this one.
import { HookdError } from "@hookd/sdk";
import type { parse } from "@bufbuild/cel";
import { RE2JS } from "@bufbuild/re2";
import type { FieldType, Fields } from "./variables.js";
import { RULE_FUNCTIONS } from "./functions.js";

type ParsedExpr = ReturnType<typeof parse>;
type Expr = ParsedExpr["expr"];

export type CelKind = FieldType | "double" | "bytes" | "null";

/** A problem in an expression, at an offset into its text. */
export interface CheckIssue {
  readonly offset: number;
  readonly message: string;
}

/** What an expression reads: `call.command`, `session.cwd` (the values `hookd eval --explain` shows). */
export interface CheckResult {
  readonly type: CelKind;
  readonly reads: readonly string[];
}

// CEL's standard functions, macros and the strings extension the plugin registers: name → arities (counting a method's target).
const STANDARD = new Map<string, readonly number[]>([
  ["size", [1]], ["startsWith", [2]], ["endsWith", [2]], ["contains", [2]], ["matches", [1, 2]],
  ["int", [1]], ["uint", [1]], ["double", [1]], ["string", [1]], ["bytes", [1]], ["bool", [1]], ["type", [1]], ["dyn", [1]],
  ["duration", [1]], ["timestamp", [1]],
  ["charAt", [2]], ["indexOf", [2, 3]], ["lastIndexOf", [2, 3]], ["lowerAscii", [1]], ["upperAscii", [1]], ["replace", [3, 4]],
  ["split", [2, 3]], ["substring", [2, 3]], ["trim", [1]], ["join", [1, 2]], ["format", [2]], ["strings.quote", [1]],
]);
const BOOL_OPERATORS = new Set(["_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "_&&_", "_||_", "!_", "@in", "@not_strictly_false", "startsWith", "endsWith", "contains", "matches"]);
const FUNCTION_TYPES: Readonly<Record<string, CelKind>> = {
  size: "int", int: "int", uint: "int", double: "double", string: "string", bytes: "bytes", bool: "bool",
  lowerAscii: "string", upperAscii: "string", replace: "string", substring: "string", trim: "string", join: "string", format: "string", charAt: "string",
  split: "list", indexOf: "int", lastIndexOf: "int",
  "path.within": "bool", "path.matches": "bool", "path.normalize": "string", "path.base": "string", "shell.commands": "list",
};
const NAMESPACES = new Set([...RULE_FUNCTIONS.keys(), "strings.quote"].map((name) => name.split(".")[0] ?? ""));

/** A pattern written into the rule must compile (RE2 syntax, as CEL's matches() reads it): a bad one is a config error, not a failure on every call. */
function checkPattern(pattern: Expr | undefined, fail: (expr: Expr, message: string) => never): void {
  if (pattern?.exprKind.case !== "constExpr" || pattern.exprKind.value.constantKind.case !== "stringValue") return;
  try {
    RE2JS.compile(pattern.exprKind.value.constantKind.value);
  } catch (error) {
    fail(pattern, `not a regular expression CEL can use (RE2 syntax): ${(error as Error).message}`);
  }
}


/** Checks `parsed` against the point's variables: its type and what it reads, or the first problem. */
export function checkExpression(parsed: ParsedExpr, variables: Readonly<Record<string, Fields>>): CheckResult | { readonly issue: CheckIssue } {
  const positions = parsed.sourceInfo?.positions ?? {};
  const reads = new Set<string>();
  let issue: CheckIssue | undefined;
  // The first problem ends the walk: it is kept and the recursion unwound.
  const fail = (expr: Expr, message: string): never => {
    issue = { offset: positions[String(expr.id)] ?? 0, message };
    throw new HookdError("invalid_argument", message);
  };

  const visit = (expr: Expr, scope: ReadonlySet<string>): CelKind => {
    const kind = expr.exprKind;
    switch (kind.case) {
      case "constExpr":
        switch (kind.value.constantKind.case) {
          case "boolValue": return "bool";
          case "int64Value":
          case "uint64Value": return "int";
          case "doubleValue": return "double";
          case "stringValue": return "string";
          case "bytesValue": return "bytes";
          case "nullValue": return "null";
          default: return "dyn";
        }
      case "identExpr": {
        const name = kind.value.name;
        if (scope.has(name)) return "dyn";
        if (Object.hasOwn(variables, name)) {
          // The variable as a whole (an index, a comprehension, an argument): every field may be read.
          reads.add(`${name}.*`);
          return "map";
        }
        return fail(expr, `unknown variable "${name}" (this point has ${Object.keys(variables).join(", ")})`);
      }
      case "selectExpr": {
        const { operand, field, testOnly } = kind.value;
        const variable = operand?.exprKind.case === "identExpr" ? operand.exprKind.value.name : undefined;
        if (variable !== undefined && !scope.has(variable) && Object.hasOwn(variables, variable)) {
          const fields = variables[variable] ?? {};
          if (!Object.hasOwn(fields, field)) return fail(expr, `${variable} has no field "${field}" (it has ${Object.keys(fields).join(", ")})`);
          reads.add(`${variable}.${field}`);
          return testOnly ? "bool" : (fields[field] ?? "dyn");
        }
        if (operand !== undefined) visit(operand, scope);
        return testOnly ? "bool" : "dyn";
      }
      case "callExpr": {
        const { target, args } = kind.value;
        let name = kind.value.function;
        let arity = args.length;
        const namespace = target?.exprKind.case === "identExpr" ? target.exprKind.value.name : undefined;
        if (namespace !== undefined && !scope.has(namespace) && !Object.hasOwn(variables, namespace) && NAMESPACES.has(namespace)) {
          name = `${namespace}.${name}`;
          const expected = RULE_FUNCTIONS.get(name) ?? (name === "strings.quote" ? 1 : undefined);
          if (expected === undefined) return fail(expr, `unknown function ${name}`);
          if (expected !== arity) return fail(expr, `${name} takes ${expected} argument${expected === 1 ? "" : "s"}, got ${arity}`);
        } else {
          if (target !== undefined) {
            visit(target, scope);
            arity += 1;
          }
          if (!name.startsWith("_") && !name.startsWith("@") && name !== "!_" && name !== "-_") {
            const arities = STANDARD.get(name);
            if (arities === undefined) return fail(expr, `unknown function ${name}`);
            if (!arities.includes(arity)) return fail(expr, `${name} does not take ${arity - (target === undefined ? 0 : 1)} argument${arity === 1 ? "" : "s"}`);
          }
        }
        const argTypes = args.map((arg) => visit(arg, scope));
        if (name === "matches") checkPattern(args.at(-1), fail);
        if (BOOL_OPERATORS.has(name)) return "bool";
        if (name === "_?_:_") return argTypes[1] === argTypes[2] ? (argTypes[1] ?? "dyn") : "dyn";
        if (name === "_+_" && argTypes[0] === argTypes[1] && argTypes[0] !== "dyn") return argTypes[0] ?? "dyn";
        return FUNCTION_TYPES[name] ?? "dyn";
      }
      case "listExpr":
        for (const element of kind.value.elements) visit(element, scope);
        return "list";
      case "structExpr":
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case === "mapKey") visit(entry.keyKind.value, scope);
          if (entry.value !== undefined) visit(entry.value, scope);
        }
        return "map";
      case "comprehensionExpr": {
        const c = kind.value;
        if (c.iterRange !== undefined) visit(c.iterRange, scope);
        const accuType = c.accuInit === undefined ? "dyn" : visit(c.accuInit, scope);
        const inner = new Set([...scope, c.iterVar, c.accuVar, ...(c.iterVar2 === "" ? [] : [c.iterVar2])]);
        if (c.loopCondition !== undefined) visit(c.loopCondition, inner);
        if (c.loopStep !== undefined) visit(c.loopStep, inner);
        if (c.result !== undefined) {
          const resultType = visit(c.result, inner);
          // exists/all keep a boolean accumulator; map/filter a list.
          return resultType === "dyn" ? accuType : resultType;
        }
        return accuType;
      }
      default:
        return "dyn";
    }
  };
  try {
    return { type: visit(parsed.expr, new Set()), reads: [...reads] };
  } catch (error) {
    if (issue !== undefined) return { issue };
    throw error;
  }
}
