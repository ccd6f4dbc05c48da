// The decision table: one row per audit record, every value set as text (textContent), never as
// markup, so a reason such as "<script>" shows as those characters and runs nothing.
import type { AuditRecord } from "./records.js";
import { COLUMN_FIELDS } from "./records.js";

/** Rows shown at most; the buffer keeps more for when the filters change. */
export const SHOWN_ROWS = 500;

function cell(row: HTMLTableRowElement, text: string, className?: string): HTMLTableCellElement {
  const td = row.insertCell();
  td.textContent = text;
  if (className !== undefined) td.className = className;
  return td;
}

/** Fields beyond the columns (instance id, config version, retry, trace id, arguments, verdict, ...), as key=value text. */
export function details(record: AuditRecord): string {
  const parts: string[] = [];
  if (record.callId !== "") parts.push(`callId=${record.callId}`);
  for (const [key, value] of Object.entries(record)) {
    if (COLUMN_FIELDS.has(key) || value === undefined || value === "") continue;
    parts.push(`${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  return parts.join("  ");
}

export function recordRow(record: AuditRecord): HTMLTableRowElement {
  const row = document.createElement("tr");
  row.className = `record kind-${record.kind.replace(/[^a-z-]/g, "")} decision-${record.decision.replace(/[^a-z_-]/g, "")}`;
  row.dataset.kind = record.kind;
  cell(row, record.time.slice(11, 23), "time").title = record.time;
  cell(row, record.kind);
  cell(row, record.agentId);
  cell(row, record.sessionId);
  cell(row, `${record.turn}.${record.step}`);
  cell(row, record.point);
  cell(row, record.plugin);
  cell(row, record.decision, "decision");
  cell(row, record.outcome ?? "");
  cell(row, record.cause);
  cell(row, (record.durationUs / 1000).toFixed(2), "number");
  cell(row, record.reason, "reason");
  cell(row, details(record), "details");
  return row;
}

/** Puts `records` (newest first) into the table body. */
export function renderRows(body: HTMLTableSectionElement, records: readonly AuditRecord[]): void {
  body.replaceChildren(...records.map(recordRow));
}

/** Adds new records (oldest first) at the top, keeping at most SHOWN_ROWS rows. */
export function prependRows(body: HTMLTableSectionElement, records: readonly AuditRecord[]): void {
  for (const record of records) body.prepend(recordRow(record));
  while (body.rows.length > SHOWN_ROWS) body.deleteRow(-1);
}
