// The runtime families come from prom-client's default collectors; a forced GC is counted by kind.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { RuntimeMetrics } from "../src/ops/runtime-metrics.js";

/** global.gc without starting the test runner with --expose-gc. */
function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

function gcCount(text: string, kind: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`nodejs_gc_duration_seconds_count{kind="${kind}"}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("RuntimeMetrics", () => {
  it("counts a forced major GC in nodejs_gc_duration_seconds by kind", async () => {
    const metrics = new RuntimeMetrics();
    const before = gcCount(await metrics.render(), "major");
    exposedGc()();
    // The GC observer is told asynchronously: wait (bounded) for its entry, not for a time.
    let after = before;
    for (let turn = 0; turn < 200 && after === before; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = gcCount(await metrics.render(), "major");
    }
    expect(after).toBeGreaterThan(before);
  });

  it("renders the process families with plausible values", async () => {
    const text = await new RuntimeMetrics().render();
    const value = (name: string): number => Number(text.split("\n").find((l) => l.startsWith(`${name} `))?.split(" ")[1]);
    expect(value("process_open_fds")).toBeGreaterThan(0);
    expect(value("process_max_fds")).toBeGreaterThanOrEqual(value("process_open_fds"));
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value("process_cpu_seconds_total")).toBeGreaterThan(0);
  });
});
