// The worker pool's options, checked without starting a worker: the Node flags a worker inherits
// and the pool size. Pools with real workers are tested in test/plugins/worker.test.ts (e2e lane,
// since workers run the built daemon/dist).
import { describe, expect, it } from "vitest";
import { WorkerPool } from "../src/plugins/worker/index.js";
import { workerExecArgv } from "../src/plugins/worker/pool.js";

describe("worker pool options", () => {
  it("inherits the parent's Node flags unless resolution conditions must be dropped", () => {
    expect(workerExecArgv(["--max-old-space-size=512", "--enable-source-maps"])).toEqual({});
    expect(workerExecArgv(["--require", "x.cjs", "--conditions", "source", "-C", "dev", "--conditions=node", "--enable-source-maps"])).toEqual({
      execArgv: ["--require", "x.cjs", "--enable-source-maps"],
    });
  });

  it("validates its size", () => {
    expect(() => new WorkerPool({ size: 0 })).toThrow(/at least 1/);
    expect(() => new WorkerPool({ size: 1.5 })).toThrow(/at least 1/);
  });
});
