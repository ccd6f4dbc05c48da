// The Python SDK's README plugin (sdk-python/README.md), extracted from the README, run by a real
// `hookd serve` as a managed plugin and driven through the agent SDK's evaluate API: the code a
// reader copies denies and redacts as the README says, so the README cannot drift. Prerequisites:
// `npm run build` and `npm run setup:polyglot` (.venv with sdk-python installed); a missing one
// fails the test.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connectHost, snapshotJson, text } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { REPO, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const PYTHON = join(REPO, ".venv/bin/python");
const README = join(REPO, "sdk-python/README.md");
const TOKEN = `ghp_${"a1".repeat(18)}`;

/** The README's first python block: the plugin it shows. */
function readmePlugin(): string {
  const found = /```python\n([\s\S]*?)```/.exec(readFileSync(README, "utf8"));
  if (found?.[1] === undefined) throw new Error(`no python block in ${README}`);
  return found[1];
}

let daemon: DaemonProcess;
let client: HostClient;
let sessions = 0;

beforeAll(async () => {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`npm run setup:polyglot\``);
  execFileSync(PYTHON, ["-c", "import hookd_plugin"], { stdio: "pipe" });
  const dir = join(REPO, "test/.tmp/python-sdk-readme");
  await mkdir(dir, { recursive: true });
  const plugin = join(dir, "guard.py");
  await writeFile(plugin, readmePlugin());
  daemon = await startDaemon({
    config: { plugins: [{ name: "guard", kind: "managed", command: PYTHON, args: [plugin], env: { PYTHONUNBUFFERED: "1" }, required: true, startTimeoutMs: 30_000 }] },
    timeoutMs: 40_000,
  });
  client = connectHost(daemon.target, { agentId: "readme-agent" });
}, 60_000);

afterAll(async () => {
  client?.close();
  await daemon?.stop();
});

function call(session: SessionInfo, command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 };
}
const session = (): SessionInfo => ({ sessionId: `readme-${++sessions}`, agentId: "readme-agent", cwd: "/" });

describe("the Python SDK README plugin, through a real daemon", () => {
  it("is under 40 lines", () => {
    expect(readmePlugin().trimEnd().split("\n").length).toBeLessThan(40);
  });

  it("denies destructive commands at pre-tool and lets others through", async () => {
    for (const command of ["rm -rf /", "git push origin main --force"]) {
      const s = session();
      const { decision, trace } = await client.evaluatePreTool({ session: s, call: call(s, command) });
      expect({ decision, decidedBy: trace.decidedBy }).toEqual({ decision: { kind: "deny", reason: `guard refuses ${JSON.stringify(command).replaceAll('"', "'")}` }, decidedBy: "guard" });
    }
    const s = session();
    const { decision, trace } = await client.evaluatePreTool({ session: s, call: call(s, "ls") });
    expect({ decision, decidedBy: trace.decidedBy }).toEqual({ decision: { kind: "allow" }, decidedBy: "default" });
  });

  it("redacts tokens from tool output at post-tool, and passes clean output", async () => {
    const s = session();
    const output = { isError: false as const, value: "out", content: [text(`token ${TOKEN} end`)], contexts: [] };
    const { result, trace } = await client.evaluatePostTool({ session: s, call: call(s, "cat .env"), result: output });
    expect({ content: result.isError ? undefined : result.content, decidedBy: trace.decidedBy }).toEqual({ content: [text("token [REDACTED] end")], decidedBy: "guard" });
    const clean = await client.evaluatePostTool({ session: s, call: call(s, "ls"), result: { ...output, content: [text("README.md")] } });
    expect(clean.trace.decidedBy).toBe("default");
  });

  it("is called over the Attach stream", async () => {
    const admin = createClient(pb.HookAdmin, daemon.target);
    try {
      const { plugins } = await admin.listPlugins({}, { timeoutMs: 10_000 });
      expect(plugins.map((p) => ({ name: p.name, transport: p.transport }))).toEqual([{ name: "guard", transport: "stream" }]);
    } finally {
      closeClient(admin);
    }
  });
});
