// The differential lane (issue #32): each scenario of published hook scripts runs with the real agent
// natively and through hookd (the same hooks file as a `kind: command` plugin); what the user sees
// must be the same unless docs/command-hooks.md lists the difference as deliberate, with why.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLAUDE_CODE_SCENARIOS } from "./differential/claude-code.js";
import { CODEX_SCENARIOS, GEMINI_SCENARIOS } from "./differential/gemini-and-codex.js";
import { corpusRoot } from "./differential/corpus.js";
import { deliberateDifferences, isDeliberate } from "./differential/deliberate.js";
import { differences } from "./differential/observation.js";
import { runScenario } from "./differential/run.js";
import type { Scenario } from "./differential/run.js";

// Two scenarios (four agent runs and two daemons) at a time: the lane shares two cores.
const CONCURRENT_SCENARIOS = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_SCENARIOS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const SCENARIOS: Record<string, readonly Scenario[]> = { "Claude Code": CLAUDE_CODE_SCENARIOS, "Gemini CLI": GEMINI_SCENARIOS, Codex: CODEX_SCENARIOS };
const table = deliberateDifferences();

describe("differential lane: users' hooks natively and through hookd", () => {
  afterAll(() => {
    const counts = Object.entries(SCENARIOS).map(([agent, list]) => `${agent}: ${list.length} scenarios`);
    console.log(`differential lane: ${counts.join(", ")}`);
  });

  it("every deliberate difference names a scenario of the lane", () => {
    const names = new Set(Object.entries(SCENARIOS).flatMap(([agent, list]) => list.map((s) => `${agent} | ${s.name}`)));
    expect(table.filter((row) => row.scenario !== "*" && !names.has(row.scenario))).toEqual([]);
  });

  for (const [agent, scenarios] of Object.entries(SCENARIOS)) {
    for (const scenario of scenarios) {
      const title = `${agent} | ${scenario.name}`;
      it.concurrent(title, async () => {
        const root = corpusRoot(scenario.source);
        const [native, hookd] = await inTurn(() => Promise.all([runScenario(scenario, "native", root), runScenario(scenario, "hookd", root)]));
        // HOOKD_DIFFERENTIAL_DUMP=<dir> keeps both observations of every scenario, to read a difference whole.
        const dump = process.env.HOOKD_DIFFERENTIAL_DUMP;
        if (dump !== undefined && dump !== "") {
          mkdirSync(dump, { recursive: true });
          writeFileSync(join(dump, `${title.replace(/[^\w.-]+/g, "_")}.json`), JSON.stringify({ native, hookd }, null, 2));
        }
        // The native run itself must have reached an answer: two identical crashes prove nothing.
        expect(native.result, JSON.stringify(native, null, 2)).toMatch(/^(success|completed)\b/);
        const unexplained = differences(native, hookd).filter((difference) => !isDeliberate(title, difference, table));
        expect(unexplained, `differences from running natively, not listed in docs/command-hooks.md`).toEqual([]);
      }, 240_000);
    }
  }
});
