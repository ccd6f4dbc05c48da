// sd_notify for a Type=notify service: READY=1, STATUS=, RELOADING=1, STOPPING=1 and watchdog
// pings. Node cannot send datagrams to a Unix socket, so each message spawns `systemd-notify`
// (without --no-block: it waits until the manager took the message; the unit needs
// NotifyAccess=all because the sender is a child), or, where that binary is missing, a python3
// one-liner that sends the same datagram. Does nothing unless NOTIFY_SOCKET is set. Messages are
// sent one at a time, in order.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { childEnv } from "../child-env.js";
import type { Logger } from "../log.js";

/** How long one notification may take before its helper is killed. */
export const NOTIFY_TIMEOUT_MS = 5_000;

// argv[1] is the socket path ("@..." for the abstract namespace), argv[2] the message.
const PYTHON_SENDER = [
  "import socket, sys",
  "path = sys.argv[1]",
  "path = '\\0' + path[1:] if path.startswith('@') else path",
  "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)",
  "s.sendto(sys.argv[2].encode(), path)",
].join("\n");

function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface NotifierOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly log: Logger;
}

export class SystemdNotifier {
  readonly #socket: string | undefined;
  readonly #env: NodeJS.ProcessEnv;
  readonly #log: Logger;
  readonly #sender: { readonly command: string; readonly args: (message: string) => string[] } | undefined;
  #chain: Promise<void> = Promise.resolve();
  #watchdog: NodeJS.Timeout | undefined;

  constructor(options: NotifierOptions) {
    this.#env = options.env ?? process.env;
    this.#log = options.log;
    const socket = this.#env.NOTIFY_SOCKET;
    this.#socket = socket === undefined || socket === "" ? undefined : socket;
    if (this.#socket === undefined) return;
    const notify = findExecutable("systemd-notify", this.#env);
    const python = notify === undefined ? findExecutable("python3", this.#env) : undefined;
    const socketPath = this.#socket;
    if (notify !== undefined) {
      this.#sender = { command: notify, args: (message) => message.split("\n") };
    } else if (python !== undefined) {
      this.#sender = { command: python, args: (message) => ["-c", PYTHON_SENDER, socketPath, message] };
    } else {
      this.#log.error("NOTIFY_SOCKET is set but neither systemd-notify nor python3 is on PATH; systemd will not learn of readiness");
    }
  }

  /** True when a service manager asked for notifications. */
  get enabled(): boolean {
    return this.#socket !== undefined && this.#sender !== undefined;
  }

  /** Sends "KEY=VALUE" assignments (one message). Never rejects; failures are logged. */
  notify(assignments: readonly string[]): Promise<void> {
    const sender = this.#sender;
    if (this.#socket === undefined || sender === undefined) return Promise.resolve();
    const message = assignments.join("\n");
    this.#chain = this.#chain.then(() => this.#send(sender.command, sender.args(message), message));
    return this.#chain;
  }

  ready(status = "serving"): Promise<void> {
    return this.notify(["READY=1", `STATUS=${status}`, `MAINPID=${process.pid}`]);
  }

  reloading(): Promise<void> {
    return this.notify(["RELOADING=1", "STATUS=reloading the config"]);
  }

  stopping(): Promise<void> {
    return this.notify(["STOPPING=1", "STATUS=draining"]);
  }

  status(text: string): Promise<void> {
    return this.notify([`STATUS=${text}`]);
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
    this.#watchdog = setInterval(() => void this.notify(["WATCHDOG=1"]), intervalMs);
    this.#watchdog.unref();
    this.#log.info("watchdog enabled", { intervalMs });
    return intervalMs;
  }

  stopWatchdog(): void {
    clearInterval(this.#watchdog);
    this.#watchdog = undefined;
  }

  #send(command: string, args: string[], message: string): Promise<void> {
    return new Promise((resolve) => {
      // The helper is the one child that gets NOTIFY_SOCKET: sending to it is its whole job.
      const env = { ...childEnv(this.#env), ...(this.#socket === undefined ? {} : { NOTIFY_SOCKET: this.#socket }) };
      const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env, timeout: NOTIFY_TIMEOUT_MS });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.once("error", (error) => {
        this.#log.warn("systemd notification failed", { message, error });
        resolve();
      });
      child.once("close", (code, signal) => {
        if (code !== 0) this.#log.warn("systemd notification failed", { message, code, signal, stderr: stderr.trim() });
        resolve();
      });
    });
  }
}
