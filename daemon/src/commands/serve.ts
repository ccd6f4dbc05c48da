// `hookd serve`: runs the daemon as a well-behaved service. Takes the sockets systemd passed,
// starts the daemon, reports READY=1 (once listeners and required plugins are up) and watchdog
// pings when a service manager asked for them, reopens the audit log and reloads the config on
// SIGHUP, and drains on SIGTERM/SIGINT after STOPPING=1. The daemon itself lives in runtime/.
import { resolveInstanceId } from "../config/instance.js";
import { loadConfig } from "../config/load.js";
import { captureConsole, createLogger } from "../log.js";
import { takeInheritedSockets } from "../ops/socket-activation.js";
import { SystemdNotifier } from "../ops/systemd-notify.js";
import { Daemon } from "../runtime/daemon.js";
import { integerOption, parseCommand, stringOption } from "./usage.js";

/** How long a stop lets in-flight calls finish before cancelling them, by default. */
export const DEFAULT_GRACE_MS = 10_000;

export async function serve(args: string[]): Promise<number> {
  const values = parseCommand("serve", args);
  const graceMs = integerOption(values, "grace-ms", DEFAULT_GRACE_MS);
  const loaded = loadConfig(stringOption(values, "config"));
  const instanceId = resolveInstanceId(loaded.config);
  // Worker threads (their plugins' console lines), plugin processes and command hooks start with
  // this environment: they name the same instance.
  process.env.HOOKD_INSTANCE_ID = instanceId;
  const log = createLogger({ level: loaded.config.log.level }, { instanceId });
  // hookd logs through `log`; anything printed with console comes from in-process plugin code.
  captureConsole(log);
  const notifier = new SystemdNotifier({ log });
  const inherited = takeInheritedSockets();
  if (inherited.length > 0) log.info("sockets inherited from systemd", { sockets: inherited.map((s) => `${s.name}=fd${s.fd}`) });

  // A SIGTERM while plugins are still coming up stops the wait for readiness.
  const starting = new AbortController();
  const abortStart = (): void => starting.abort();
  process.once("SIGTERM", abortStart);
  process.once("SIGINT", abortStart);
  // SIGHUP's default action ends the process; one that arrives while starting is applied after.
  let hangupWhileStarting = false;
  const deferHangup = (): void => void (hangupWhileStarting = true);
  process.on("SIGHUP", deferHangup);
  const daemon = await Daemon.start({ config: loaded.config, configPath: loaded.path, log, inherited, instanceId });
  try {
    await daemon.whenReady(starting.signal);
  } catch (error) {
    log.error("not ready; stopping", { error });
    notifier.stopping();
    await daemon.stop(graceMs);
    return 1;
  } finally {
    process.off("SIGTERM", abortStart);
    process.off("SIGINT", abortStart);
  }
  if (starting.signal.aborted) {
    notifier.stopping();
    await daemon.stop(graceMs);
    return 0;
  }
  // Readiness says which plugins gate by a fallback (config points, a last known manifest, or
  // every gate point failing) rather than by what they described.
  const fallbacks = daemon.fallbacks();
  const gating = fallbacks.map((f) => `; ${f.plugin} subscribed by ${f.subscriptions}`).join("");
  notifier.ready(`serving on ${daemon.addresses.join(", ")}${gating}`);
  notifier.startWatchdog();
  log.info("hookd ready", { pid: process.pid, listeners: daemon.addresses, notify: notifier.enabled, ...(fallbacks.length === 0 ? {} : { fallbacks }) });
  if (process.stderr.isTTY) process.stderr.write(`hookd listening on ${daemon.addresses.join(", ")}\n`);

  const onHangup = (): void => {
    log.info("SIGHUP: reopening the audit log and reloading the config");
    daemon.reopenAudit();
    void (async () => {
      notifier.reloading();
      const result = await daemon.reload();
      notifier.ready(result.applied ? `serving; config generation ${result.configGeneration}` : "serving; the last reload was refused");
    })();
  };
  process.on("SIGHUP", onHangup);
  process.off("SIGHUP", deferHangup);
  if (hangupWhileStarting) onHangup();

  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      log.info("stopping", { signal, graceMs });
      process.off("SIGHUP", onHangup);
      process.on("SIGHUP", () => log.info("SIGHUP ignored while stopping"));
      void (async () => {
        notifier.stopping();
        try {
          await daemon.stop(graceMs);
          resolve(0);
        } catch (error) {
          log.error("stop failed", { error });
          resolve(1);
        } finally {
          notifier.close();
        }
      })();
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
}
