// The console page: the live decision stream (Server-Sent Events from /api/events) into a filtered
// table, and every two seconds the snapshot behind the charts, the plugin table and the order.
import { Charts } from "./charts.js";
import { renderOrder, renderPlugins } from "./plugins.js";
import type { AuditRecord, FilterName, Filters } from "./records.js";
import { NO_FILTERS, RecordBuffer, isAuditRecord, matches } from "./records.js";
import { fetchSnapshot } from "./snapshot.js";
import { SHOWN_ROWS, prependRows, renderRows } from "./table.js";

const SNAPSHOT_EVERY_MS = 2_000;
/** New rows are added in batches, at most this often, so a burst of records costs one layout. */
const FLUSH_EVERY_MS = 50;

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no #${id}`);
  return found;
}

const form = element("filters", HTMLFormElement);
const body = element("records", HTMLTableElement).tBodies[0] ?? element("records", HTMLTableElement).createTBody();
const shown = element("shown", HTMLElement);
const connection = element("connection", HTMLElement);
const gap = element("gap", HTMLElement);
const buffer = new RecordBuffer();
let filters: Filters = NO_FILTERS;
let pending: AuditRecord[] = [];
let flushTimer: number | undefined;
let total = 0;

function select(name: FilterName): HTMLSelectElement {
  const found = form.elements.namedItem(name);
  if (!(found instanceof HTMLSelectElement)) throw new Error(`the filter form has no ${name} select`);
  return found;
}

function readFilters(): Filters {
  const value = (name: FilterName): string => select(name).value;
  return { agent: value("agent"), session: value("session"), plugin: value("plugin"), point: value("point"), outcome: value("outcome"), shadow: value("shadow") };
}

function showCount(): void {
  shown.textContent = `${Math.min(body.rows.length, SHOWN_ROWS)} shown of ${total} received`;
}

function rerender(): void {
  filters = readFilters();
  pending = [];
  renderRows(body, buffer.newest(filters, SHOWN_ROWS));
  showCount();
}

function flush(): void {
  flushTimer = undefined;
  prependRows(body, pending);
  pending = [];
  showCount();
}

function receive(record: AuditRecord): void {
  total++;
  for (const [name, value] of buffer.add(record)) {
    const option = document.createElement("option");
    option.value = option.textContent = value;
    select(name).append(option);
  }
  if (!matches(record, filters)) {
    showCount();
    return;
  }
  pending.push(record);
  flushTimer ??= window.setTimeout(flush, FLUSH_EVERY_MS);
}

form.addEventListener("change", rerender);
// A reset changes the selects after the event: read them once it has.
form.addEventListener("reset", () => window.setTimeout(rerender, 0));

const events = new EventSource("/api/events");
events.addEventListener("open", () => {
  connection.dataset.state = "live";
  connection.textContent = "live";
});
events.addEventListener("error", () => {
  connection.dataset.state = "reconnecting";
  connection.textContent = events.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting";
});
events.addEventListener("gap", (event) => {
  gap.hidden = false;
  gap.textContent = `${(event as MessageEvent<string>).data} records were missed while the page was disconnected`;
});
events.addEventListener("message", (event: MessageEvent<string>) => {
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    return;
  }
  if (isAuditRecord(value)) receive(value);
});

const charts = new Charts(element("latency", HTMLCanvasElement), element("failures", HTMLCanvasElement));
const pluginBody = element("plugins", HTMLTableElement).tBodies[0] ?? element("plugins", HTMLTableElement).createTBody();
const order = element("order", HTMLElement);
const status = element("status", HTMLElement);

async function refresh(): Promise<void> {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), SNAPSHOT_EVERY_MS * 2);
  try {
    const snapshot = await fetchSnapshot(controller.signal);
    status.textContent = `hookd ${snapshot.status.version} · ${snapshot.status.agentsConnected} agents · ${snapshot.status.sessionsOpen} sessions · config generation ${snapshot.status.configGeneration}`;
    renderPlugins(pluginBody, snapshot);
    renderOrder(order, snapshot);
    charts.update(snapshot);
    document.body.dataset.snapshot = "loaded";
  } catch (error) {
    status.textContent = `snapshot failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    window.clearTimeout(timer);
    window.setTimeout(() => void refresh(), SNAPSHOT_EVERY_MS);
  }
}
void refresh();
showCount();
