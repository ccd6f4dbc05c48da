// The real Claude Code with hookd as its http hook backend, and hookd running a Claude Code
// hooks file as a `kind: command` plugin (real /bin/sh hooks): the PreToolUse hook's stdin has
// the transcript_path and permission_mode the real binary sent (remembered per session by the
// HTTP endpoint) and every other field it sent, as a natively run hook's stdin has them, and a PostToolBatch hook (an event without a typed point) runs at agent-event
// with the binary's own payload; its exit 2 is not honoured (observe-only), so the turn goes on.
// The same for the real Gemini CLI through the C forwarder and a `dialect: gemini` file: its
// PreCompress hook (matcher "auto", Gemini's headless trigger) runs at agent-event, and its
// BeforeTool hook sees the transcript_path Gemini sent.
import { existsSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { scripted, startFakeModel } from "./fake-model/server.js";
import { forwarderCommand, tempDir } from "./support/agents.js";
import { runGemini } from "./support/gemini.js";
import { runClaude } from "./support/claude.js";
import type { ClaudeRun } from "./support/claude.js";

const records = (path: string): Record<string, unknown>[] =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

describe("Claude Code through hookd's http endpoint, a command plugin behind it", () => {
  let daemon: DaemonProcess;
  let run: ClaudeRun;
  let dir: string;
  let cwd: string;

  beforeAll(async () => {
    dir = await tempDir("command-kind");
    cwd = await tempDir("command-kind-cwd");
    const hook = (name: string, code: number): string => {
      const path = join(dir, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\ncat >> "${dir}/${name}.jsonl"\necho >> "${dir}/${name}.jsonl"\n${code === 2 ? "echo 'batch blocked' >&2\n" : ""}exit ${code}\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const file = join(dir, "settings.json");
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook("pretool", 0) }] }],
          PostToolBatch: [{ matcher: "Bash", hooks: [{ type: "command", command: hook("batch", 2) }] }],
        },
      }),
    );
    daemon = await startDaemon({ config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "cc-file", kind: "command", hooks: file, dialect: "claude-code" }] } });
    const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
    const model = await startFakeModel(scripted([{ kind: "shell", command: "echo ran > ran.txt" }]));
    const home = await tempDir("command-kind-home");
    const http = (event: string) => [{ matcher: "*", hooks: [{ type: "http", url: `${url}/hooks/${event}`, timeout: 30 }] }];
    try {
      run = await runClaude({ home, cwd, modelUrl: model.url, hooks: { PreToolUse: http("PreToolUse"), PostToolBatch: http("PostToolBatch") }, prompt: "Write the file, then say DONE.", args: ["--allowedTools", "Bash"] });
      // The same hook run by Claude Code itself: what its stdin holds natively.
      const native = await runClaude({
        home: await tempDir("command-kind-native-home"),
        cwd: await tempDir("command-kind-native-cwd"),
        modelUrl: model.url,
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook("native-pretool", 0) }] }] },
        prompt: "Write the file, then say DONE.",
        args: ["--allowedTools", "Bash"],
      });
      expect(native.code, native.stderr).toBe(0);
    } finally {
      await model.close();
    }
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
  });

  it("the PreToolUse hook sees the transcript_path and permission_mode Claude Code sent", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, "ran.txt"))).toBe(true);
    const [pre] = records(join(dir, "pretool.jsonl"));
    expect(pre).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo ran > ran.txt" } });
    // hookd knows them only because the binary sent them: its own defaults are "" and "default".
    expect(String(pre?.transcript_path)).toMatch(/\.claude\/projects\/.+\.jsonl$/);
    expect(typeof pre?.permission_mode).toBe("string");
    expect(pre?.permission_mode).not.toBe("");
  });

  it("the PreToolUse hook's stdin has every field Claude Code gives it natively (prompt_id and the rest), in its order", () => {
    const [pre] = records(join(dir, "pretool.jsonl"));
    const [native] = records(join(dir, "native-pretool.jsonl"));
    expect(Object.keys(pre ?? {})).toEqual(Object.keys(native ?? {}));
  });

  it("the PostToolBatch hook runs at agent-event with the binary's payload; its block is logged as not honoured", async () => {
    const batches = records(join(dir, "batch.jsonl"));
    expect(batches.length).toBeGreaterThan(0);
    expect(batches[0]).toMatchObject({ hook_event_name: "PostToolBatch", tool_calls: [{ tool_name: "Bash" }] });
    const line = await daemon.waitForLog((l) => l.msg === "command hook answer not honoured (agent-event is observe-only)");
    expect(String(line.note)).toContain("batch blocked");
  });
});

describe("Gemini CLI through the forwarder, a Gemini hooks file as a command plugin behind it", () => {
  let daemon: DaemonProcess;
  let run: Awaited<ReturnType<typeof runGemini>>;
  let dir: string;
  let cwd: string;

  beforeAll(async () => {
    dir = await tempDir("command-kind-gemini");
    cwd = await tempDir("command-kind-gemini-cwd");
    const hook = (name: string): string => {
      const path = join(dir, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\ncat >> "${dir}/${name}.jsonl"\necho >> "${dir}/${name}.jsonl"\necho '{}'\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const file = join(dir, "gemini-hooks.json");
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreCompress: [{ matcher: "auto", hooks: [{ type: "command", command: hook("precompress") }] }, { matcher: "manual", hooks: [{ type: "command", command: hook("never") }] }],
          BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: hook("beforetool") }] }],
        },
      }),
    );
    daemon = await startDaemon({ config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "gm-file", kind: "command", hooks: file, dialect: "gemini" }] } });
    const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
    const model = await startFakeModel(scripted([{ kind: "shell", command: "echo ran > ran.txt" }]));
    const home = await tempDir("command-kind-gemini-home");
    const forward = (event: string) => [{ hooks: [{ type: "command", command: forwarderCommand("c-forwarder", "gemini", event, url), timeout: 60_000 }] }];
    try {
      run = await runGemini({ home, cwd, modelUrl: model.url, hooks: { PreCompress: forward("PreCompress"), BeforeTool: forward("BeforeTool") }, prompt: "Write the file, then say DONE." });
    } finally {
      await model.close();
    }
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
  });

  it("the PreCompress hook runs at agent-event, matched on Gemini's trigger; BeforeTool sees Gemini's transcript_path", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, "ran.txt"))).toBe(true);
    const compress = records(join(dir, "precompress.jsonl"));
    expect(compress.length).toBeGreaterThan(0);
    expect(compress[0]).toMatchObject({ hook_event_name: "PreCompress", trigger: "auto" });
    expect(records(join(dir, "never.jsonl"))).toEqual([]);
    const [before] = records(join(dir, "beforetool.jsonl"));
    expect(before).toMatchObject({ hook_event_name: "BeforeTool", tool_name: "run_shell_command" });
    expect(String(before?.transcript_path)).toMatch(/\.gemini\/tmp\/.+/);
    expect(before?.transcript_path).toBe(compress[0]?.transcript_path);
  });
});
