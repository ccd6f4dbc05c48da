// What the daemon reports besides its engine's counters: the process and runtime metrics (when
// `metrics.listen` is set) and OpenTelemetry traces (when `tracing.otlp` is set). The tracing
// SDK is imported only then, so a daemon without tracing never loads it.
import type { Config } from "../config/schema.js";
import type { Logger } from "../log.js";
import { RuntimeMetrics } from "../ops/runtime-metrics.js";
import type { OtlpTracing } from "../ops/tracing/otlp.js";
import { DAEMON_VERSION } from "./version.js";

/** How long a stop waits for the last spans to reach the collector. */
const STOP_EXPORT_MS = 3_000;

export class Telemetry {
  private constructor(
    /** Bound by the host to each caller's trace context; undefined when off. */
    readonly tracing: OtlpTracing | undefined,
    readonly runtime: RuntimeMetrics | undefined,
    readonly log: Logger,
  ) {}

  static async start(config: Config, log: Logger): Promise<Telemetry> {
    const otlp = config.tracing.otlp;
    let tracing: OtlpTracing | undefined;
    if (otlp !== undefined) {
      const { startOtlpTracing } = await import("../ops/tracing/otlp.js");
      tracing = startOtlpTracing({ ...otlp, serviceName: config.tracing.serviceName, serviceVersion: DAEMON_VERSION, log });
      log.info("tracing to OTLP", { endpoint: otlp.endpoint, samplingRatio: otlp.samplingRatio });
    }
    return new Telemetry(tracing, config.metrics === undefined ? undefined : new RuntimeMetrics(), log);
  }

  /** hookd's own families, then the process and runtime ones. */
  async exposition(hookd: string): Promise<string> {
    return this.runtime === undefined ? hookd : hookd + (await this.runtime.render());
  }

  /**
   * Exports the spans still buffered, waiting at most STOP_EXPORT_MS: a collector that is gone or
   * slow costs a stop that long, and spans it could not take are a warning, never a failed stop.
   */
  async stop(): Promise<void> {
    if (this.tracing === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<"timeout">((done) => (timer = setTimeout(() => done("timeout"), STOP_EXPORT_MS)));
    try {
      const ended = await Promise.race([this.tracing.shutdown(), bound]);
      if (ended === "timeout") this.log.warn("tracing: the last spans were not exported in time", { waitedMs: STOP_EXPORT_MS });
    } catch (error) {
      this.log.warn("tracing: the last spans could not be exported", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }
}
