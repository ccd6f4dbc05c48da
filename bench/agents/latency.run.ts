// `npm run bench:agents`: the per-event hook latency each real agent sees through each path to
// hookd, measured from the agent's side, median of several runs of the real-agent scenario
// (test/agents). Claude Code reports its own hook timings in its debug log (command hooks:
// "finished … (N ms)"; http hooks: the POST and its response, timestamped); Codex reports none, so
// its hook commands run under bench/agents/timer.c, which times the process Codex waits for;
// so do Gemini CLI's (it reports a duration only for a failed hook) and GitHub Copilot CLI's,
// whose figures stand beside a trivial native hook's (a shell that reads stdin and prints {}).
// HOOKD_BENCH_AGENT names one agent to measure alone.
// Runs only under bench/agents.mjs (HOOKD_BENCH_AGENTS=1), never in npm test: time belongs to the
// bench. Writes bench/results/agents.json and prints a table.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO } from "../../test/support/daemon-process.js";
import { startFakeModel } from "../../test/agents/fake-model/server.js";
import { tempDir } from "../../test/agents/support/agents.js";
import type { HookPath } from "../../test/agents/support/agents.js";
import { claudeHooks, runClaude } from "../../test/agents/support/claude.js";
import { COPILOT_EVENTS, copilotHooks, runCopilot } from "../../test/agents/support/copilot.js";
import { runCodex } from "../../test/agents/support/codex.js";
import { geminiHooks, runGemini } from "../../test/agents/support/gemini.js";
import { startPolicyDaemon } from "../../test/agents/support/policy.js";
import type { PolicyDaemon } from "../../test/agents/support/policy.js";
import { SCENARIO_PROMPT, prepareCwd, scenarioScript } from "../../test/agents/support/scenario.js";
import { concrete, documentedHooks } from "../../test/agents/support/snippets.js";

const RUNS = Number(process.env.HOOKD_BENCH_RUNS ?? "5");
type Sample = { readonly event: string; readonly ms: number };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Claude Code's own record of each hook's duration, from its debug log. */
function claudeSamples(log: string): Sample[] {
  const samples: Sample[] = [];
  let post: { event: string; at: number } | undefined;
  for (const line of log.split("\n")) {
    const at = Date.parse(line.slice(0, 24));
    const command = /Hooks: ([A-Za-z]+)[^[]*\[.*\] finished with status \d+ \((\d+(?:\.\d+)?)ms\)/.exec(line);
    if (command !== null) samples.push({ event: command[1] ?? "", ms: Number(command[2]) });
    const sent = /Hooks: HTTP hook POST to \S+\/hooks\/([A-Za-z]+)/.exec(line);
    if (sent !== null) post = { event: sent[1] ?? "", at };
    if (/Hooks: HTTP hook response status/.test(line) && post !== undefined) {
      samples.push({ event: post.event, ms: at - post.at });
      post = undefined;
    }
  }
  return samples;
}

function timed(hooks: Record<string, unknown>, timer: string, log: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    out[event] = (groups as { hooks: { command: string }[] }[]).map((group) => ({
      ...group,
      hooks: group.hooks.map((hook) => ({ ...hook, command: `${timer} ${log} ${event} ${hook.command}` })),
    }));
  }
  return out;
}

async function claudeRun(policy: PolicyDaemon, path: HookPath): Promise<Sample[]> {
  const model = await startFakeModel(scenarioScript);
  try {
    const home = await tempDir("bench-claude");
    const cwd = await tempDir("bench-cwd");
    prepareCwd(cwd);
    const debug = join(home, "debug.log");
    const hooks = path === "http" ? concrete(documentedHooks("claude-code-http"), "c-forwarder", policy.hookUrl) : claudeHooks(path, policy.hookUrl);
    const run = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: SCENARIO_PROMPT, args: ["--allowedTools", "Bash", "--debug-file", debug] });
    expect(run.code, run.stderr).toBe(0);
    return claudeSamples(readFileSync(debug, "utf8"));
  } finally {
    await model.close();
  }
}

function readTimings(log: string): Sample[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [event = "", ms = "0"] = line.split(" ");
      return { event, ms: Number(ms) };
    });
}

async function codexRun(policy: PolicyDaemon, path: Exclude<HookPath, "http">, timer: string): Promise<Sample[]> {
  const model = await startFakeModel(scenarioScript);
  try {
    const home = await tempDir("bench-codex");
    const cwd = await tempDir("bench-cwd");
    prepareCwd(cwd);
    const log = join(home, "timings.log");
    writeFileSync(log, "");
    const run = await runCodex({ home, cwd, modelUrl: model.url, hooks: timed(concrete(documentedHooks("codex"), path, policy.hookUrl), timer, log), prompt: SCENARIO_PROMPT });
    expect(run.code, run.stderr).toBe(0);
    return readTimings(log);
  } finally {
    await model.close();
  }
}

