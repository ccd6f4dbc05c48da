// Waiting for the plugins a config marks `required` before the daemon reports ready (moved out
// of plugin-set.ts, which keeps the set itself).
import { HookdError } from "@hookd/sdk";
import type { Logger } from "../log.js";

/**
 * Resolves once `waiting()` (the required plugins not ready yet) is empty, checking every 100 ms;
 * rejects when `signal` aborts. Readiness for systemd waits on it.
 */
export function requiredPluginsReady(waiting: () => string[], log: Logger, signal: AbortSignal): Promise<void> {
  if (waiting().length === 0) return Promise.resolve();
  log.info("waiting for required plugins", { plugins: waiting() });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (waiting().length > 0) return;
      clearInterval(timer);
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, 100);
    const onAbort = (): void => {
      clearInterval(timer);
      reject(new HookdError("unavailable", `required plugins not ready: ${waiting().join(", ")}`));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
