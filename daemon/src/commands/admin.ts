// The operator commands that talk to a running daemon's HookAdmin: status, plugins, reload, tail.
// The daemon is found by admin-target.ts (--socket, HOOKD_SOCKET, the default sockets). Each
// command prints for a person, or JSON with --json, and returns its exit code.
import type { PointName } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import { POINTS } from "@hookd/sdk";
import { toProtoPoint } from "@hookd/sdk/internal";
import { shadowVerdict } from "../ops/audit.js";
import { micros, pointName } from "./admin-format.js";
import { withAdmin } from "./admin-target.js";
import { pluginView, pluginsJson, pluginsText } from "./plugins-view.js";
import { table } from "./table.js";
import { parseCommand, stringOption, usageError } from "./usage.js";

/** Timeout of the unary admin calls, in milliseconds. */
const CALL_TIMEOUT_MS = 10_000;

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const parts = [[Math.floor(s / 86_400), "d"], [Math.floor(s / 3600) % 24, "h"], [Math.floor(s / 60) % 60, "m"], [s % 60, "s"]] as const;
  const shown = parts.filter(([n], i) => n > 0 || i === parts.length - 1);
  return shown.map(([n, unit]) => `${n}${unit}`).join(" ");
}

export async function status(args: string[], out: (text: string) => void): Promise<number> {
  const values = parseCommand("status", args);
  return withAdmin(stringOption(values, "socket"), async (client, target) => {
    const s = await client.getStatus({}, { timeoutMs: CALL_TIMEOUT_MS });
    if (values.json === true) {
      out(`${JSON.stringify(statusJson(s, target))}\n`);
      return 0;
    }
    out(
      table(
        [],
        [
          ["daemon", target],
          ["instance", s.instanceId],
          ["version", s.version],
          ["pid", String(s.pid)],
          ["uptime", duration(Number(s.uptimeMs))],
          ["agents connected", String(s.agentsConnected)],
          ["sessions open", String(s.sessionsOpen)],
          ["listeners", s.listeners.join(", ")],
          ["config", s.configPath === "" ? "(embedded default)" : s.configPath],
          ["config generation", String(s.configGeneration)],
          ["config version", s.configVersion],
        ],
      ),
    );
    return 0;
  });
}

export async function plugins(args: string[], out: (text: string) => void): Promise<number> {
  const values = parseCommand("plugins", args);
  return withAdmin(stringOption(values, "socket"), async (client) => {
    const { plugins: list } = await client.listPlugins({}, { timeoutMs: CALL_TIMEOUT_MS });
    const views = list.map(pluginView);
    out(values.json === true ? pluginsJson(views) : pluginsText(views));
    return 0;
  });
}

export async function reload(args: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const values = parseCommand("reload", args);
  return withAdmin(stringOption(values, "socket"), async (client) => {
    const result = await client.reload({}, { timeoutMs: 60_000 });
    if (result.applied) {
      out(`config reloaded (generation ${result.configGeneration})\n`);
      return 0;
    }
    err(`reload refused; the running config stays in force (generation ${result.configGeneration}):\n${result.error.split("\n").map((line) => `  - ${line}`).join("\n")}\n`);
    return 1;
  });
}

export async function tail(args: string[], out: (text: string) => void, signal: AbortSignal): Promise<number> {
  const values = parseCommand("tail", args);
  const kind = stringOption(values, "kind");
  if (kind !== undefined && !(RECORD_KINDS as readonly string[]).includes(kind)) throw usageError(`--kind: expected one of ${RECORD_KINDS.join(", ")}, got "${kind}"`, "tail");
  let point = pb.Point.UNSPECIFIED;
  const pointOption = stringOption(values, "point");
  if (pointOption !== undefined) {
    if (!(POINTS as readonly string[]).includes(pointOption)) throw usageError(`--point: expected one of ${POINTS.join(", ")}, got "${pointOption}"`, "tail");
    point = toProtoPoint(pointOption as PointName);
  }
  return withAdmin(stringOption(values, "socket"), async (client) => {
    const request = { sessionId: stringOption(values, "session") ?? "", plugin: stringOption(values, "plugin") ?? "", point };
    try {
      for await (const { record } of client.tailAudit(request, { signal, waitForReady: false })) {
        if (record === undefined || (kind !== undefined && record.kind !== kind)) continue;
        out(values.json === true ? `${JSON.stringify(recordJson(record))}\n` : `${recordLine(record)}\n`);
      }
    } catch (error) {
      if (signal.aborted) return 0;
      throw error;
    }
    return 0;
  });
}

