// The records the page holds: the newest audit records (a bounded ring), the values seen for each
// filter, and which records the current filters let through. No DOM here.

/** An audit record as the daemon writes it (daemon/src/ops/audit-record.ts); fields other daemons add are kept as they come. */
export interface AuditRecord {
  readonly time: string;
  readonly kind: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly turn: number;
  readonly step: number;
  readonly callId: string;
  readonly plugin: string;
  readonly point: string;
  readonly decision: string;
  readonly reason: string;
  readonly cause: string;
  readonly durationUs: number;
  readonly outcome?: string;
  readonly [field: string]: unknown;
}

/** The fields with a column of their own; every other field goes to the details cell. */
export const COLUMN_FIELDS: ReadonlySet<string> = new Set([
  "time", "kind", "agentId", "sessionId", "turn", "step", "callId", "plugin", "point", "decision", "reason", "cause", "durationUs", "outcome",
]);

export type FilterName = "agent" | "session" | "plugin" | "point" | "outcome" | "shadow";
export type Filters = Readonly<Record<FilterName, string>>;
export const NO_FILTERS: Filters = { agent: "", session: "", plugin: "", point: "", outcome: "", shadow: "" };

/** Records kept in the page; older ones fall off. */
export const KEPT_RECORDS = 5_000;

export function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.time === "string" && typeof r.kind === "string" && typeof r.agentId === "string" && typeof r.sessionId === "string" && typeof r.plugin === "string" && typeof r.point === "string";
}

/** The outcome filter matches a plugin call's outcome (answered, fault, ...) or any record's decision (allow, deny, ...). */
export function matches(record: AuditRecord, filters: Filters): boolean {
  return (
    (filters.agent === "" || record.agentId === filters.agent) &&
    (filters.session === "" || record.sessionId === filters.session) &&
    (filters.plugin === "" || record.plugin === filters.plugin) &&
    (filters.point === "" || record.point === filters.point) &&
    (filters.outcome === "" || record.outcome === filters.outcome || record.decision === filters.outcome) &&
    (filters.shadow === "" || (filters.shadow === "only") === (record.kind === "shadow"))
  );
}

export class RecordBuffer {
  readonly #records: AuditRecord[] = [];
  /** Distinct values per filter, in first-seen order. */
  readonly seen: Readonly<Record<Exclude<FilterName, "shadow">, Set<string>>> = {
    agent: new Set(),
    session: new Set(),
    plugin: new Set(),
    point: new Set(),
    outcome: new Set(),
  };

  /** Adds a record; returns the values it is the first to show, with their filter. */
  add(record: AuditRecord): [Exclude<FilterName, "shadow">, string][] {
    this.#records.push(record);
    if (this.#records.length > KEPT_RECORDS) this.#records.splice(0, this.#records.length - KEPT_RECORDS);
    const grown: [Exclude<FilterName, "shadow">, string][] = [];
    const note = (name: Exclude<FilterName, "shadow">, value: string | undefined): void => {
      if (value === undefined || value === "" || this.seen[name].has(value)) return;
      this.seen[name].add(value);
      grown.push([name, value]);
    };
    note("agent", record.agentId);
    note("session", record.sessionId);
    note("plugin", record.plugin);
    note("point", record.point);
    note("outcome", record.outcome);
    note("outcome", record.decision);
    return grown;
  }

  /** The newest `limit` records the filters let through, newest first. */
  newest(filters: Filters, limit: number): AuditRecord[] {
    const out: AuditRecord[] = [];
    for (let i = this.#records.length - 1; i >= 0 && out.length < limit; i--) {
      const record = this.#records[i];
      if (record !== undefined && matches(record, filters)) out.push(record);
    }
    return out;
  }
}
