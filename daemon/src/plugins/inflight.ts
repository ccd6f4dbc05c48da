// Calls in flight per plugin source: the plugin set builds its registry from tracked listeners, so
// a retired source can wait for its own calls to finish before it is closed.
import { isThenable } from "../engine/invoke.js";
import type { Listener } from "../engine/listener.js";
import type { PluginSource } from "./source.js";

/**
 * Calls in flight per plugin source. The daemon builds its registry from tracked listeners, so
 * a retired source can wait for its own calls to finish before it is closed.
 */
export class InflightCalls {
  readonly #counts = new WeakMap<PluginSource, { n: number; idle: (() => void)[] }>();

  #entry(source: PluginSource): { n: number; idle: (() => void)[] } {
    let entry = this.#counts.get(source);
    if (entry === undefined) this.#counts.set(source, (entry = { n: 0, idle: [] }));
    return entry;
  }

  /** The source's listeners, each counting its calls while they run. */
  listeners(source: PluginSource): Listener[] {
    const entry = this.#entry(source);
    const done = (): void => {
      if (--entry.n === 0) for (const wake of entry.idle.splice(0)) wake();
    };
    return source.listeners().map((listener) => ({
      ...listener,
      call: (event, ctx, call) => {
        entry.n++;
        let answer: unknown;
        try {
          answer = listener.call(event, ctx, call);
        } catch (error) {
          done();
          throw error;
        }
        if (isThenable(answer)) return Promise.resolve(answer).finally(done);
        done();
        return answer;
      },
    }));
  }

  count(source: PluginSource): number {
    return this.#counts.get(source)?.n ?? 0;
  }

  /** Resolves when the source has no call in flight, or after `timeoutMs`; true when drained. */
  drained(source: PluginSource, timeoutMs: number): Promise<boolean> {
    const entry = this.#entry(source);
    if (entry.n === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        entry.idle.splice(entry.idle.indexOf(wake) >>> 0, 1);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      entry.idle.push(wake);
    });
  }
}