/** Gemini CLI reports no timing for a hook that succeeded: timed like Codex's. */
async function geminiRun(policy: PolicyDaemon, path: Exclude<HookPath, "http">, timer: string): Promise<Sample[]> {
  const model = await startFakeModel(scenarioScript);
  try {
    const home = await tempDir("bench-gemini");
    const cwd = await tempDir("bench-cwd");
    prepareCwd(cwd);
    const log = join(home, "timings.log");
    writeFileSync(log, "");
    const run = await runGemini({ home, cwd, modelUrl: model.url, hooks: timed(geminiHooks(path, policy.hookUrl), timer, log), prompt: SCENARIO_PROMPT });
    expect(run.code, run.stderr).toBe(0);
    return readTimings(log);
  } finally {
    await model.close();
  }
}

/** Copilot CLI through a forwarder, or a trivial native hook ("native"), each hook process timed. */
async function copilotRun(policy: PolicyDaemon, path: Exclude<HookPath, "http"> | "native", timer: string): Promise<Sample[]> {
  const model = await startFakeModel(scenarioScript);
  try {
    const home = await tempDir("bench-copilot");
    const cwd = await tempDir("bench-cwd");
    prepareCwd(cwd);
    const log = join(home, "timings.log");
    writeFileSync(log, "");
    const command = (event: string): string => `${timer} ${log} ${event} ${path === "native" ? "sh -c 'cat >/dev/null; echo {}'" : String((copilotHooks(path, policy.hookUrl, [event]).hooks as Record<string, { bash: string }[]>)[event]?.[0]?.bash)}`;
    const hooks = { version: 1, hooks: Object.fromEntries(COPILOT_EVENTS.map((event) => [event, [{ type: "command", bash: command(event), timeoutSec: 30 }]])) };
    const run = await runCopilot({ home, cwd, modelUrl: model.url, hooks, prompt: SCENARIO_PROMPT });
    expect(run.code, run.stderr).toBe(0);
    return readTimings(log);
  } finally {
    await model.close();
  }
}

it("measures the per-event hook latency each agent sees", async () => {
  const dir = join(REPO, "test/.tmp/bench-agents");
  mkdirSync(dir, { recursive: true });
  const timer = join(dir, "hook-timer");
  execFileSync("cc", ["-std=c99", "-O2", "-Wall", "-Werror", "-o", timer, join(REPO, "bench/agents/timer.c")]);
  const policy = await startPolicyDaemon();
  const results: { agent: string; path: string; event: string; medianMs: number; samples: number }[] = [];
  try {
    const all: { agent: string; path: string; run: () => Promise<Sample[]> }[] = [
      ...(["http", "c-forwarder", "node-forwarder"] as const).map((path) => ({ agent: "claude-code", path, run: () => claudeRun(policy, path) })),
      ...(["c-forwarder", "node-forwarder"] as const).map((path) => ({ agent: "codex", path, run: () => codexRun(policy, path, timer) })),
      ...(["c-forwarder", "node-forwarder"] as const).map((path) => ({ agent: "gemini", path, run: () => geminiRun(policy, path, timer) })),
      ...(["c-forwarder", "node-forwarder", "native"] as const).map((path) => ({ agent: "copilot-cli", path, run: () => copilotRun(policy, path, timer) })),
    ];
    const only = process.env.HOOKD_BENCH_AGENT;
    const cases = all.filter((entry) => only === undefined || entry.agent === only);
    for (const { agent, path, run } of cases) {
      const byEvent = new Map<string, number[]>();
      for (let i = 0; i < RUNS; i++) for (const sample of await run()) byEvent.set(sample.event, [...(byEvent.get(sample.event) ?? []), sample.ms]);
      expect(byEvent.size, `${agent} ${path}: no hook timings`).toBeGreaterThan(0);
      const all = [...byEvent.values()].flat();
      for (const [event, values] of byEvent) results.push({ agent, path, event, medianMs: median(values), samples: values.length });
      results.push({ agent, path, event: "(all events)", medianMs: median(all), samples: all.length });
    }
  } finally {
    await policy.stop();
  }
  mkdirSync(join(REPO, "bench/results"), { recursive: true });
  writeFileSync(join(REPO, "bench/results/agents.json"), `${JSON.stringify({ runs: RUNS, results }, null, 2)}\n`);
  const lines = ["agent        path            event               median ms  samples", ...results.map((r) => `${r.agent.padEnd(12)} ${r.path.padEnd(15)} ${r.event.padEnd(19)} ${r.medianMs.toFixed(1).padStart(9)}  ${String(r.samples).padStart(7)}`)];
  process.stdout.write(`\n${lines.join("\n")}\n`);
}, 900_000);
