// A plain command hook for the native tests (no hookd involved): a small node script that records
// every payload it gets (and the agent's variables it was given) to a JSON-lines file and
// answers by a table of rules, the first whose `when` texts all occur in the payload: an exit
// code, a stderr line and a stdout JSON answer.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface HookRule {
  /** The label of the hook this rule answers: its event name, or a name the settings gave it. */
  readonly label: string;
  /** Texts that must all occur in the raw payload (none: every payload of the event). */
  readonly when?: readonly string[];
  /** Texts that must not occur in the raw payload. */
  readonly unless?: readonly string[];
  readonly exit?: number;
  readonly stderr?: string;
  /** Printed on stdout as JSON; nothing is printed when absent. */
  readonly output?: Record<string, unknown>;
}

export interface HookCall {
  readonly label: string;
  readonly payload: Record<string, unknown>;
  /** The hook's environment variables named *_PROJECT_DIR or QWEN_CODE_*. */
  readonly env: Record<string, string>;
}

export interface NativeHook {
  /** The command line a settings file runs, answering as the rules for `label` say. */
  readonly command: (label: string) => string;
  /** Every payload recorded so far, in order, with the label of the hook that got it. */
  readonly calls: () => HookCall[];
  /** The payloads the hook labelled `label` got, in order. */
  readonly payloads: (label: string) => Record<string, unknown>[];
}

const SCRIPT = `
import { appendFileSync, readFileSync } from "node:fs";
const [label, rulesPath, logPath] = process.argv.slice(2);
let raw = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) raw += chunk;
// The variables an agent sets for its hooks are recorded too (project directories, QWEN_CODE_*).
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.endsWith("_PROJECT_DIR") || name.startsWith("QWEN_CODE_")));
appendFileSync(logPath, JSON.stringify({ label, payload: JSON.parse(raw), env }) + "\\n");
const rules = JSON.parse(readFileSync(rulesPath, "utf8"));
const rule = rules.find((r) => r.label === label && (r.when ?? []).every((t) => raw.includes(t)) && !(r.unless ?? []).some((t) => raw.includes(t)));
if (rule?.stderr !== undefined) process.stderr.write(rule.stderr + "\\n");
if (rule?.output !== undefined) process.stdout.write(JSON.stringify(rule.output));
process.exitCode = rule?.exit ?? 0;
`;

/** Writes the hook script, its rules and its log under `dir`. */
export function nativeHook(dir: string, rules: readonly HookRule[]): NativeHook {
  const script = join(dir, "native-hook.mjs");
  const rulesPath = join(dir, "native-hook-rules.json");
  const logPath = join(dir, "native-hook.jsonl");
  writeFileSync(script, SCRIPT);
  chmodSync(script, 0o755);
  writeFileSync(rulesPath, JSON.stringify(rules));
  writeFileSync(logPath, "");
  const calls = (): HookCall[] =>
    readFileSync(logPath, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as HookCall);
  return {
    command: (label) => `${process.execPath} ${script} ${label} ${rulesPath} ${logPath}`,
    calls,
    payloads: (label) => calls().flatMap((call) => (call.label === label ? [call.payload] : [])),
  };
}
