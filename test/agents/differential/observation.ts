// What a user sees of one run, in a form two runs can be compared in: the exit status, the files
// the agent's tools left behind, what the model was sent, the messages shown to the user and how
// many times the model was asked. Paths and ids that differ between any two runs are normalized.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { FakeModel } from "../fake-model/server.js";
import type { UserView } from "./agents.js";

export interface Observation {
  readonly exitCode: number | null;
  /** The final stream-json result: its subtype, whether it is an error, and its text. */
  readonly result: string;
  /** Every file under the agent's cwd (relative path → content), as the run left them. */
  readonly files: Record<string, string>;
  /** How many requests of the main conversation (the ones offering tools) the model answered. */
  readonly modelRequests: number;
  /** The user-role texts of the model's last main request: prompts, hook context, stop feedback. */
  readonly modelUserTexts: readonly string[];
  /** The tool results of that request: what ran, and a block's reason as the model reads it. */
  readonly modelToolResults: readonly string[];
  /** Hook messages the agent showed the user besides the answer (Claude Code: its informational and notification lines). */
  readonly userMessages: readonly string[];
}

export type Aspect = keyof Observation;

/** Places that are different for each run (temp dirs, ports), named by what they stand for. */
export type Placeholders = Readonly<Record<string, string>>;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
// Values of one process or moment, whichever way the hooks ran: Gemini's process group, Codex's
// output chunk id and wall time, how long something took, a script's random pick.
const VOLATILE: readonly [RegExp, string][] = [
  [/Process Group PGID: \d+/g, "Process Group PGID: <pgid>"],
  [/Chunk ID: [0-9a-f]+/g, "Chunk ID: <chunk>"],
  [/Wall time: [\d.]+ seconds/g, "Wall time: <seconds> seconds"],
  [/\b\d+ms\b/g, "<n>ms"],
  // sensitive-canary starts each message with a bird it picks at random.
  [/[🐦🐧🐤🐔] sensitive-canary/gu, "<bird> sensitive-canary"],
  // Codex names a hook run by its entry's index in the agent's hooks file, which is the user's
  // settings and differs by design through hookd (as the hook entry itself does: <hook>).
  [/hook_run_id="(\w+):\d+:/g, 'hook_run_id="$1:<n>:'],
];

export function normalize(text: string, placeholders: Placeholders): string {
  let out = text;
  // The longest first, so a path inside another is replaced as the longer one.
  for (const [name, value] of Object.entries(placeholders).sort(([, a], [, b]) => b.length - a.length)) {
    // Numbered names of one kind (hook#0, hook#1) read the same: which entry it was is not compared.
    // Case-insensitively: Gemini CLI lowercases the directory name it derives from the cwd.
    if (value !== "") out = out.replace(new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), `<${name.replace(/#\d+$/, "")}>`);
  }
  for (const [pattern, replacement] of VOLATILE) out = out.replace(pattern, replacement);
  return out.replace(UUID, "<uuid>");
}

function filesUnder(root: string, placeholders: Placeholders): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files[relative(root, path)] = statSync(path).size > 65_536 ? "<large>" : normalize(readFileSync(path, "utf8"), placeholders);
    }
  };
  walk(root);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}

export function observe(view: UserView, model: FakeModel, cwd: string, placeholders: Placeholders): Observation {
  const norm = (text: string): string => normalize(text, placeholders);
  const last = model.conversations().at(-1);
  return {
    exitCode: view.code,
    result: norm(view.result),
    files: filesUnder(cwd, placeholders),
    modelRequests: model.conversations().length,
    modelUserTexts: (last?.userTexts ?? []).map(norm),
    modelToolResults: (last?.toolResults ?? []).map(norm),
    userMessages: view.userMessages.map(norm),
  };
}

export interface Difference {
  readonly aspect: Aspect;
  readonly native: unknown;
  readonly hookd: unknown;
}

export function differences(native: Observation, hookd: Observation): Difference[] {
  const aspects = Object.keys(native) as Aspect[];
  return aspects.flatMap((aspect) => (JSON.stringify(native[aspect]) === JSON.stringify(hookd[aspect]) ? [] : [{ aspect, native: native[aspect], hookd: hookd[aspect] }]));
}
