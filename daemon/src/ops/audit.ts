// The audit trail: one JSON line per plugin invocation, per applied decision and per shadow
// call ("would have denied"), appended to the
// configured file with a synchronous write, so a decision is on disk (and fsynced, with
// fsync: always) before the agent is answered: the engine emits on the bus before the host
// replies. Also fans the same records out to live `hookd tail` subscribers. Owns the record
// shape, the file (reopened on SIGHUP for logrotate) and the fsync policy; not the bus.
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { PointName } from "@hookd/sdk";
import type { EngineEvent } from "../engine/events.js";
import type { Logger } from "../log.js";
import type { AuditRecord } from "./audit-record.js";
import { toAuditRecord } from "./audit-record.js";

export type { AuditRecord } from "./audit-record.js";
export { toAuditRecord } from "./audit-record.js";
export { shadowVerdict } from "./shadow-verdict.js";

export type FsyncPolicy = "always" | "interval" | "never";

export interface AuditFilter {
  readonly sessionId?: string;
  readonly plugin?: string;
  readonly point?: PointName;
}

export interface AuditFileOptions {
  readonly path: string;
  readonly fsync: FsyncPolicy;
}

/** How often `fsync: interval` flushes, in milliseconds. */
export const FSYNC_INTERVAL_MS = 100;

export function matchesFilter(record: AuditRecord, filter: AuditFilter): boolean {
  return (
    (filter.sessionId === undefined || filter.sessionId === record.sessionId) &&
    (filter.plugin === undefined || filter.plugin === record.plugin) &&
    (filter.point === undefined || filter.point === record.point)
  );
}

/** The audit file: synchronous appends, an fsync policy, reopen for log rotation. */
class AuditFile {
  #fd: number;
  #dirty = false;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly options: AuditFileOptions,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#fd = AuditFile.#open(options.path);
    if (options.fsync === "interval") {
      this.#timer = setInterval(() => this.flush(), FSYNC_INTERVAL_MS);
      this.#timer.unref();
    }
  }

  static #open(path: string): number {
    mkdirSync(dirname(path), { recursive: true, mode: 0o750 });
    // "a+": appends only, and the last byte can be read to fence a torn tail.
    const fd = openSync(path, "a+", 0o640);
    try {
      AuditFile.#fenceTornTail(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return fd;
  }

  /**
   * A crash can leave the file ending mid-record. A newline isolates that torn line, so the next
   * record is not glued to it: every complete record and every new one stays parseable. The
   * torn bytes are kept rather than truncated: an audit trail is append-only (it may be chattr
   * +a, or shared with a shipper reading it), and they are evidence of what was being written.
   */
  static #fenceTornTail(fd: number): void {
    const { size } = fstatSync(fd);
    if (size === 0) return;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) writeSync(fd, "\n");
  }

  append(line: string): void {
    try {
      writeSync(this.#fd, line);
      if (this.options.fsync === "always") fsyncSync(this.#fd);
      else this.#dirty = true;
    } catch (error) {
      this.onError(error);
    }
  }

  flush(): void {
    if (!this.#dirty) return;
    this.#dirty = false;
    try {
      fsyncSync(this.#fd);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Opens the path again (a rotated file was moved away); the old descriptor is flushed and closed. */
  reopen(): void {
    const next = AuditFile.#open(this.options.path);
    const previous = this.#fd;
    this.#fd = next;
    try {
      fsyncSync(previous);
    } catch (error) {
      this.onError(error);
    }
    closeSync(previous);
  }

  close(): void {
    clearInterval(this.#timer);
    try {
      fsyncSync(this.#fd);
    } catch (error) {
      this.onError(error);
    }
    closeSync(this.#fd);
  }
}

type Subscriber = (record: AuditRecord) => void;

/** What every record of this daemon carries: who wrote it and under which config. */
export interface AuditStamp {
  readonly instanceId: string;
  readonly configVersion: string;
}

/**
 * The daemon's audit trail: an engine observer. Without a configured file it still feeds live
 * subscribers (`hookd tail`), so tailing works on a daemon that keeps no log.
 */
export class AuditTrail {
  #file: AuditFile | undefined;
  readonly #subscribers = new Map<Subscriber, AuditFilter>();
  readonly #log: Logger;
  #records = 0;
  #writeErrors = 0;

  readonly #stamp: () => AuditStamp | undefined;

  constructor(options: AuditFileOptions | undefined, log: Logger, stamp: () => AuditStamp | undefined = () => undefined) {
    this.#log = log;
    this.#stamp = stamp;
    this.#file = options === undefined ? undefined : new AuditFile(options, (error) => this.#writeFailed(error));
  }

  get path(): string | undefined {
    return this.#file?.options.path;
  }

  get records(): number {
    return this.#records;
  }

  get writeErrors(): number {
    return this.#writeErrors;
  }

  /** The engine observer: writes the record, then hands it to live subscribers. */
  readonly observe = (event: EngineEvent): void => {
    if (event.type !== "invocation" && event.type !== "decision" && event.type !== "shadow-decision") return;
    // Nobody reads the record: do not build it (building it showed in profiles of every evaluate).
    if (this.#file === undefined && this.#subscribers.size === 0) return;
    const record = toAuditRecord(event);
    if (record !== undefined) this.#write({ ...record, ...this.#stamp() });
  };

  /** The decisions of an evaluate answered again from its first answer, written again marked `retry`. */
  retried(decisions: readonly EngineEvent[]): void {
    if (this.#file === undefined && this.#subscribers.size === 0) return;
    for (const event of decisions) {
      const record = toAuditRecord(event);
      if (record !== undefined) this.#write({ ...record, ...this.#stamp(), retry: true });
    }
  }

  #write(record: AuditRecord): void {
    this.#records++;
    this.#file?.append(`${JSON.stringify(record)}\n`);
    for (const [subscriber, filter] of this.#subscribers) {
      if (matchesFilter(record, filter)) subscriber(record);
    }
  }

  /** Live records matching `filter`, from now on, in log order. Returns the unsubscribe function. */
  subscribe(filter: AuditFilter, subscriber: Subscriber): () => void {
    this.#subscribers.set(subscriber, filter);
    return () => this.#subscribers.delete(subscriber);
  }

  /** Log rotation (SIGHUP): the same path opened again. */
  reopen(): void {
    this.#file?.reopen();
  }

  /** A reload with another path or fsync policy switches files; the same settings keep the open one. */
  reconfigure(options: AuditFileOptions | undefined): void {
    const current = this.#file?.options;
    if (current?.path === options?.path && current?.fsync === options?.fsync) return;
    const next = options === undefined ? undefined : new AuditFile(options, (error) => this.#writeFailed(error));
    this.#file?.close();
    this.#file = next;
    this.#log.info("audit log reconfigured", { path: options?.path ?? "(none)", fsync: options?.fsync ?? "" });
  }

  close(): void {
    this.#file?.close();
    this.#file = undefined;
    this.#subscribers.clear();
  }

  #writeFailed(error: unknown): void {
    // Logged on the first failure and then every 1000th, so a full disk does not flood journald.
    if (this.#writeErrors++ % 1000 === 0) this.#log.error("audit log write failed", { path: this.path, error, failures: this.#writeErrors });
  }
}
