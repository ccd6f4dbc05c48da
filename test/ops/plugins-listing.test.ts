// `hookd plugins` and `hookd plugins --json` against a real daemon running one plugin of every
// kind (in-process, worker, remote over Attach, managed over Attach, command, and a remote that
// cannot be reached): every field the text shows, in the table or the lines under it, is in the
// JSON with the same value. The remote plugin is a raw gRPC server that also answers a call id
// never sent, so the text's "answers refused" shows too.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ALLOW, answerFrame, answering, serveFakePlugin } from "../../daemon/test/fixtures/fake-plugin.js";
import type { FakePlugin } from "../../daemon/test/fixtures/fake-plugin.js";
import { ROOT, Workdir, adminClient, closeClient, hostClient, pb, pluginEntry, preTool, runCli, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

const MANAGED_FIXTURE = join(ROOT, "test/fixtures/plugins/managed-plugin.mjs");
const TAGGER = join(ROOT, "test/ops/fixtures/tagger.mjs");

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;
let remote: FakePlugin | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  remote?.close();
  remote = undefined;
  work?.cleanup();
  work = undefined;
});

type Json = Readonly<Record<string, unknown>>;

/** The table's columns and the JSON key each one shows. A column missing here fails the test. */
const COLUMNS: Readonly<Record<string, string>> = {
  PLUGIN: "name",
  KIND: "kind",
  HEALTH: "health",
  CALLS: "calls",
  FAILURES: "failures",
  P50: "latencyP50Us",
  P99: "latencyP99Us",
  RESTARTS: "restarts",
  POINTS: "points",
  TARGET: "target",
};

/** A JSON value written the way the text writes it: the test's own rendering, not the CLI's. */
function asText(key: string, value: unknown): string {
  if (key === "points") return (value as string[]).join(",");
  if (key === "latencyP50Us" || key === "latencyP99Us") {
    const us = value as number;
    return us >= 1000 ? `${(us / 1000).toFixed(1)}ms` : `${us}µs`;
  }
  return String(value);
}

/** Every (plugin, JSON key, text) the text output shows. */
function shownFields(text: string): { plugin: string; key: string; text: string }[] {
  const [header = "", ...rest] = text.split("\n").filter((line) => line !== "");
  const titles = [...header.matchAll(/\S+/g)].map((m) => ({ title: m[0], start: m.index }));
  expect(titles.map((t) => t.title)).toEqual(Object.keys(COLUMNS));
  const noteAt = rest.findIndex((line) => /^\S+: (subscriptions|transport|last error): /.test(line));
  const rows = noteAt < 0 ? rest : rest.slice(0, noteAt);
  const notes = noteAt < 0 ? [] : rest.slice(noteAt);
  const fields: { plugin: string; key: string; text: string }[] = [];
  for (const row of rows) {
    // The table pads each cell to its column's width: a cell starts where its title does.
    const cells = titles.map((t, i) => row.slice(t.start, titles[i + 1]?.start ?? row.length).trim());
    const plugin = cells[0] ?? "";
    titles.forEach((t, i) => fields.push({ plugin, key: COLUMNS[t.title] ?? t.title, text: cells[i] ?? "" }));
  }
  for (const line of notes) {
    const note = /^(\S+): (subscriptions|transport|last error): (.*)$/.exec(line);
    if (note === null) throw new Error(`a line of \`hookd plugins\` this test does not know: ${line}`);
    const [, plugin = "", what, value = ""] = note;
    if (what === "subscriptions") fields.push({ plugin, key: "subscriptions", text: value });
    else if (what === "last error") fields.push({ plugin, key: "lastError", text: value });
    else {
      const transport = /^(stream|unary)(?:, (\d+) answers? refused)?$/.exec(value);
      if (transport === null) throw new Error(`a transport line this test does not know: ${line}`);
      fields.push({ plugin, key: "transport", text: transport[1] ?? "" });
      if (transport[2] !== undefined) fields.push({ plugin, key: "refusedAnswers", text: transport[2] });
    }
  }
  return fields;
}

