// `hookd eval [--config F] (--point P | --dialect D) [--json] EVENT`: runs one event through the
// config's plugins once, offline (eval-run.ts), and explains the decision: the plugins that
// matched at each point in order, each one's answer and latency, the point's decision, the
// final decision and why, and the answer the daemon would send. With --explain, compares the
// replay with recorded audit records. Exit 0 decided (and agreeing), 1 unusable config, plugin or
// event, 2 usage, 3 a replay that differs from its record.
import { hasCode } from "@hookd/sdk";
import { StatusError } from "@hookd/sdk/internal";
import { isConfigError, loadConfig } from "../config/load.js";
import { AGENT_NAMES, agentDialect } from "../agents/registry.js";
import { captureConsole, createLogger } from "../log.js";
import type { AuditRecord } from "../ops/audit.js";
import { auditRecordsOf, pointOption, readDialectEvent, readProtoEvent, readSource, recordOption } from "./eval-input.js";
import type { EvalInput } from "./eval-input.js";
import { warningOf } from "./check-report.js";
import { compareWithRecord, finalOf, pointsOf, warmHooksRun } from "./eval-report.js";
import type { EvalReport, WarmHooksRun } from "./eval-report.js";
import { printEval } from "./eval-print.js";
import { decide, openPipeline, shadowsSettled } from "./eval-run.js";
import { integerOption, parseCommandLine, stringOption, usageError } from "./usage.js";

const DEFAULT_READY_MS = 5_000;
/** Exit code of a replay that does not reproduce its record. */
export const EXIT_DIFFERS = 3;

interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly colour?: boolean;
}

export async function evalCommand(args: string[], { out, err, colour = false }: Output): Promise<number> {
  const { values, positionals } = parseCommandLine("eval", args);
  const readyMs = integerOption(values, "timeout-ms", DEFAULT_READY_MS);
  const dialectValue = stringOption(values, "dialect");
  const pointValue = stringOption(values, "point");
  const agent = dialectValue === undefined ? undefined : agentDialect(dialectValue);
  if (dialectValue !== undefined && agent === undefined) throw usageError(`--dialect: expected one of ${AGENT_NAMES.join(", ")}, got "${dialectValue}"`, "eval");
  if (dialectValue !== undefined && pointValue !== undefined) throw usageError("--point and --dialect exclude each other (an agent's event names its own point)", "eval");
  const point = pointValue === undefined ? undefined : pointOption(pointValue);
  const record = stringOption(values, "record");
  const fromAudit = stringOption(values, "from-audit");
  const callId = stringOption(values, "call-id");
  const explain = values.explain === true;
  if (!explain && (record !== undefined || fromAudit !== undefined || callId !== undefined)) throw usageError("--record, --from-audit and --call-id go with --explain", "eval");
  if (explain && (record === undefined) === (fromAudit === undefined)) throw usageError("--explain needs the record: --record JSON|FILE, or --from-audit FILE --call-id ID", "eval");
  if (fromAudit !== undefined && callId === undefined) throw usageError("--from-audit needs --call-id", "eval");
  if (record !== undefined && callId !== undefined) throw usageError("--call-id goes with --from-audit", "eval");
  if (agentValue(values) !== undefined && dialectValue === undefined) throw usageError("--agent goes with --dialect (hookd's proto JSON names its agent in session.agent_id)", "eval");

  try {
    const recorded = record !== undefined ? recordOption(record) : fromAudit !== undefined && callId !== undefined ? auditRecordsOf(fromAudit, callId) : undefined;
    const text = readSource(positionals[0] ?? "-", "EVENT");
    const input = agent === undefined ? readProtoEvent(text, point) : readDialectEvent(text, agent, agentValue(values) ?? agent.name);
    const report = await runEval(stringOption(values, "config"), input, readyMs);
    if (recorded !== undefined) explainAgainst(report, input, recorded);
    if (values.json === true) out(`${JSON.stringify(report)}\n`);
    else printEval(report, { out, err, colour });
    return report.explain !== undefined && !report.explain.agrees ? EXIT_DIFFERS : 0;
  } catch (error) {
    if (isConfigError(error)) {
      const { source, problems } = error.details;
      return fail(`${source}: ${problems.length === 1 ? "" : `${problems.length} problems:\n  - `}${problems.join("\n  - ")}`, values.json === true, out, err);
    }
    if (error instanceof StatusError) return fail(error.details, values.json === true, out, err);
    // Every input of eval is the user's: an invalid argument is theirs to fix, not a crash.
    if (hasCode(error, "invalid_argument")) return fail(error.message, values.json === true, out, err);
    throw error;
  }
}

const agentValue = (values: Record<string, string | boolean | undefined>): string | undefined => stringOption(values, "agent");

function fail(message: string, json: boolean, out: (text: string) => void, err: (text: string) => void): number {
  if (json) out(`${JSON.stringify({ ok: false, error: message })}\n`);
  err(`hookd eval: ${message}\n`);
  return 1;
}

const warmField = (runs: WarmHooksRun[]): { warmHooks?: WarmHooksRun[] } => (runs.length === 0 ? {} : { warmHooks: runs });

/** Loads the config and its plugins, runs the event, and closes everything again. */
async function runEval(configFile: string | undefined, input: EvalInput, readyMs: number): Promise<EvalReport> {
  const loaded = loadConfig(configFile);
  const warnings: string[] = [];
  // What loading and the plugins log at warn and above is part of the explanation, not stray lines.
  const log = createLogger({ level: "warn", format: "json", write: (line) => warnings.push(warningOf(line)) });
  captureConsole(log);
  const pipeline = await openPipeline(loaded.config, log, readyMs);
  try {
    const answer = await decide(pipeline, input, loaded.config);
    await shadowsSettled(pipeline, input);
    const points = pointsOf(pipeline.records, pipeline.registry(), input.keys);
    return {
      config: loaded.path ?? "(embedded default)",
      input: input.kind === "proto" ? "proto" : input.agent.name,
      event: input.kind === "proto" ? input.point : input.request.event,
      sessionId: input.sessionId,
      callId: input.callId,
      points,
      final: finalOf(points),
      answer,
      records: pipeline.records,
      warnings: [...pipeline.unready, ...warnings],
      ...warmField(warmHooksRun(pipeline.statuses())),
    };
  } finally {
    await pipeline.close();
  }
}

function explainAgainst(report: EvalReport, input: EvalInput, recorded: readonly AuditRecord[]): void {
  const first = recorded[0];
  if (first !== undefined && first.callId !== "" && input.callId !== "" && first.callId !== input.callId) {
    report.warnings.push(`the event's call id "${input.callId}" is not the record's "${first.callId}": the replay is of another call`);
  }
  const differences = compareWithRecord(recorded, report.records);
  report.explain = { agrees: differences.length === 0, differences, recorded };
}
