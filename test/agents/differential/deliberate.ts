// The deliberate differences: docs/command-hooks.md's "Differences from running natively" table,
// one row per scenario ("<agent> | <name>", or `*` for every one) and aspect, each with why.
// A difference the differential lane finds is a failure unless a row names it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";
import type { Aspect, Difference } from "./observation.js";

export const DOC = "docs/command-hooks.md";
const SECTION = "## Differences from running natively";
const ASPECTS: readonly Aspect[] = ["exitCode", "result", "files", "modelRequests", "modelUserTexts", "modelToolResults", "userMessages"];

export interface DeliberateDifference {
  readonly scenario: string;
  readonly aspect: Aspect;
  readonly why: string;
}

// A cell may hold a "|" escaped as "\\|", as a scenario's title does ("Claude Code \\| azet-guard: …").
const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||(?<!\\)\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll("\\|", "|").replace(/^`|`$/g, ""));

/** Reads the table; a row naming no known aspect, or without a why, is refused with where it is. */
export function deliberateDifferences(text = readFileSync(join(REPO, DOC), "utf8")): DeliberateDifference[] {
  const start = text.indexOf(SECTION);
  if (start === -1) throw new Error(`${DOC} has no "${SECTION}" section`);
  const section = text.slice(start + SECTION.length).split(/\n## /)[0] ?? "";
  // The section's table whose columns are scenario | aspect | why (the section has others).
  const lines = section.split("\n");
  const headerAt = lines.findIndex((line) => line.trim().startsWith("|") && cells(line).join(",") === "scenario,aspect,why");
  if (headerAt === -1) throw new Error(`${DOC}: "${SECTION}" needs a table with the columns scenario | aspect | why`);
  const body: string[] = [];
  for (const line of lines.slice(headerAt + 2)) {
    if (!line.trim().startsWith("|")) break;
    body.push(line);
  }
  return body.map((row) => {
    const [scenario = "", aspect = "", why = ""] = cells(row);
    if (!ASPECTS.includes(aspect as Aspect)) throw new Error(`${DOC}: deliberate difference "${row.trim()}" names aspect "${aspect}"; one of ${ASPECTS.join(", ")}`);
    if (scenario === "" || why === "") throw new Error(`${DOC}: deliberate difference "${row.trim()}" needs a scenario (or *) and a why`);
    return { scenario, aspect: aspect as Aspect, why };
  });
}

export function isDeliberate(scenario: string, difference: Difference, table: readonly DeliberateDifference[]): boolean {
  return table.some((row) => (row.scenario === "*" || row.scenario === scenario) && row.aspect === difference.aspect);
}
