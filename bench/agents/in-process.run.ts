// `npm run bench:agents`, the in-process agents: the per-event latency OpenCode and pi see from
// hookd's plugin / extension (gRPC to hookd, the policy of the real-agent lane), measured inside
// the agent by two timer plugins listed around it, median of several runs of the lane's scenario;
// beside it the same timers with nothing between them (a trivial native plugin's cost). A call
// hookd denies ends at hookd's plugin (a throw, a block), so it has no sample. Runs only under
// bench/agents.mjs; writes bench/results/agents-in-process.json and prints a table.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO } from "../../test/support/daemon-process.js";
import { startFakeModel } from "../../test/agents/fake-model/server.js";
import { tempDir } from "../../test/agents/support/agents.js";
import { runOpenCode } from "../../test/agents/support/opencode.js";
import { runPi } from "../../test/agents/support/pi.js";
import { startPolicyDaemon } from "../../test/agents/support/policy.js";
import type { PolicyDaemon } from "../../test/agents/support/policy.js";
import { SCENARIO_PROMPT, prepareCwd, scenarioScript } from "../../test/agents/support/scenario.js";

const RUNS = Number(process.env.HOOKD_BENCH_RUNS ?? "5");

/** Each agent's events, and the key that pairs a start with its end. */
const EVENTS = {
  opencode: { "chat.message": "i.sessionID", "tool.execute.before": "i.callID", "tool.execute.after": "i.callID" },
  pi: { input: "ctx.sessionManager.getSessionId()", tool_call: "e.toolCallId", tool_result: "e.toolCallId", agent_before_settle: "ctx.sessionManager.getSessionId()" },
} as const;
type Agent = keyof typeof EVENTS;

/** A timer plugin: the first marks each event's start, the second appends "<event> <ms>" to the log. */
function timerSource(agent: Agent, end: boolean, log: string): string {
  const mark = (event: string, key: string): string =>
    end
      ? `{ const k = ${JSON.stringify(event)} + ${key}; const s = t.get(k); if (s !== undefined) appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(event)} + " " + (performance.now() - s) + "\\n"); t.delete(k); }`
      : `{ t.set(${JSON.stringify(event)} + ${key}, performance.now()); }`;
  const head = `import { appendFileSync } from "node:fs";\nconst t = (globalThis.__hookdBenchTimers ??= new Map());\n`;
  const entries = Object.entries(EVENTS[agent]);
  if (agent === "opencode") return `${head}export const Timer${end ? "End" : "Start"} = async () => ({\n${entries.map(([event, key]) => `  ${JSON.stringify(event)}: async (i) => ${mark(event, key)},`).join("\n")}\n});\n`;
  return `${head}export default function (pi) {\n${entries.map(([event, key]) => `  pi.on(${JSON.stringify(event)}, async (e, ctx) => ${mark(event, key)});`).join("\n")}\n}\n`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function oneRun(agent: Agent, policy: PolicyDaemon, hookd: boolean): Promise<{ event: string; ms: number }[]> {
  const model = await startFakeModel(scenarioScript);
  try {
    const home = await tempDir(`bench-${agent}`);
    const cwd = await tempDir("bench-cwd");
    prepareCwd(cwd);
    const log = join(home, "timings.log");
    writeFileSync(log, "");
    const before = join(home, `timer-start.${agent === "pi" ? "ts" : "js"}`);
    const after = join(home, `timer-end.${agent === "pi" ? "ts" : "js"}`);
    writeFileSync(before, timerSource(agent, false, log));
    writeFileSync(after, timerSource(agent, true, log));
    const options = { home, cwd, modelUrl: model.url, prompt: SCENARIO_PROMPT, env: { HOOKD_TARGET: policy.daemon.target }, around: { before: [before], after: [after], hookd } };
    const run = agent === "opencode" ? await runOpenCode(options) : await runPi(options);
    expect(run.code, run.stderr).toBe(0);
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        const [event = "", ms = "0"] = line.split(" ");
        return { event, ms: Number(ms) };
      });
  } finally {
    await model.close();
  }
}

it("measures the per-event latency of hookd's in-process integrations", async () => {
  const policy = await startPolicyDaemon();
  const results: { agent: string; path: string; event: string; medianMs: number; samples: number }[] = [];
  try {
    for (const agent of Object.keys(EVENTS) as Agent[]) {
      for (const [path, hookd] of [["plugin", true], ["trivial plugin", false]] as const) {
        const byEvent = new Map<string, number[]>();
        for (let i = 0; i < RUNS; i++) for (const sample of await oneRun(agent, policy, hookd)) byEvent.set(sample.event, [...(byEvent.get(sample.event) ?? []), sample.ms]);
        expect(byEvent.size, `${agent} ${path}: no timings`).toBeGreaterThan(0);
        for (const [event, values] of byEvent) results.push({ agent, path, event, medianMs: median(values), samples: values.length });
        const all = [...byEvent.values()].flat();
        results.push({ agent, path, event: "(all events)", medianMs: median(all), samples: all.length });
      }
    }
  } finally {
    await policy.stop();
  }
  mkdirSync(join(REPO, "bench/results"), { recursive: true });
  writeFileSync(join(REPO, "bench/results/agents-in-process.json"), `${JSON.stringify({ runs: RUNS, results }, null, 2)}\n`);
  const lines = ["agent     path            event                 median ms  samples", ...results.map((r) => `${r.agent.padEnd(9)} ${r.path.padEnd(15)} ${r.event.padEnd(21)} ${r.medianMs.toFixed(2).padStart(9)}  ${String(r.samples).padStart(7)}`)];
  process.stdout.write(`\n${lines.join("\n")}\n`);
}, 900_000);
