// `hookd test [--config F] [--json] (PATH | --library)`: policy tests as data, offline. Each test
// file's cases run through the real pipeline of its config (or of its rule files as one rules
// plugin), as `hookd eval` runs one event; a table of results, exit 1 on any failure.
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { hasCode } from "@hookd/sdk";
import { isConfigError, loadConfig, parseConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { createLogger } from "../log.js";
import { LIBRARY_DIR, builtinNames, builtinTestFile } from "../plugins/rules/library.js";
import { StatusError } from "@hookd/sdk/internal";
import { eventError } from "./eval-input.js";
import type { EvalInput } from "./eval-input.js";
import { finalOf, pointsOf } from "./eval-report.js";
import { decide, openPipeline } from "./eval-run.js";
import type { OfflinePipeline } from "./eval-run.js";
import { caseInput, readPolicyTests } from "./policy-cases.js";
import type { PolicyCase, PolicyTestFile } from "./policy-cases.js";
import { table } from "./table.js";
import { parseCommandLine, stringOption, usageError } from "./usage.js";

const READY_MS = 5_000;

/** What a case got, and whether it is what it expected. */
export interface CaseResult {
  readonly file: string;
  readonly name: string;
  readonly ok: boolean;
  readonly expected: PolicyCase["expect"];
  readonly got: { readonly decision: string; readonly rule: string; readonly reason: string };
  /** Why it failed (empty when ok). */
  readonly problems: readonly string[];
}

interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export async function policyTestCommand(args: string[], { out, err }: Output): Promise<number> {
  const { values, positionals } = parseCommandLine("test", args);
  const library = values.library === true;
  const path = positionals[0];
  if (library === (path !== undefined)) throw usageError("give a test file or directory, or --library (the builtin rules' own cases)", "test");
  const asJson = values.json === true;
  try {
    const files = library ? builtinNames().map(builtinTestFile) : testFiles(path ?? "");
    const results: CaseResult[] = [];
    for (const file of files) results.push(...(await runTestFile(readPolicyTests(file), stringOption(values, "config"))));
    const failed = results.filter((r) => !r.ok);
    if (asJson) out(`${JSON.stringify({ ok: failed.length === 0, passed: results.length - failed.length, failed: failed.length, cases: results })}\n`);
    else out(report(results, library ? LIBRARY_DIR : undefined));
    return failed.length === 0 ? 0 : 1;
  } catch (error) {
    const message = isConfigError(error)
      ? `${error.details.source}: ${error.details.problems.join("; ")}`
      : hasCode(error, "invalid_argument") || hasCode(error, "invalid_plugin")
        ? (error as Error).message
        : undefined;
    if (message === undefined) throw error;
    if (asJson) out(`${JSON.stringify({ ok: false, error: message })}\n`);
    err(`hookd test: ${message}\n`);
    return 1;
  }
}

/** A test file, or every `*.test.yaml` in a directory, sorted. */
function testFiles(path: string): string[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw eventError(`${path}: no such file or directory`);
  }
  if (!isDirectory) return [path];
  const found = readdirSync(path).filter((name) => name.endsWith(".test.yaml")).sort().map((name) => join(path, name));
  if (found.length === 0) throw eventError(`${path}: no *.test.yaml file there`);
  return found;
}

/** The config a test file runs against: --config, its own config, or its rule files as one rules plugin named "policy". */
function targetConfig(test: PolicyTestFile, configOption: string | undefined): Config {
  const configFile = configOption ?? test.config;
  if (configFile !== undefined) return loadConfig(configFile).config;
  if (test.rules === undefined && test.include === undefined) throw eventError(`${test.file}: name what to test: config, rules or include (or give --config)`);
  const plugin = { name: "policy", kind: "rules", ...(test.rules === undefined ? {} : { rules: test.rules }), ...(test.include === undefined ? {} : { include: test.include }), ...(test.params === undefined ? {} : { params: test.params }) };
  // No listener is opened offline; the schema still wants one named.
  return parseConfig(JSON.stringify({ listeners: [{ unix: "hookd-test.sock" }], plugins: [plugin] }), test.file, dirname(test.file));
}

/** Runs a file's cases in order through one offline pipeline. */
async function runTestFile(test: PolicyTestFile, configOption: string | undefined): Promise<CaseResult[]> {
  const config = targetConfig(test, configOption);
  const log = createLogger({ level: "error", format: "json", write: () => {} });
  const pipeline = await openPipeline(config, log, READY_MS);
  try {
    const results: CaseResult[] = [];
    for (const [index, testCase] of test.cases.entries()) {
      const input = caseInput(test, testCase, index);
      const start = pipeline.records.length;
      const got = await decideCase(pipeline, input, config, start);
      const problems = mismatches(testCase.expect, got);
      results.push({ file: test.file, name: testCase.name, ok: problems.length === 0, expected: testCase.expect, got, problems });
    }
    return results;
  } finally {
    await pipeline.close();
  }
}

/** The case's final decision; an event the daemon refuses is an error with its reason (a failed case, not an aborted run). */
async function decideCase(pipeline: OfflinePipeline, input: EvalInput, config: Config, start: number): Promise<CaseResult["got"]> {
  try {
    await decide(pipeline, input, config);
  } catch (error) {
    if (error instanceof StatusError) return { decision: "error", rule: "", reason: error.details };
    throw error;
  }
  const final = finalOf(pointsOf(pipeline.records.slice(start), pipeline.registry(), input.keys));
  return { decision: final.decision, rule: final.rule, reason: final.reason };
}

function mismatches(expected: PolicyCase["expect"], got: CaseResult["got"]): string[] {
  const problems: string[] = [];
  if (got.decision !== expected.decision) problems.push(`decision: expected ${expected.decision}, got ${got.decision}`);
  if (expected.rule !== undefined && got.rule !== expected.rule) problems.push(`rule: expected ${expected.rule}, got ${got.rule === "" ? "none" : got.rule}`);
  if (expected.reason !== undefined && !new RegExp(expected.reason).test(got.reason)) problems.push(`reason: "${got.reason}" does not match /${expected.reason}/`);
  return problems;
}

function report(results: readonly CaseResult[], base: string | undefined): string {
  const name = (file: string): string => (base === undefined ? file : basename(file));
  const rows = results.map((r) => [r.ok ? "ok" : "FAIL", name(r.file), r.name, r.got.decision, r.got.rule === "" ? "-" : r.got.rule]);
  const failures = results.filter((r) => !r.ok).map((r) => `FAIL ${name(r.file)}: ${r.name}\n${r.problems.map((p) => `  ${p}\n`).join("")}`);
  const failed = failures.length;
  return `${table(["RESULT", "FILE", "CASE", "DECISION", "RULE"], rows)}${failures.length === 0 ? "" : `\n${failures.join("")}`}\n${results.length - failed} passed, ${failed} failed\n`;
}
