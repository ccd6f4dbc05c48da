// The console's live decision stream: every audit record as it is written, pushed to each open
// page over Server-Sent Events, each with a sequence number as its event id. A page that
// reconnects (EventSource does by itself) sends Last-Event-ID and gets what it missed from a
// bounded ring of recent records, so a fresh page also starts with recent history. A page that
// stops reading is cut off rather than buffered without bound. Owns the ring and the SSE framing.
import type { ServerResponse } from "node:http";
import type { AuditRecord, AuditTrail } from "../ops/audit.js";

/** Records kept for pages that open or reconnect. */
export const RECENT_RECORDS = 1_000;
/** Bytes a page may fall behind by before its stream is ended (it reconnects and catches up from the ring). */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

interface Numbered {
  readonly seq: number;
  readonly record: AuditRecord;
}

export class DecisionStream {
  readonly #recent: Numbered[] = [];
  readonly #pages = new Set<ServerResponse>();
  readonly #unsubscribe: () => void;
  readonly #heartbeat: NodeJS.Timeout;
  #seq = 0;

  constructor(audit: AuditTrail) {
    this.#unsubscribe = audit.subscribe({}, (record) => this.#publish(record));
    // A comment line now and then keeps idle connections from being reaped by proxies.
    this.#heartbeat = setInterval(() => {
      for (const page of this.#pages) page.write(": ping\n\n");
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  get pages(): number {
    return this.#pages.size;
  }

  /** Starts an SSE response: the records after `lastEventId` still in the ring, then live ones. */
  open(response: ServerResponse, lastEventId: string | undefined): void {
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive" });
    const after = lastEventId !== undefined && /^\d+$/.test(lastEventId) ? Number(lastEventId) : 0;
    // A page that missed more than the ring holds is told so (it shows a gap), then continues.
    const oldest = this.#recent[0]?.seq;
    if (after > 0 && oldest !== undefined && oldest > after + 1) response.write(`event: gap\ndata: ${oldest - after - 1}\n\n`);
    response.write("retry: 1000\n\n");
    for (const entry of this.#recent) if (entry.seq > after) response.write(frame(entry));
    this.#pages.add(response);
    response.once("close", () => this.#pages.delete(response));
  }

  close(): void {
    this.#unsubscribe();
    clearInterval(this.#heartbeat);
    for (const page of this.#pages) page.end();
    this.#pages.clear();
  }

  #publish(record: AuditRecord): void {
    const entry = { seq: ++this.#seq, record };
    this.#recent.push(entry);
    if (this.#recent.length > RECENT_RECORDS) this.#recent.shift();
    if (this.#pages.size === 0) return;
    const text = frame(entry);
    for (const page of this.#pages) {
      if (page.writableLength > MAX_UNSENT_BYTES) {
        this.#pages.delete(page);
        page.end();
        continue;
      }
      page.write(text);
    }
  }
}

function frame({ seq, record }: Numbered): string {
  // JSON.stringify escapes newlines, so one data line carries the whole record.
  return `id: ${seq}\ndata: ${JSON.stringify(record)}\n\n`;
}
