// A rule's necessary condition on the shell commands it reads, planned at load. A `when` that is
// `shell.commands(call.command).exists(c, P)` (alone or as a conjunct) can only hold when some
// command's argv passes the tests P makes of it outright (`c[0] == "rm"`, `c[0].startsWith("mkfs.")`,
// `"push" in c`, joined by && and ||). Those tests run on the argv lists first, and a rule none of
// whose commands can pass is not evaluated at all. Exact: a false conjunct makes CEL's && false
// whatever the other side is, and an argv the tests cannot read (empty) always runs the rule.
import type { parse } from "@bufbuild/cel";

type Expr = NonNullable<ReturnType<typeof parse>["expr"]>;

/** Whether any of a command line's simple commands could make the rule's `when` hold. */
export type CommandGuard = (commands: readonly (readonly string[])[]) => boolean;

type ArgvTest = (argv: readonly string[]) => boolean;

/** The guard of a `when` expression, or undefined when it reads the commands in no way planned here. */
export function commandGuard(when: Expr | undefined): CommandGuard | undefined {
  if (when === undefined) return undefined;
  const { exprKind } = when;
  if (exprKind.case === "callExpr" && exprKind.value.function === "_&&_") {
    const guards = exprKind.value.args.flatMap((arg) => commandGuard(arg) ?? []);
    return guards.length === 0 ? undefined : (commands) => guards.every((guard) => guard(commands));
  }
  if (exprKind.case !== "comprehensionExpr") return undefined;
  const loop = exprKind.value;
  // The `exists` macro: a false accumulator or-ed with the predicate over shell.commands(call.command).
  const init = loop.accuInit?.exprKind;
  const step = loop.loopStep?.exprKind;
  if (init?.case !== "constExpr" || init.value.constantKind.case !== "boolValue" || init.value.constantKind.value) return undefined;
  if (step?.case !== "callExpr" || step.value.function !== "_||_" || identName(step.value.args[0]) !== loop.accuVar) return undefined;
  if (loop.iterVar2 !== "" || !isCommandsOfCall(loop.iterRange)) return undefined;
  const test = argvTest(step.value.args[1], loop.iterVar);
  return test === undefined ? undefined : (commands) => commands.some((argv) => argv.length === 0 || test(argv));
}

/** `shell.commands(call.command)`. */
function isCommandsOfCall(expr: Expr | undefined): boolean {
  const kind = expr?.exprKind;
  if (kind?.case !== "callExpr" || kind.value.function !== "commands" || identName(kind.value.target) !== "shell") return false;
  const [arg] = kind.value.args;
  return arg?.exprKind.case === "selectExpr" && arg.exprKind.value.field === "command" && identName(arg.exprKind.value.operand) === "call";
}

/** What the predicate requires of one argv (`argv` names it), or undefined when it requires nothing readable here. */
function argvTest(expr: Expr | undefined, argv: string): ArgvTest | undefined {
  const kind = expr?.exprKind;
  if (kind?.case !== "callExpr") return undefined;
  const { function: name, args, target } = kind.value;
  if (name === "_&&_") {
    const tests = args.flatMap((arg) => argvTest(arg, argv) ?? []);
    return tests.length === 0 ? undefined : (words) => tests.every((test) => test(words));
  }
  if (name === "_||_") {
    const tests = args.map((arg) => argvTest(arg, argv));
    if (tests.some((test) => test === undefined)) return undefined;
    return (words) => tests.some((test) => test?.(words) === true);
  }
  if (name === "_==_") {
    const [left, right] = args;
    const literal = stringConstant(isProgram(left, argv) ? right : isProgram(right, argv) ? left : undefined);
    return literal === undefined ? undefined : (words) => words[0] === literal;
  }
  if (name === "startsWith" && isProgram(target, argv)) {
    const prefix = stringConstant(args[0]);
    return prefix === undefined ? undefined : (words) => words[0]?.startsWith(prefix) === true;
  }
  if (name === "@in" && identName(args[1]) === argv) {
    const literal = stringConstant(args[0]);
    return literal === undefined ? undefined : (words) => words.includes(literal);
  }
  return undefined;
}

/** `argv[0]`: the program of the command. */
function isProgram(expr: Expr | undefined, argv: string): boolean {
  const kind = expr?.exprKind;
  if (kind?.case !== "callExpr" || kind.value.function !== "_[_]" || identName(kind.value.args[0]) !== argv) return false;
  const index = kind.value.args[1]?.exprKind;
  return index?.case === "constExpr" && index.value.constantKind.case === "int64Value" && index.value.constantKind.value === 0n;
}

function identName(expr: Expr | undefined): string | undefined {
  return expr?.exprKind.case === "identExpr" ? expr.exprKind.value.name : undefined;
}

function stringConstant(expr: Expr | undefined): string | undefined {
  const kind = expr?.exprKind;
  return kind?.case === "constExpr" && kind.value.constantKind.case === "stringValue" ? kind.value.constantKind.value : undefined;
}
