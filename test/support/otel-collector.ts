// A real OpenTelemetry Collector (test/otel-collector: the otlp receiver and the file exporter,
// built by scripts/setup-otel-collector.sh) for the tracing tests: started on a free loopback
// port with its traces written as OTLP JSON lines, stopped gracefully (which flushes the file),
// and its spans read back flattened.
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "./ports.js";

const REPO = resolve(import.meta.dirname, "../..");

/** Builds the collector when its stamp is stale (minutes the first time) and returns its path. */
export function setupCollector(): string {
  return execFileSync("bash", [join(REPO, "scripts/setup-otel-collector.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
}

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

export interface Collector {
  /** http://127.0.0.1:<port>: what `tracing.otlp.endpoint` names. */
  readonly endpoint: string;
  /** SIGTERM and wait: the file exporter flushes what it holds. */
  stop(): Promise<void>;
  /** Every span written so far (call after stop for all of them). */
  spans(): ReceivedSpan[];
}


export async function startCollector(binary: string, dir: string): Promise<Collector> {
  const port = await freePort();
  const output = join(dir, "spans.jsonl");
  const config = join(dir, "otelcol.yaml");
  writeFileSync(
    config,
    [
      "receivers:",
      "  otlp:",
      "    protocols:",
      "      grpc:",
      `        endpoint: 127.0.0.1:${port}`,
      "exporters:",
      "  file:",
      `    path: ${output}`,
      "service:",
      "  telemetry:",
      "    metrics:",
      "      level: none",
      "  pipelines:",
      "    traces:",
      "      receivers: [otlp]",
      "      exporters: [file]",
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(binary, ["--config", config], { stdio: ["ignore", "ignore", "pipe"] });
  const log: string[] = [];
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`the collector was not ready within 60 s:\n${log.join("\n")}`)), 60_000);
    createInterface({ input: child.stderr! }).on("line", (line) => {
      log.push(line);
      if (line.includes("Everything is ready")) {
        clearTimeout(timer);
        ready();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`the collector exited (code ${code}):\n${log.join("\n")}`));
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    spans: () => readSpans(output),
  };
}

interface OtlpAttribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string; readonly intValue?: string | number; readonly boolValue?: boolean; readonly doubleValue?: number };
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind?: number;
  readonly attributes?: readonly OtlpAttribute[];
  readonly status?: { readonly code?: number };
}
interface OtlpLine {
  readonly resourceSpans?: readonly { readonly resource?: { readonly attributes?: readonly OtlpAttribute[] }; readonly scopeSpans?: readonly { readonly spans?: readonly OtlpSpan[] }[] }[];
}

function attributes(list: readonly OtlpAttribute[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The file exporter's OTLP JSON lines (one ExportTraceServiceRequest each), flattened to spans. */
export function readSpans(path: string): ReceivedSpan[] {
  if (!existsSync(path)) return [];
  const spans: ReceivedSpan[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    for (const rs of (JSON.parse(line) as OtlpLine).resourceSpans ?? []) {
      const resource = attributes(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          spans.push({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? "",
            name: s.name,
            kind: s.kind ?? 0,
            attributes: attributes(s.attributes),
            statusCode: s.status?.code ?? 0,
            resource,
          });
        }
      }
    }
  }
  return spans;
}
