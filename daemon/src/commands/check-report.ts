// The report `hookd check` prints: what it found, gathered first and printed once, so nothing
// (neither a "valid" nor a plugin's log line) comes before a failure. Findings are tables (each
// with an id, its columns and rows; a new plugin kind adds its own table), notes, warnings (what
// loading the plugins logged at warn or above) and problems (any one makes the check fail).
// Rendered for a person (problems on stderr, colour only when asked) or as one JSON object.
import { formatFields } from "../log.js";
import { table } from "./table.js";

export interface ReportColumn {
  readonly title: string;
  /** The key of this column in --json output. */
  readonly key: string;
}

export type Cell = string | number;

export interface ReportTable {
  /** The table's name in --json output (order, subscriptions, ...). */
  readonly id: string;
  readonly columns: readonly ReportColumn[];
  readonly rows: readonly (readonly Cell[])[];
  /** Printed instead of the table when it has no rows; absent: nothing is printed. */
  readonly empty?: string;
}

export interface CheckReport {
  /** The config file checked, or "(embedded default)". */
  readonly config: string;
  readonly tables: ReportTable[];
  readonly notes: string[];
  readonly warnings: string[];
  readonly problems: string[];
}

export function newReport(config: string): CheckReport {
  return { config, tables: [], notes: [], warnings: [], problems: [] };
}

/** Columns from "TITLE:key" pairs. */
export function columns(...specs: readonly string[]): ReportColumn[] {
  return specs.map((spec) => {
    const [title = spec, key = spec] = spec.split(":");
    return { title, key };
  });
}

/** A JSON log line of the check's logger as a warning: its message and fields, no time or level. */
export function warningOf(line: string): string {
  try {
    const { time: _time, level: _level, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const rest = formatFields(fields);
    return `${String(msg)}${rest === "" ? "" : ` (${rest})`}`;
  } catch {
    return line.trim();
  }
}

/** grpc-js ends connection errors with an empty "Resolution note: "; it says nothing in a report. */
export const tidy = (text: string): string => text.replace(/\.? ?Resolution note: ?(?=$|["\s)])/g, "");

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

const paint = (on: boolean, code: string, text: string): string => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

export interface ReportOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Colour headings and the verdict (a terminal without NO_COLOR). */
  readonly colour: boolean;
}

/** Prints the report for a person; returns the exit code. */
export function printReport(report: CheckReport, { out, err, colour }: ReportOutput): number {
  out(`config ${report.config}\n`);
  for (const t of report.tables) {
    if (t.rows.length === 0) {
      if (t.empty !== undefined) out(`\n${t.empty}\n`);
      continue;
    }
    const [head = "", ...body] = table(t.columns.map((c) => c.title), t.rows.map((row) => row.map(String))).split("\n");
    out(`\n${paint(colour, "1", head)}\n${body.join("\n")}`);
  }
  if (report.notes.length > 0) out(`\n${report.notes.map((n) => `${n}\n`).join("")}`);
  if (report.warnings.length > 0) out(`\n${paint(colour, "33", `${plural(report.warnings.length, "warning")}:`)}\n${report.warnings.map((w) => `  - ${tidy(w)}\n`).join("")}`);
  if (report.problems.length > 0) {
    err(`${paint(colour, "31", `${report.config}: ${plural(report.problems.length, "problem")}:`)}\n${report.problems.map((p) => `  - ${tidy(p)}\n`).join("")}`);
    return 1;
  }
  out(`\n${paint(colour, "32", "ok")}\n`);
  return 0;
}

/** Prints the report as one JSON object; returns the exit code. */
export function printReportJson(report: CheckReport, out: (text: string) => void): number {
  const tables = Object.fromEntries(report.tables.map((t) => [t.id, t.rows.map((row) => Object.fromEntries(t.columns.map((c, i) => [c.key, row[i] ?? ""])))]));
  out(`${JSON.stringify({ config: report.config, ok: report.problems.length === 0, problems: report.problems, warnings: report.warnings, notes: report.notes, tables })}\n`);
  return report.problems.length === 0 ? 0 : 1;
}
