// A command plugin runs its Python hooks warm by default, through the same path the daemon takes
// (commandPluginSource -> registry -> the point's decision), and spawns them with `warm: false`
// or when its `warm.exclude` list names them.
// The hook tells which way it ran by naming its parent process: /bin/sh for a spawn, the fork
// server's stand-in (a Python process) when warm.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decide } from "../../daemon/src/engine/decide.js";
import { harness, preTool, workspace } from "./support.js";
import type { Harness, Workspace } from "./support.js";
import type { CommandPluginConfig } from "../../daemon/src/plugins/command/index.js";

let ws: Workspace;
const opened: Harness[] = [];
beforeEach(() => {
  ws = workspace();
});
afterEach(async () => {
  for (const h of opened.splice(0)) await h.source.close();
  ws.cleanup();
});

const WHO_RAN_ME = `import json, os, sys
data = json.load(sys.stdin)
parent = open("/proc/%d/comm" % os.getppid()).read().strip()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": parent + " ran " + data["tool_input"]["command"]}}))
`;

async function parentOfHook(config: Partial<Pick<CommandPluginConfig, "warm">>): Promise<{ reason: unknown; warmRuns: number | undefined }> {
  const script = ws.script("who.py", WHO_RAN_ME);
  const h = await harness(ws, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `/usr/bin/python3 ${script}` }] }] }, config);
  opened.push(h);
  await h.source.warm?.whenStarted();
  const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash", { command: "ls" }));
  return { reason: (outcome as { decision?: { reason?: unknown } }).decision?.reason, warmRuns: h.source.status().warm?.warmRuns };
}

describe("command plugins and warm interpreters", () => {
  it("runs a Python hook warm by default, with the answer a spawn gives", async () => {
    expect(await parentOfHook({})).toEqual({ reason: "python3 ran ls", warmRuns: 1 });
  });

  it("spawns it through /bin/sh with warm: false", async () => {
    expect(await parentOfHook({ warm: false })).toEqual({ reason: "sh ran ls", warmRuns: undefined });
  });

  it("spawns it when warm.exclude names it, by its place in the file or by a glob over its command", async () => {
    expect(await parentOfHook({ warm: { exclude: ["PreToolUse[0].hooks[0]"] } })).toEqual({ reason: "sh ran ls", warmRuns: 0 });
    expect(await parentOfHook({ warm: { exclude: ["*/who.py"] } })).toEqual({ reason: "sh ran ls", warmRuns: 0 });
    expect(await parentOfHook({ warm: { exclude: ["Stop*"] } })).toEqual({ reason: "python3 ran ls", warmRuns: 1 });
  });
});
