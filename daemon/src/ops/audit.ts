// The audit trail: one JSON line per plugin invocation, per applied decision and per shadow
// call ("would have denied"), appended to the
// configured file with a synchronous write, so a decision is on disk (and fsynced, with
// fsync: always) before the agent is answered: the engine emits on the bus before the host
// replies. Also fans the same records out to live `hookd tail` subscribers. Owns the record
// shape, the file (reopened on SIGHUP for logrotate) and the fsync policy; not the bus.
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { PointName, ToolCall } from "@hookd/sdk";
import type { EngineEvent } from "../engine/events.js";
import type { Logger } from "../log.js";
import { shadowVerdict } from "./shadow-verdict.js";

export { shadowVerdict } from "./shadow-verdict.js";

export type FsyncPolicy = "always" | "interval" | "never";

/** One line of the audit log; the JSON names are those of hookd.v1.AuditRecord. */
export interface AuditRecord {
  /** RFC 3339 with milliseconds. */
  readonly time: string;
  /** shadow: a shadow plugin's call, whose decision was never applied. */
  readonly kind: "invocation" | "decision" | "shadow";
  readonly agentId: string;
  readonly sessionId: string;
  readonly turn: number;
  readonly step: number;
  readonly callId: string;
  /** The plugin called, or the one whose decision was applied ("default" when nobody decided). */
  readonly plugin: string;
  readonly point: PointName;
  readonly decision: string;
  readonly reason: string;
  /** Set for failures: deadline_exceeded, unavailable, invalid_answer, listener_error, ... */
  readonly cause: string;
  readonly durationUs: number;
  /** Invocations and shadow calls: answered, passed, fault or error. */
  readonly outcome?: string;
  /**
   * Rewrite decisions only (not yet in hookd.v1.AuditRecord, so `hookd tail` leaves them out):
   * the effective arguments, and when a plugin changed them, the agent's and who changed them, in order.
   */
  readonly argumentsJson?: string;
  readonly originalArgumentsJson?: string;
  readonly rewrittenBy?: readonly string[];
  /** Shadow calls only: what the plugin would have done, "would have denied" (shadowVerdict). */
  readonly verdict?: string;
}

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

/** The audit record for an engine event, or undefined for events that are not audited. */
export function toAuditRecord(event: EngineEvent, now: Date = new Date()): AuditRecord | undefined {
  const { scope } = event;
  const time = now.toISOString();
  const where = { agentId: scope.agentId, sessionId: scope.sessionId, turn: scope.turn, step: scope.step, callId: scope.callId ?? "" };
  switch (event.type) {
    case "invocation": {
      const { invocation } = event;
      return {
        time,
        kind: "invocation",
        ...where,
        plugin: invocation.plugin,
        point: invocation.point,
        decision: invocation.decision,
        reason: invocation.detail ?? "",
        cause: invocation.fault ?? (invocation.outcome === "error" ? "listener_error" : ""),
        durationUs: invocation.durationUs,
        outcome: invocation.outcome,
      };
    }
    case "decision":
      return {
        time,
        kind: "decision",
        ...where,
        plugin: event.decidedBy,
        point: event.point,
        decision: event.decision,
        reason: event.reason ?? "",
        cause: event.cause ?? (event.decision === "error" ? "listener_error" : ""),
        durationUs: event.durationUs,
        ...argumentsOf(event.call),
      };
    case "shadow-decision": {
      const { shadow } = event;
      const cause = shadow.cause ?? "";
      return {
        time,
        kind: "shadow",
        ...where,
        plugin: shadow.plugin,
        point: shadow.point,
        decision: shadow.decision,
        reason: shadow.reason ?? "",
        cause,
        durationUs: shadow.durationUs,
        outcome: shadow.outcome,
        verdict: shadowVerdict(shadow.decision, cause),
      };
    }
    case "turn-started":
    case "step-started":
    case "call-settled":
    case "contexts-appended":
    case "turn-ended":
      return undefined;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The argument versions of a rewrite decision's call. */
function argumentsOf(call: ToolCall | undefined): Pick<AuditRecord, "argumentsJson" | "originalArgumentsJson" | "rewrittenBy"> {
  if (call === undefined) return {};
  return {
    argumentsJson: call.argumentsJson,
    ...(call.originalArgumentsJson === undefined ? {} : { originalArgumentsJson: call.originalArgumentsJson }),
    ...(call.rewrittenBy === undefined ? {} : { rewrittenBy: call.rewrittenBy }),
  };
}

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

  constructor(options: AuditFileOptions | undefined, log: Logger) {
    this.#log = log;
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
    if (record === undefined) return;
    this.#records++;
    this.#file?.append(`${JSON.stringify(record)}\n`);
    for (const [subscriber, filter] of this.#subscribers) {
      if (matchesFilter(record, filter)) subscriber(record);
    }
  };

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
