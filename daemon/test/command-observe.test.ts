// The command kind's events without a typed point (plugins/command/observe.ts): what each event's
// matcher is matched against, as Claude Code reads it; matcher syntax per event and dialect; and
// the stdin payload (the agent's own, the dialect's common fields filled in where it lacks them).
import { parseJson } from "@hookd/sdk";
import type { AgentEventEvent } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import { knownAgent } from "../src/agents/registry.js";
import { selectObserved } from "../src/plugins/command/observe.js";
import { matchValues as observedMatchValues, parseHooks } from "./fixtures/agent-calls.js";

const observedPayload = (dialect: string, ev: AgentEventEvent, extras: Parameters<ReturnType<typeof knownAgent>["commandHooks"]["observedPayload"]>[1]): string => knownAgent(dialect).commandHooks.observedPayload(ev, extras);

const cmd = (command: string) => ({ type: "command", command });
const event = (eventName: string, payload: string, dialect: AgentEventEvent["dialect"] = "claude-code"): AgentEventEvent => ({
  session: { sessionId: "s1", agentId: "cc", cwd: "/repo" },
  dialect,
  eventName,
  payload: parseJson(payload),
});

describe("observed events", () => {
  it("match on the field the agent matches on; an event without a matcher field, or a payload without it, runs every group", () => {
    expect(observedMatchValues("Notification", parseJson('{"notification_type":"idle_prompt"}'))).toEqual(["idle_prompt"]);
    expect(observedMatchValues("PreCompact", parseJson('{"trigger":"auto"}'))).toEqual(["auto"]);
    expect(observedMatchValues("FileChanged", parseJson('{"file_path":"/repo/.envrc"}'))).toEqual([".envrc"]);
    expect(observedMatchValues("PostToolBatch", parseJson('{"tool_calls":[{"tool_name":"Read"},{"tool_name":"Bash"}]}'))).toEqual(["Read", "Bash"]);
    expect(observedMatchValues("CwdChanged", parseJson('{"old_cwd":"/a","new_cwd":"/b"}'))).toBeUndefined();
    expect(observedMatchValues("Notification", parseJson("{}"))).toBeUndefined();
  });

  it("Claude Code's exact-name syntax where the agent applies it, a regex elsewhere; Codex: always a regex", () => {
    const file = {
      PreCompact: [{ matcher: "manual", hooks: [cmd("m.sh")] }, { hooks: [cmd("all.sh")] }],
      FileChanged: [{ matcher: "env", hooks: [cmd("env.sh")] }],
      TaskCreated: [{ matcher: "[", hooks: [cmd("task.sh")] }],
    };
    const model = parseHooks(file, "claude-code", "f");
    const run = (name: string, payload: string) => selectObserved(model.groups[name] ?? [], observedMatchValues(name, parseJson(payload))).hooks.map((h) => h.command);
    expect(run("PreCompact", '{"trigger":"manual"}')).toEqual(["m.sh", "all.sh"]);
    expect(run("PreCompact", '{"trigger":"manualish"}')).toEqual(["all.sh"]);
    // FileChanged's matcher is a regex in Claude Code (an unanchored match of the file's name).
    expect(run("FileChanged", '{"file_path":"/repo/.envrc"}')).toEqual(["env.sh"]);
    // A batch without tool calls matches only match-all groups.
    const batch = parseHooks({ PostToolBatch: [{ matcher: "Bash", hooks: [cmd("bash.sh")] }, { hooks: [cmd("any.sh")] }] }, "claude-code", "f");
    expect(selectObserved(batch.groups.PostToolBatch ?? [], observedMatchValues("PostToolBatch", parseJson('{"tool_calls":[]}'))).hooks.map((h) => h.command)).toEqual(["any.sh"]);
    expect(selectObserved(batch.groups.PostToolBatch ?? [], observedMatchValues("PostToolBatch", parseJson('{"tool_calls":[{"tool_name":"Bash"}]}'))).hooks.map((h) => h.command)).toEqual(["bash.sh", "any.sh"]);
    // TaskCreated has no matcher field: its matcher is ignored (and not compiled).
    expect(run("TaskCreated", '{"task_id":"1"}')).toEqual(["task.sh"]);
    expect(model.notes).toEqual(["TaskCreated[0].matcher: ignored (TaskCreated has no matcher; every hook of the event runs)"]);
    const codex = parseHooks({ PreCompact: [{ matcher: "manual", hooks: [cmd("m.sh")] }] }, "codex", "f");
    expect(selectObserved(codex.groups.PreCompact ?? [], ["manualish"]).hooks.map((h) => h.command)).toEqual(["m.sh"]);
    expect(() => parseHooks({ Notification: [{ matcher: "perm(", hooks: [cmd("x")] }] }, "claude-code", "f")).toThrow(/f: Notification\[0\]\.matcher: invalid regular expression/);
  });

  it("stdin: the agent's payload wins over the common fields, which fill what it lacks; Codex adds turn_id and model, Claude Code a newline", () => {
    const full = event("PreCompact", '{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"plan","hook_event_name":"PreCompact","trigger":"auto","n":12345678901234567890}');
    expect(observedPayload("claude-code", full, {})).toBe('{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"plan","hook_event_name":"PreCompact","trigger":"auto","n":12345678901234567890}\n');
    const bare = event("PreCompact", '{"trigger":"manual"}', "codex");
    expect(JSON.parse(observedPayload("codex", bare, { transcriptPath: "/x.jsonl", model: "gpt-5" }))).toEqual({
      session_id: "s1",
      turn_id: "0",
      transcript_path: "/x.jsonl",
      cwd: "/repo",
      permission_mode: "default",
      model: "gpt-5",
      trigger: "manual",
      hook_event_name: "PreCompact",
    });
    expect(observedPayload("codex", bare, {}).endsWith("}")).toBe(true);
  });
});
