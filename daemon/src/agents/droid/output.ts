// One run of a Droid command hook read by its output contract: Claude Code's (exit 0 with JSON,
// exit 2 blocks with stderr, others are non-blocking errors), except exit 3, with which Droid
// aborts the whole agent (stderr the reason): hookd reads it as `continue: false`.
import type { HookResult, HookSpec } from "../contract.js";
import { interpretClaudeRun } from "../claude-code/output.js";
import type { OutputFacts } from "../claude-code/output.js";
import type { RunResult } from "../../processes/hook-run.js";

export const ABORT_EXIT_CODE = 3;

export function interpretDroidRun(facts: OutputFacts, run: RunResult, hook: Pick<HookSpec, "id" | "event">): HookResult {
  if (run.end !== "exited" || run.code !== ABORT_EXIT_CODE) return interpretClaudeRun(facts, run, hook);
  const reason = run.stderr.trim();
  return {
    hook: hook.id,
    event: hook.event,
    status: "ok",
    stop: reason === "" ? { reason: `Factory Droid aborted by hook ${hook.id} (exit code 3)` } : { reason },
    contexts: [],
    notes: [],
    exitCode: ABORT_EXIT_CODE,
    durationMs: run.durationMs,
    stdout: run.stdout,
    stderr: run.stderr,
  };
}
