// Claude Code's event table (daemon/src/agents/claude-code/events.ts) against the installed
// binary: the hook event list the pinned release declares (one array literal in its bundle) is
// exactly the events hookd reads for Claude Code, so an event the pinned release adds or drops
// fails here (2.1.337 added Interrupt: 35 events).
import { readFileSync, realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claudeCode } from "../../daemon/src/agents/claude-code/index.js";
import { agentBin } from "./support/agents.js";

/** The longest event list literal in the binary that starts as Claude Code's does (the binary is read as bytes: it is larger than a string may be). */
function binaryEvents(): string[] {
  const binary = readFileSync(realpathSync(agentBin("claude")));
  const start = Buffer.from('["PreToolUse","PostToolUse"');
  let longest: string[] = [];
  for (let at = binary.indexOf(start); at !== -1; at = binary.indexOf(start, at + 1)) {
    const literal = binary.subarray(at, binary.indexOf("]", at) + 1).toString("latin1");
    if (!/^\[("\w+",?)+\]$/.test(literal)) continue;
    const names = JSON.parse(literal) as string[];
    if (names.length > longest.length) longest = names;
  }
  return longest.sort();
}

describe("Claude Code's hook events", () => {
  it("are exactly those of the installed binary's event list", () => {
    const declared = binaryEvents();
    expect(declared).toHaveLength(35);
    expect(Object.keys(claudeCode.commandHooks.events).sort()).toEqual(declared);
  });
});
