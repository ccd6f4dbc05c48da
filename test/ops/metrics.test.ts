// The Prometheus endpoint of a real daemon: plugin calls by outcome, failures by cause,
// fail-closed counts, latency histograms per plugin and point, decisions, agents and sessions.
import { afterEach, describe, expect, it } from "vitest";
import { Workdir, closeClient, hostClient, pluginEntry, preTool, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  work?.cleanup();
});

/** Samples of a Prometheus text body: "name{labels}" -> value. */
function samples(body: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of body.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    map.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return map;
}

describe("metrics", () => {
  it("serves plugin, decision, failure, latency, agent and session metrics in Prometheus text", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({
      configFile: work.writeConfig({
        listeners: [{ unix: socket }],
        plugins: [pluginEntry("policy", { points: { "pre-tool": { deadlineMs: 200 } } })],
        metrics: { listen: "127.0.0.1:0" },
      }),
      awaitServing: false,
    });
    const { address } = await daemon.waitLog("metrics serving");
    await daemon.waitLog("hookd ready");
    const client = hostClient(socket);
    const stream = client.session({ metadata: { "x-hookd-agent": "metrics-agent" } });
    try {
      await preTool(client, { sessionId: "m", callId: "1", toolName: "Bash" });
      await preTool(client, { sessionId: "m", callId: "2", toolName: "Read" });
      expect(await preTool(client, { sessionId: "m", callId: "3", toolName: "Hang" })).toMatchObject({ decision: "deny" });
      await stream.send({ frame: { case: "open", value: { sessionId: "hosted-1" } } });
      // Read up to "opened" without leaving the loop: breaking out of it would cancel the stream.
      const responses = stream.responses[Symbol.asyncIterator]();
      for (let next = await responses.next(); next.done !== true && next.value.frame.case !== "opened"; next = await responses.next());

      const response = await fetch(`http://${String(address)}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
      const body = await response.text();
      const m = samples(body);
      const at = 'plugin="policy",point="pre-tool"';
      expect(m.get(`hookd_plugin_calls_total{${at},outcome="answered"}`)).toBe(2);
      expect(m.get(`hookd_plugin_calls_total{${at},outcome="fault"}`)).toBe(1);
      expect(m.get(`hookd_plugin_failures_total{${at},cause="deadline_exceeded"}`)).toBe(1);
      expect(m.get(`hookd_plugin_failure_policy_total{${at},policy="fail-closed"}`)).toBe(1);
      expect(m.get(`hookd_plugin_call_duration_seconds_count{${at}}`)).toBe(3);
      expect(m.get(`hookd_plugin_call_duration_seconds_bucket{${at},le="+Inf"}`)).toBe(3);
      // Buckets are cumulative, in order of le, ending in +Inf. Which bucket a call lands in is a
      // measured time, so no assertion here depends on it.
      const buckets = [...m].filter(([name]) => name.startsWith(`hookd_plugin_call_duration_seconds_bucket{${at},`));
      expect(buckets.length).toBeGreaterThan(1);
      expect(buckets.at(-1)?.[0]).toContain('le="+Inf"');
      const counts = buckets.map(([, count]) => count);
      expect(counts).toEqual([...counts].sort((x, y) => x - y));
      expect(m.get('hookd_decisions_total{point="pre-tool",decision="deny"}')).toBe(2);
      expect(m.get('hookd_decisions_total{point="pre-tool",decision="allow"}')).toBe(1);
      expect(m.get("hookd_sessions_open")).toBe(1);
      expect(m.get("hookd_agents_connected")).toBe(1);
      expect(m.get("hookd_streams_open")).toBe(1);
      expect(m.get('hookd_plugin_restarts_total{plugin="policy"}')).toBe(0);
      expect(m.get('hookd_plugin_health{plugin="policy",kind="in-process",health="serving"}')).toBe(1);
      expect(body).toContain("# TYPE hookd_plugin_call_duration_seconds histogram");
      expect((await fetch(`http://${String(address)}/other`)).status).toBe(404);
    } finally {
      stream.cancel();
      closeClient(client);
    }
  });
});
