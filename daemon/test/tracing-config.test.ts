// `tracing` in the config: defaults, and errors that name the key path.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config/load.js";

const BASE = { listeners: [{ unix: "/tmp/x.sock" }] };
const parse = (tracing: unknown) => parseConfig(JSON.stringify({ ...BASE, tracing }), "hookd.json", "/tmp");

describe("tracing config", () => {
  it("is off by default and fills in the OTLP defaults", () => {
    expect(parseConfig(JSON.stringify(BASE), "hookd.json", "/tmp").tracing).toEqual({ serviceName: "hookd" });
    expect(parse({ otlp: { endpoint: "http://127.0.0.1:4317" } }).tracing).toEqual({
      serviceName: "hookd",
      otlp: { endpoint: "http://127.0.0.1:4317", headers: {}, samplingRatio: 1 },
    });
  });

  it.each([
    [{ otlp: { endpoint: "127.0.0.1:4317" } }, "tracing.otlp.endpoint: http://host:port or https://host:port"],
    [{ otlp: { endpoint: "http://c:4317", headers: { "X-Key": "v" } } }, "tracing.otlp.headers.X-Key: a gRPC metadata name"],
    [{ otlp: { endpoint: "http://c:4317", samplingRatio: 2 } }, "tracing.otlp.samplingRatio"],
    [{ otlp: { endpoint: "http://c:4317", insecure: true } }, "tracing.otlp"],
    [{ otlp: {} }, "tracing.otlp.endpoint"],
    [{ serviceName: "" }, "tracing.serviceName"],
  ])("refuses %j naming %s", (tracing, key) => {
    expect(() => parse(tracing)).toThrow(key);
  });
});