function statusJson(s: pb.GetStatusResponse, target: string): Record<string, unknown> {
  return {
    daemon: target,
    instanceId: s.instanceId,
    version: s.version,
    pid: s.pid,
    uptimeMs: Number(s.uptimeMs),
    agentsConnected: s.agentsConnected,
    sessionsOpen: s.sessionsOpen,
    listeners: s.listeners,
    configPath: s.configPath === "" ? null : s.configPath,
    configGeneration: Number(s.configGeneration),
    configVersion: s.configVersion,
  };
}

/** The audit record kinds `tail --kind` can keep. */
const RECORD_KINDS = ["invocation", "decision", "shadow"] as const;

/** The record as the audit log writes it. */
function recordJson(record: pb.AuditRecord): Record<string, unknown> {
  return {
    time: record.time,
    kind: record.kind,
    agentId: record.agentId,
    sessionId: record.sessionId,
    turn: record.turn,
    step: record.step,
    callId: record.callId,
    ...(record.eventName === "" ? {} : { eventName: record.eventName }),
    plugin: record.plugin,
    point: pointName(record.point),
    decision: record.decision,
    reason: record.reason,
    cause: record.cause,
    durationUs: Number(record.durationUs),
    ...(record.outcome === "" ? {} : { outcome: record.outcome }),
    ...(record.argumentsJson === undefined ? {} : { argumentsJson: record.argumentsJson }),
    ...(record.originalArgumentsJson === undefined ? {} : { originalArgumentsJson: record.originalArgumentsJson }),
    ...(record.rewrittenBy.length === 0 ? {} : { rewrittenBy: record.rewrittenBy }),
    ...(record.kind === "shadow" ? { verdict: shadowVerdict(record.decision, record.cause) } : {}),
    ...(record.instanceId === "" ? {} : { instanceId: record.instanceId }),
    ...(record.configVersion === "" ? {} : { configVersion: record.configVersion }),
    ...(record.retry ? { retry: true } : {}),
    ...(record.rule === "" ? {} : { rule: record.rule }),
    ...(record.userMessage === "" ? {} : { userMessage: record.userMessage }),
    ...(record.stopAgent === "" ? {} : { stopAgent: record.stopAgent }),
  };
}

export function recordLine(r: pb.AuditRecord): string {
  const where = `${r.agentId}/${r.sessionId} t${r.turn}s${r.step}${r.callId === "" ? "" : ` ${r.callId}`}${r.eventName === "" ? "" : ` ${r.eventName}`}`;
  const rewrite = r.originalArgumentsJson === undefined ? "" : `args=${r.argumentsJson ?? ""} was=${r.originalArgumentsJson}`;
  const why = [r.rule === "" ? "" : `rule=${r.rule}`, r.cause === "" ? "" : `cause=${r.cause}`, r.reason === "" ? "" : JSON.stringify(r.reason), rewrite].filter((x) => x !== "").join(" ");
  // A shadow call is never "-> decision": nothing was applied.
  const what = r.kind === "shadow" ? `${r.plugin} ${shadowVerdict(r.decision, r.cause)}` : `${r.plugin} -> ${r.decision}`;
  return `${r.time} ${r.kind.padEnd(10)} ${pointName(r.point).padEnd(13)} ${what} ${micros(r.durationUs)} [${where}]${why === "" ? "" : ` ${why}`}`;
}
