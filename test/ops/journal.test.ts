// The daemon's log on a journal stream: when stdout is the stream JOURNAL_STREAM names (as under
// systemd), every line starts with its syslog priority, so journald records warnings as
// warnings; and what in-process and worker plugins print is a labelled log line, never raw text
// among the daemon's. Real daemons, stdout a real file standing in for the journal's socket.
import { spawn } from "node:child_process";
import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitForFile } from "../support/daemon-process.js";
import { CLI, FIXTURES, Workdir, closeClient, hostClient, preTool } from "./support.js";

let work: Workdir | undefined;
const children: { kill(signal: NodeJS.Signals): boolean }[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  work?.cleanup();
  work = undefined;
});

/** Starts `hookd serve` with stdout appended to `logPath`; `journal` sets JOURNAL_STREAM to that file. */
function serveInto(config: string, logPath: string, journal: boolean, env: NodeJS.ProcessEnv = {}): void {
  const fd = openSync(logPath, "a");
  const { dev, ino } = fstatSync(fd);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, ...(journal ? { JOURNAL_STREAM: `${dev}:${ino}` } : {}) };
  for (const key of ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", ...(journal ? [] : ["JOURNAL_STREAM"])]) if (!(key in env)) delete childEnv[key];
  const child = spawn(process.execPath, [CLI, "serve", "--config", config], { stdio: ["ignore", fd, "inherit"], env: childEnv });
  closeSync(fd);
  children.push(child);
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
    serveInto(config, logPath, true, { NOTIFY_SOCKET: work.file("nobody.sock") });
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
    serveInto(work.writeConfig({ listeners: [{ unix: work.file("hookd.sock") }], plugins: [] }), logPath, false);
    await waitForFile(logPath, '"msg":"hookd ready"', 20_000);
    for (const line of linesOf(work.read("plain.log"))) expect(line, line).toMatch(/^\{.*\}$/);
  });
});
