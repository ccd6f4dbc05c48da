// The real Claude Code with hookd as its http hook backend and a Claude Code hooks file behind it
// as a `kind: command` plugin (real /bin/sh hooks): a hook's systemMessage reaches the user as
// Claude Code shows it natively ("PreToolUse:Bash says: ..." in the stream), a blocked prompt
// comes back as a block with its reason and the user's prompt (not "Operation stopped by hook"),
// and a hook's own continue:false with its stopReason still stops the agent as written.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { scripted, startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { runClaude } from "./support/claude.js";
import type { ClaudeRun } from "./support/claude.js";

const SAID = "this command is logged";
const BLOCKED = "prompts about forbidden things are blocked";
const FROZEN = "the session is frozen";

/** Claude Code's own notices in its stream: what the user is shown beside the conversation. */
const shown = (run: ClaudeRun): string[] => run.events.flatMap((event) => (event.type === "system" && event.subtype === "informational" ? [String(event.content)] : []));

describe("Claude Code through hookd: what a hook tells the user, and a blocked prompt", () => {
  let daemon: DaemonProcess;
  let model: FakeModel;
  let said: ClaudeRun;
  let blocked: ClaudeRun;
  let stopped: ClaudeRun;

  beforeAll(async () => {
    const dir = await tempDir("user-notice");
    const cwd = await tempDir("user-notice-cwd");
    const script = (name: string, body: string): string => {
      const path = join(dir, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const file = join(dir, "settings.json");
    const json = (value: unknown): string => `'${JSON.stringify(value)}'`;
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          // A warn-only rule: nothing but a message for the user.
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: script("warn", `cat >/dev/null; echo ${json({ systemMessage: SAID })}`) }] }],
          UserPromptSubmit: [
            {
              hooks: [
                {
                  type: "command",
                  command: script(
                    "gate",
                    `in=$(cat)\ncase "$in" in\n  *forbidden*) echo ${json({ decision: "block", reason: BLOCKED })} ;;\n  *freeze*) echo ${json({ continue: false, stopReason: FROZEN })} ;;\nesac`,
                  ),
                },
              ],
            },
          ],
        },
      }),
    );
    daemon = await startDaemon({ config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "cc-file", kind: "command", hooks: file, dialect: "claude-code" }] } });
    const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
    const http = (event: string) => [{ ...(event === "PreToolUse" ? { matcher: "*" } : {}), hooks: [{ type: "http", url: `${url}/hooks/${event}`, timeout: 30 }] }];
    const hooks = { PreToolUse: http("PreToolUse"), UserPromptSubmit: http("UserPromptSubmit") };
    model = await startFakeModel(scripted([{ kind: "shell", command: "echo ran > ran.txt" }]));
    const run = async (prompt: string): Promise<ClaudeRun> => runClaude({ home: await tempDir("user-notice-home"), cwd, modelUrl: model.url, hooks, prompt, args: ["--allowedTools", "Bash"] });
    said = await run("Write the file, then say DONE.");
    blocked = await run("do the forbidden thing");
    stopped = await run("freeze everything");
  }, 180_000);

  afterAll(async () => {
    await model?.close();
    await daemon?.stop();
  });

  it("a hook's systemMessage is shown to the user as Claude Code shows its own hooks' (never sent to the model)", () => {
    expect(said.code, said.stderr).toBe(0);
    expect(shown(said)).toContain(`PreToolUse:Bash says: ${SAID}`);
    expect(model.allText()).not.toContain(SAID);
  });

  it("a blocked prompt is a block with its reason, and the user keeps the prompt: not 'Operation stopped by hook'", () => {
    const notices = shown(blocked);
    expect(notices).toContain(`UserPromptSubmit operation blocked by hook:\n${BLOCKED}\n\nOriginal prompt: do the forbidden thing`);
    expect(notices.join("\n")).not.toContain("Operation stopped by hook");
  });

  it("a hook's own continue:false with its stopReason still stops the agent, as written", () => {
    expect(shown(stopped).join("\n")).toContain(FROZEN);
  });
});
