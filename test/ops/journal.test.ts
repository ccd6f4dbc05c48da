// The daemon's log on a journal stream: when stdout is the stream JOURNAL_STREAM names (as under
// systemd), every line starts with its syslog priority, so journald records warnings as
// warnings; and what in-process and worker plugins print is a labelled log line, never raw text
// among the daemon's. Real daemons, stdout a real file standing in for the journal's socket.
import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitForFile } from "../support/daemon-process.js";
import { FIXTURES, Workdir, closeClient, hostClient, preTool, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

let work: Workdir | undefined;
const daemons: RunningDaemon[] = [];

afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop("SIGKILL");
  work?.cleanup();
  work = undefined;
});

/** Starts `hookd serve` with stdout appended to `logPath`; `journal` sets JOURNAL_STREAM to that file. */
async function serveInto(config: string, logPath: string, journal: boolean, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const fd = openSync(logPath, "a");
  const { dev, ino } = fstatSync(fd);
  try {
    daemons.push(await startDaemon({ configFile: config, awaitServing: false, stdout: fd, env: { ...env, ...(journal ? { JOURNAL_STREAM: `${dev}:${ino}` } : {}) } }));
  } finally {
    closeSync(fd);
  }
}

function linesOf(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

describe("the log on a journal stream", () => {
  it("starts each line with its priority and labels what plugins print", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    const logPath = work.file("journal.log");
    const config = work.writeConfig({
      listeners: [{ unix: socket }],
      plugins: [
        { name: "chatty", kind: "in-process", module: join(FIXTURES, "chatty.mjs") },
        { name: "chatty-worker", kind: "worker", module: join(FIXTURES, "chatty-worker.mjs") },
      ],
    });
    // A notify socket nobody listens on: READY=1 is refused, which the daemon logs as a warning.
    await serveInto(config, logPath, true, { NOTIFY_SOCKET: work.file("nobody.sock") });
    await waitForFile(logPath, '"msg":"hookd ready"', 20_000);
    const client = hostClient(socket);
    try {
      expect(await preTool(client, { sessionId: "j", callId: "c1", toolName: "Read" })).toMatchObject({ decision: "allow" });
    } finally {
      closeClient(client);
    }
    await waitForFile(logPath, '"plugin":"chatty-worker"', 20_000);
    await waitForFile(logPath, '"line":"chatty complains about c1"', 20_000);
    const lines = linesOf(work.read("journal.log"));
    // Every line is `<N>` then one JSON object; nothing a plugin printed is raw.
    for (const line of lines) expect(line, line).toMatch(/^<[3467]>\{.*\}$/);
    const records = lines.map((line) => ({ priority: Number(line.slice(1, 2)), record: JSON.parse(line.slice(3)) as Record<string, unknown> }));
    const ready = records.find((r) => r.record.msg === "hookd ready");
    expect(ready?.priority).toBe(6);
    const refused = records.find((r) => r.record.msg === "systemd notification refused");
    expect(refused?.priority).toBe(4);
    const printed = records.filter((r) => r.record.msg === "plugin output");
    expect(printed.map((r) => [r.priority, r.record.line, r.record.plugin ?? "main thread"])).toEqual(
      expect.arrayContaining([
        [6, "chatty saw Read", "main thread"],
        [3, "chatty complains about c1", "main thread"],
        [6, "chatty saw Read", "chatty-worker"],
        [3, "chatty complains about c1", "chatty-worker"],
      ]),
    );
  });

  it("writes bare JSON lines when stdout is not the journal", async () => {
    work = new Workdir();
    const logPath = work.file("plain.log");
    await serveInto(work.writeConfig({ listeners: [{ unix: work.file("hookd.sock") }], plugins: [] }), logPath, false);
    await waitForFile(logPath, '"msg":"hookd ready"', 20_000);
    for (const line of linesOf(work.read("plain.log"))) expect(line, line).toMatch(/^\{.*\}$/);
  });
});
