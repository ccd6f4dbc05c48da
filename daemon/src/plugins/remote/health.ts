// What a remote plugin's health is made of, apart from the state machine (admission.ts): the
// policy that ejects it and spaces the probes, the change its subscribers are told, and the two
// small helpers the probing uses (a backoff wait that a close ends, a callback that never throws).
import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "../../log.js";
import type { PluginHealth } from "../source.js";
import type { BackoffPolicy } from "./target.js";

export interface HealthPolicy extends BackoffPolicy {
  /** Consecutive failed calls after which the plugin is ejected until healthy again. */
  readonly ejectAfterFailures: number;
}

export const DEFAULT_HEALTH_POLICY: HealthPolicy = Object.freeze({ ejectAfterFailures: 5, initialBackoffMs: 100, maxBackoffMs: 10_000 });

export interface HealthChange {
  readonly plugin: string;
  readonly health: PluginHealth;
  readonly previous: PluginHealth;
  readonly reason: string;
}

/** Runs a subscriber's callback; one that throws is logged, never propagated. */
export function notify(log: Logger, run: () => void): void {
  try {
    run();
  } catch (error) {
    log.error("plugin change callback threw", { error });
  }
}

/** Resolves true after `ms`, false when `signal` aborts first (backoff waits that a close ends). */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
