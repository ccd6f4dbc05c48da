// How a shadow plugin's call reads for a person, in the audit file and `hookd tail`: "would have
// denied". Pure; shared by the audit trail (ops/audit.ts) and the tail command.

/** A past participle of a decision kind: deny → denied, allow → allowed, pass → passed. */
function pastTense(kind: string): string {
  if (kind.endsWith("e")) return `${kind}d`;
  if (/[^aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ied`;
  return `${kind}ed`;
}

/**
 * How a shadow call reads for a person: "would have denied", "would have returned a result", or,
 * for a fault or error (decision "none"), that it gave no answer and nothing was applied.
 */
export function shadowVerdict(decision: string, cause: string): string {
  if (decision === "none") return `would have given no answer (${cause === "" ? "failed" : cause}); no failure policy applied`;
  if (decision === "result:ok") return "would have returned a result";
  if (decision === "result:error") return "would have returned an error result";
  return `would have ${pastTense(decision)}`;
}
