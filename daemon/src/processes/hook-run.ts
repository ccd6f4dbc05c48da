// How one command hook's process ended, as the runner (processes/runner.ts) reports it and
// each agent's output contract reads it: its exit or signal, its bounded output, its time.
export interface Captured {
  readonly stdout: string;
  readonly stderr: string;
  /** True when a stream produced more than maxOutputBytes. */
  readonly truncated: boolean;
  readonly durationMs: number;
  /** The process group id (= the shell's pid), when the spawn succeeded. */
  readonly pgid?: number;
}

export type RunResult =
  | (Captured & { readonly end: "exited"; readonly code: number })
  | (Captured & { readonly end: "signaled"; readonly signal: string })
  | (Captured & { readonly end: "timeout"; readonly timeoutMs: number })
  | (Captured & { readonly end: "cancelled" })
  | (Captured & { readonly end: "spawn_error"; readonly message: string });

/** Why a hook's answer could not be used: the failure policy's input. */
export type HookErrorKind = "exit" | "crash" | "timeout" | "garbage" | "spawn" | "cancelled";

/** The first line of a text, cut at 200 characters: what a log line quotes of a hook's stderr. */
export function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Why a run that never exited gave no answer (its timeout in the unit the agent's files use); undefined when it exited. */
export function runFailure(run: RunResult, timeoutUnit: "s" | "ms"): { readonly kind: HookErrorKind; readonly message: string } | undefined {
  switch (run.end) {
    case "spawn_error":
      return { kind: "spawn", message: run.message };
    case "cancelled":
      return { kind: "cancelled", message: "cancelled before the hook finished" };
    case "timeout":
      return { kind: "timeout", message: `no answer within ${timeoutUnit === "s" ? run.timeoutMs / 1000 : run.timeoutMs} ${timeoutUnit} (its process group was killed)` };
    case "signaled":
      return { kind: "crash", message: `killed by ${run.signal}${run.stderr.trim() === "" ? "" : `: ${firstLine(run.stderr)}`}` };
    case "exited":
      return undefined;
  }
}
