// The standard process and runtime metrics of a real daemon, in the same /metrics exposition as
// hookd's own: CPU seconds (growing with work), resident memory, open and max fds, event-loop
// lag, heap, GC by kind; every family named once.
import { afterEach, describe, expect, it } from "vitest";
import { Workdir, closeClient, hostClient, pluginEntry, preTool, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  work?.cleanup();
});

function samples(body: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of body.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    map.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return map;
}

describe("runtime metrics", () => {
  it("exposes CPU, memory, fds, event-loop lag, heap and GC beside hookd's families", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({ configFile: work.writeConfig({ listeners: [{ unix: socket }], plugins: [pluginEntry("policy")], metrics: { listen: "127.0.0.1:0" } }), awaitServing: false });
    const { address } = await daemon.waitLog("metrics serving");
    await daemon.waitLog("hookd ready");
    const scrape = async (): Promise<string> => (await fetch(`http://${String(address)}/metrics`)).text();

    const before = await scrape();
    const first = samples(before);
    const client = hostClient(socket);
    try {
      for (let i = 0; i < 100; i++) await preTool(client, { sessionId: "rt", callId: String(i), toolName: i % 2 === 0 ? "Bash" : "Read" });
    } finally {
      closeClient(client);
    }
    const after = await scrape();
    const m = samples(after);

    // hookd's own families first, the runtime ones after them, none twice.
    expect(m.get('hookd_decisions_total{point="pre-tool",decision="deny"}')).toBe(50);
    const types = after.split("\n").filter((line) => line.startsWith("# TYPE "));
    expect(new Set(types).size).toBe(types.length);
    expect(after.indexOf("# TYPE hookd_plugin_calls_total")).toBeLessThan(after.indexOf("# TYPE process_cpu_seconds_total"));

    const cpuBefore = first.get("process_cpu_seconds_total") ?? 0;
    expect(cpuBefore).toBeGreaterThan(0);
    expect(m.get("process_cpu_seconds_total")).toBeGreaterThan(cpuBefore);
    expect(m.get("process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(m.get("process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
    const openFds = m.get("process_open_fds") ?? 0;
    expect(openFds).toBeGreaterThan(2);
    expect(m.get("process_max_fds")).toBeGreaterThanOrEqual(openFds);
    const started = m.get("process_start_time_seconds") ?? 0;
    expect(started).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(started).toBeLessThanOrEqual(Date.now() / 1000);
    expect(m.get("nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(m.get("nodejs_eventloop_lag_p99_seconds")).toBeGreaterThan(0);
    expect(m.get("nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(m.get("nodejs_heap_size_total_bytes")).toBeGreaterThanOrEqual(m.get("nodejs_heap_size_used_bytes") ?? 0);
    expect(after).toContain("# TYPE nodejs_gc_duration_seconds histogram");
    expect([...m.keys()].some((key) => key.startsWith("nodejs_version_info{"))).toBe(true);
  });
});
