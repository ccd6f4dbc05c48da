// The process and runtime metrics every Prometheus client library exports (CPU seconds, resident
// and virtual memory, open and max file descriptors, start time, event-loop lag, GC by kind,
// V8 heap and its spaces, active handles), from prom-client's default collectors in a registry
// of their own. Rendered after hookd's own families in the same /metrics exposition. Started only
// when `metrics.listen` is set: the event-loop monitor and the GC observer cost nothing otherwise.
import { Registry, collectDefaultMetrics } from "prom-client";

export class RuntimeMetrics {
  readonly #registry = new Registry();

  constructor() {
    // A 10 ms event-loop sampling resolution (prom-client's default); GC durations in seconds.
    collectDefaultMetrics({ register: this.#registry });
  }

  /** The runtime families as Prometheus text (0.0.4), read at scrape time. */
  render(): Promise<string> {
    return this.#registry.metrics();
  }
}
