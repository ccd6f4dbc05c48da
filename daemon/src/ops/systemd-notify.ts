// sd_notify for a Type=notify service: READY=1, STATUS=, RELOADING=1, STOPPING=1 and watchdog
// pings, sent as datagrams from the daemon's own process (unix-datagram.ts), so the unit can say
// NotifyAccess=main and no plugin child can speak for the service. Sends are synchronous:
// STOPPING=1 reaches systemd before the drain starts. Does nothing unless NOTIFY_SOCKET is set.
import type { Logger } from "../log.js";
import { UnixDatagramSender } from "./unix-datagram.js";

export interface NotifierOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly log: Logger;
}

export class SystemdNotifier {
  readonly #env: NodeJS.ProcessEnv;
  readonly #log: Logger;
  readonly #sender: UnixDatagramSender | undefined;
  #watchdog: NodeJS.Timeout | undefined;

  constructor(options: NotifierOptions) {
    this.#env = options.env ?? process.env;
    this.#log = options.log;
    const socket = this.#env.NOTIFY_SOCKET;
    if (socket === undefined || socket === "") return;
    try {
      this.#sender = new UnixDatagramSender(socket);
    } catch (error) {
      this.#log.error("NOTIFY_SOCKET is set but no datagram socket could be made; systemd will not learn of readiness", { error });
    }
  }

  /** True when a service manager asked for notifications and they can be sent. */
  get enabled(): boolean {
    return this.#sender !== undefined;
  }

  /** Sends "KEY=VALUE" assignments as one message. Never throws; a refused message is logged. */
  notify(assignments: readonly string[]): void {
    const sender = this.#sender;
    if (sender === undefined) return;
    const message = assignments.join("\n");
    let sent = false;
    try {
      sent = sender.send(message);
    } catch (error) {
      this.#log.warn("systemd notification failed", { message, error });
      return;
    }
    if (!sent) this.#log.warn("systemd notification refused", { message, socket: sender.path });
  }

  ready(status = "serving"): void {
    this.notify(["READY=1", `STATUS=${status}`]);
  }

  /** MONOTONIC_USEC lets systemd 253+ (Type=notify-reload) match the READY=1 that ends the reload. */
  reloading(): void {
    this.notify(["RELOADING=1", `MONOTONIC_USEC=${process.hrtime.bigint() / 1000n}`, "STATUS=reloading the config"]);
  }

  stopping(): void {
    this.notify(["STOPPING=1", "STATUS=draining"]);
  }

  status(text: string): void {
    this.notify([`STATUS=${text}`]);
  }

  /**
   * Pings WATCHDOG=1 at half of WATCHDOG_USEC from a timer on the event loop, so a blocked loop
   * stops the pings and systemd restarts the service. No-op without a watchdog for this pid.
   * Returns the interval in milliseconds, or undefined.
   */
  startWatchdog(): number | undefined {
    const usec = Number(this.#env.WATCHDOG_USEC ?? "");
    const pid = this.#env.WATCHDOG_PID;
    if (!this.enabled || !Number.isFinite(usec) || usec <= 0) return undefined;
    if (pid !== undefined && pid !== "" && Number(pid) !== process.pid) return undefined;
    const intervalMs = Math.max(1, Math.floor(usec / 2_000));
    this.stopWatchdog();
    this.#watchdog = setInterval(() => this.notify(["WATCHDOG=1"]), intervalMs);
    this.#watchdog.unref();
    this.#log.info("watchdog enabled", { intervalMs });
    return intervalMs;
  }

  stopWatchdog(): void {
    clearInterval(this.#watchdog);
    this.#watchdog = undefined;
  }

  close(): void {
    this.stopWatchdog();
    this.#sender?.close();
  }
}