describe("hookd plugins --json", () => {
  it("has every field the text shows, with the same value, for a plugin of every kind", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    // A raw Attach plugin: it answers each call, after an answer for a call id the daemon never sent.
    remote = await serveFakePlugin(`unix://${work.file("remote.sock")}`, {
      points: [pb.Point.PRE_TOOL],
      raw: { preTool: answering(ALLOW) },
      attach: true,
      onCall: (call, plugin) => {
        plugin.send(answerFrame(call.callId + 1_000n, pb.Point.PRE_TOOL, ALLOW));
        plugin.send(answerFrame(call.callId, pb.Point.PRE_TOOL, ALLOW));
      },
    });
    const hooks = work.file("hooks.json");
    writeFileSync(hooks, JSON.stringify({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] }));
    const config = work.writeConfig({
      listeners: [{ unix: socket }],
      plugins: [
        pluginEntry("policy"),
        { name: "tagger", kind: "worker", module: TAGGER },
        // First at pre-tool, so the one call below reaches it.
        { name: "raw", kind: "remote", target: remote.address, points: { "pre-tool": { priority: -10 } } },
        { name: "fixture", kind: "managed", command: process.execPath, args: [MANAGED_FIXTURE] },
        { name: "hooks", kind: "command", hooks, dialect: "claude-code" },
        // Never reachable: subscribed by its fallback, with a last error. A long backoff keeps its
        // status still while the two listings are taken.
        { name: "far", kind: "remote", target: `unix://${work.file("nobody.sock")}`, health: { initialBackoffMs: 600_000, maxBackoffMs: 600_000 } },
      ],
    });
    daemon = await startDaemon({ configFile: config, awaitServing: false, env: { XDG_RUNTIME_DIR: work.path } });
    await daemon.waitLog("hookd ready");

    const host = hostClient(socket);
    const admin = adminClient(socket);
    try {
      // raw allows at pre-tool; far's fallback fails every gate point closed, so its guard denies.
      expect(await preTool(host, { sessionId: "s", callId: "c1", toolName: "Read" })).toMatchObject({ decision: "deny", decidedBy: "far" });
      const settled = async (): Promise<Json> => {
        const { plugins } = await admin.listPlugins({}, { timeoutMs: 10_000 });
        return Object.fromEntries(plugins.map((p) => [p.name, { health: p.health, transport: p.transport, refused: p.refusedAnswers, error: p.lastError !== "" }]));
      };
      const { SERVING, UNAVAILABLE } = pb.PluginHealth;
      await expect
        .poll(settled, { timeout: 30_000 })
        .toMatchObject({
          raw: { health: SERVING, transport: "stream", refused: 1n },
          fixture: { health: SERVING, transport: "stream" },
          far: { health: UNAVAILABLE, error: true },
        });
    } finally {
      closeClient(host);
      closeClient(admin);
    }

    const text = await runCli(["plugins", "--socket", socket]);
    const json = await runCli(["plugins", "--socket", socket, "--json"]);
    expect(text.code, text.stderr).toBe(0);
    expect(json.code, json.stderr).toBe(0);
    const listed = (JSON.parse(json.stdout) as { plugins: Json[] }).plugins;
    expect(listed.map((p) => p.kind).sort()).toEqual(["command", "in-process", "managed", "remote", "remote", "worker"]);

    const fields = shownFields(text.stdout);
    expect(new Set(fields.map((f) => f.plugin))).toEqual(new Set(listed.map((p) => p.name)));
    // The lines under the table were shown, so the comparison below covers them too.
    expect(fields).toEqual(
      expect.arrayContaining([
        { plugin: "raw", key: "refusedAnswers", text: "1" },
        { plugin: "fixture", key: "transport", text: "stream" },
        { plugin: "far", key: "subscriptions", text: "none: failing every gate point" },
        expect.objectContaining({ plugin: "far", key: "lastError" }),
      ]),
    );
    for (const field of fields) {
      const plugin = listed.find((p) => p.name === field.plugin);
      expect(plugin, `${field.plugin} in --json`).toBeDefined();
      expect(plugin, `${field.plugin}: --json has no ${field.key}`).toHaveProperty(field.key);
      expect(asText(field.key, plugin?.[field.key]), `${field.plugin}.${field.key}`).toBe(field.text);
    }
  });
});
