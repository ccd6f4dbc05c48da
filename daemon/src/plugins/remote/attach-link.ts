// Which transport a connection's calls take, and the Attach stream's lifecycle on it. Once the
// plugin is described, unless its manifest prefers unary, calls go over one Attach stream. A
// plugin without Attach (UNIMPLEMENTED) is remembered until the next Describe (re-admission,
// restart) and called unary meanwhile; a stream that breaks is reopened by the next call once a
// backoff has passed (doubling while streams keep breaking before any answer), and calls made
// during the backoff go unary. Owns no call: the stream and the unary RPC settle their own.
import type { Channel } from "@grpc/grpc-js";
import type { Logger } from "../../log.js";
import { AttachStream } from "./attach-stream.js";
import type { PluginTransport } from "./manifest.js";
import type { BackoffPolicy } from "./target.js";

/** How many calls one stream carries at once unless the plugin's options say otherwise. */
export const DEFAULT_ATTACH_WINDOW = 64;

export interface AttachLinkOptions {
  readonly channel: Channel;
  readonly target: string;
  readonly log: Logger;
  readonly backoff: BackoffPolicy;
  readonly refused: (detail: string) => void;
}

export interface AttachSettings {
  readonly transport: PluginTransport;
  readonly daemonVersion: string;
  readonly pluginName: string;
  readonly window: number;
}

export class AttachLink {
  readonly #options: AttachLinkOptions;
  #settings: AttachSettings | undefined;
  #stream: AttachStream | undefined;
  #unimplemented = false;
  #retryAt = 0;
  #backoffMs: number;
  #closed = false;

  constructor(options: AttachLinkOptions) {
    this.#options = options;
    this.#backoffMs = options.backoff.initialBackoffMs;
  }

  /**
   * After every Describe (start, re-admission, restart): the manifest's preference, and a fresh
   * stream. A stream still open then is replaced, since a plugin re-admitted after an ejection
   * may have stopped reading it; calls still on it fail as unavailable.
   */
  configure(settings: AttachSettings): void {
    this.#settings = settings;
    this.#unimplemented = false;
    this.#retryAt = 0;
    this.#backoffMs = this.#options.backoff.initialBackoffMs;
    this.#drop("the plugin was described again");
    if (settings.transport !== "unary") this.stream();
  }

  /** "stream" while calls go (or will go again, after a backoff) over Attach; else "unary". */
  get transport(): "stream" | "unary" {
    return this.#settings === undefined || this.#settings.transport === "unary" || this.#unimplemented ? "unary" : "stream";
  }

  /** The stream to send on now, opened if due; undefined sends unary. */
  stream(): AttachStream | undefined {
    const current = this.#stream;
    if (current !== undefined && !current.over) return current;
    if (this.transport === "unary" || this.#closed || performance.now() < this.#retryAt) return undefined;
    const settings = this.#settings;
    if (settings === undefined) return undefined;
    const opened: AttachStream = new AttachStream({
      channel: this.#options.channel,
      target: this.#options.target,
      daemonVersion: settings.daemonVersion,
      pluginName: settings.pluginName,
      window: settings.window,
      log: this.#options.log,
      refused: this.#options.refused,
      ended: (end) => this.#ended(opened, end),
    });
    this.#stream = opened;
    return opened;
  }

  close(): void {
    this.#closed = true;
    this.#drop("the connection closed");
  }

  #drop(detail: string): void {
    const current = this.#stream;
    this.#stream = undefined;
    current?.close(detail);
  }

  #ended(stream: AttachStream, end: { readonly unimplemented: boolean; readonly detail: string; readonly answered: boolean }): void {
    if (this.#stream !== stream || this.#closed) return; // dropped on purpose
    this.#stream = undefined;
    const { log, backoff } = this.#options;
    if (end.unimplemented) {
      this.#unimplemented = true;
      log.info("plugin does not implement Attach; calling it unary", { detail: end.detail });
      return;
    }
    if (end.answered) this.#backoffMs = backoff.initialBackoffMs;
    this.#retryAt = performance.now() + this.#backoffMs;
    log.warn("Attach stream ended; calls go unary until it is reopened", { detail: end.detail, retryInMs: this.#backoffMs });
    this.#backoffMs = Math.min(this.#backoffMs * 2, backoff.maxBackoffMs);
  }
}
