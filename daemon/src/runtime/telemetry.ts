// What the daemon reports besides its engine's counters: the process and runtime metrics (when
// `metrics.listen` is set) and OpenTelemetry traces (when `tracing.otlp` is set). The tracing
// SDK is imported only then, so a daemon without tracing never loads it.
import type { Config } from "../config/schema.js";
import type { Logger } from "../log.js";
import { RuntimeMetrics } from "../ops/runtime-metrics.js";
import type { OtlpTracing } from "../ops/tracing/otlp.js";
import { DAEMON_VERSION } from "./version.js";

export class Telemetry {
  private constructor(
    /** Bound by the host to each caller's trace context; undefined when off. */
    readonly tracing: OtlpTracing | undefined,
    readonly runtime: RuntimeMetrics | undefined,
  ) {}

  static async start(config: Config, log: Logger): Promise<Telemetry> {
    const otlp = config.tracing.otlp;
    let tracing: OtlpTracing | undefined;
    if (otlp !== undefined) {
      const { startOtlpTracing } = await import("../ops/tracing/otlp.js");
      tracing = startOtlpTracing({ ...otlp, serviceName: config.tracing.serviceName, serviceVersion: DAEMON_VERSION, log });
      log.info("tracing to OTLP", { endpoint: otlp.endpoint, samplingRatio: otlp.samplingRatio });
    }
    return new Telemetry(tracing, config.metrics === undefined ? undefined : new RuntimeMetrics());
  }

  /** hookd's own families, then the process and runtime ones. */
  async exposition(hookd: string): Promise<string> {
    return this.runtime === undefined ? hookd : hookd + (await this.runtime.render());
  }

  /** Exports the spans still buffered; a collector that is gone costs at most the exporter's timeout. */
  async stop(): Promise<void> {
    await this.tracing?.shutdown();
  }
}
