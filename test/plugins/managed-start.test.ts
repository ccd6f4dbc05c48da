// A managed plugin that starts but never listens must not hold the daemon's start: after its
// startTimeoutMs (the default, 10 s) the daemon gives up on it (logged, restarted with backoff)
// and serves. A timeout signal that only AbortSignal.any() referenced was collected before it
// fired, and the start then waited forever; it did so within the default timeout, not a short one.
import { afterEach, describe, expect, it } from "vitest";
import { Workdir, parseLog, startDaemon } from "../ops/support.js";
import type { RunningDaemon } from "../ops/support.js";

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work?.cleanup();
  work = undefined;
});

describe("a managed plugin that never becomes healthy", () => {
  it("is given up on after its start timeout, and the daemon serves", { timeout: 90_000 }, async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [{ name: "mute", kind: "managed", command: "/bin/sleep", args: ["60"], points: { "tool-result": {} } }],
    });
    daemon = await startDaemon({ configFile: config, awaitServing: false });
    const out = daemon.stdout;
    const msg = (name: string) => (line: string) => parseLog(line)?.msg === name;
    await out.wait(msg("plugin did not become healthy in time; stopping it"), 40_000, "the start timeout to be noticed");
    const ready = parseLog(await out.wait(msg("hookd ready"), 30_000, "the daemon to serve"));
    expect(ready?.listeners).toEqual([`unix://${work.file("hookd.sock")}`]);
  });
});
