// The one scripted conversation every agent and path runs: the model first asks for `rm -r`
// (hookd denies it), then a harmless command (it runs, and hookd adds post-tool context), then a
// command hookd rewrites, then answers; hookd steers that first stop once, and the model answers again. What each assertion
// reads: the files in the agent's cwd (what ran), the fake model's log (what reached the model)
// and the policy's log (which points the agent drove).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scripted } from "../fake-model/server.js";
import type { Conversation, FakeModel, Script } from "../fake-model/server.js";
import { MARK } from "./policy.js";
import type { PolicyEntry } from "./policy.js";

export const SCENARIO_PROMPT = "Tidy up this directory, then tell me DONE.";

export const scenarioScript: Script = scripted([
  { kind: "shell", command: "rm -r victim" },
  { kind: "shell", command: "echo harmless-ran > harmless.txt" },
  // hookd's rewrite turns REWRITE-ME into rewritten-by-hookd: which file appears shows what ran.
  { kind: "shell", command: "echo REWRITE-ME > REWRITE-ME.txt" },
]);

export function prepareCwd(cwd: string): void {
  writeFileSync(join(cwd, "victim"), "still here\n");
}

export interface Outcome {
  readonly victimSurvived: boolean;
  readonly harmlessRan: boolean;
  /** The rewritten command ran (and the original did not). */
  readonly rewriteApplied: boolean;
  /** The command as the model asked for it ran. */
  readonly originalRan: boolean;
  /** The agent's main conversations as the fake model received them. */
  readonly conversations: readonly Conversation[];
  readonly entries: readonly PolicyEntry[];
}

export function outcome(cwd: string, model: FakeModel, entries: readonly PolicyEntry[]): Outcome {
  const harmless = join(cwd, "harmless.txt");
  return {
    victimSurvived: existsSync(join(cwd, "victim")),
    harmlessRan: existsSync(harmless) && readFileSync(harmless, "utf8").includes("harmless-ran"),
    rewriteApplied: existsSync(join(cwd, `${MARK.rewriteTo}.txt`)) && !existsSync(join(cwd, `${MARK.rewriteFrom}.txt`)),
    originalRan: existsSync(join(cwd, `${MARK.rewriteFrom}.txt`)),
    conversations: model.conversations(),
    entries,
  };
}

/** The last conversation: every earlier message, as the model saw it at the end of the turn. */
export function lastConversation(result: Outcome): Conversation {
  const last = result.conversations.at(-1);
  if (last === undefined) throw new Error("the fake model received no conversation");
  return last;
}

export const userSaw = (result: Outcome, text: string): boolean => result.conversations.some((c) => c.userTexts.some((t) => t.includes(text)));
export const toolResultSaw = (result: Outcome, text: string): boolean => result.conversations.some((c) => c.toolResults.some((t) => t.includes(text)));
export { MARK };
