// The operator commands that talk to a running daemon's HookAdmin: status, plugins, reload, tail.
// The daemon is found by admin-target.ts (--socket, HOOKD_SOCKET, the default sockets). Each
// command prints for a person, or JSON with --json, and returns its exit code.
import { fromProtoPoint } from "@hookd/sdk/internal";
import type { PointName } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import { POINTS } from "@hookd/sdk";
import { toProtoPoint } from "@hookd/sdk/internal";
import { shadowVerdict } from "../ops/audit.js";
import { withAdmin } from "./admin-target.js";
import { table } from "./table.js";
import { UsageError, parseCommand, stringOption } from "./usage.js";

/** Timeout of the unary admin calls, in milliseconds. */
const CALL_TIMEOUT_MS = 10_000;

const HEALTH_NAMES: Readonly<Record<number, string>> = {
  [pb.PluginHealth.UNSPECIFIED]: "unknown",
  [pb.PluginHealth.SERVING]: "serving",
  [pb.PluginHealth.STARTING]: "starting",
  [pb.PluginHealth.EJECTED]: "ejected",
  [pb.PluginHealth.UNAVAILABLE]: "unavailable",
  [pb.PluginHealth.CONNECTING]: "connecting",
};

function pointName(point: pb.Point): string {
  const converted = fromProtoPoint(point, "point");
  return converted.ok ? converted.value : `point#${point}`;
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const parts = [[Math.floor(s / 86_400), "d"], [Math.floor(s / 3600) % 24, "h"], [Math.floor(s / 60) % 60, "m"], [s % 60, "s"]] as const;
  const shown = parts.filter(([n], i) => n > 0 || i === parts.length - 1);
  return shown.map(([n, unit]) => `${n}${unit}`).join(" ");
}

const micros = (us: bigint): string => (us >= 1000n ? `${(Number(us) / 1000).toFixed(1)}ms` : `${us}µs`);

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
    if (values.json === true) {
      out(`${JSON.stringify({ plugins: list.map(pluginJson) })}\n`);
      return 0;
    }
    if (list.length === 0) {
      out("no plugins configured\n");
      return 0;
    }
    out(
      table(
        ["PLUGIN", "KIND", "HEALTH", "CALLS", "FAILURES", "P50", "P99", "RESTARTS", "POINTS", "TARGET"],
        list.map((p) => [
          p.name,
          p.kind,
          HEALTH_NAMES[p.health] ?? String(p.health),
          String(p.calls),
          String(p.failures),
          micros(p.latencyP50Us),
          micros(p.latencyP99Us),
          String(p.restarts),
          p.points.map(pointName).join(","),
          p.target,
        ]),
      ),
    );
    // A plugin not described yet gates by a fallback; say which (fail-closed never silently opens).
    for (const p of list) if (p.subscriptions !== "" && p.subscriptions !== "described") out(`${p.name}: subscriptions: ${p.subscriptions}\n`);
    for (const p of list) if (p.transport !== "") out(`${p.name}: transport: ${p.transport}${p.refusedAnswers > 0n ? `, ${p.refusedAnswers} answers refused` : ""}\n`);
    for (const p of list) if (p.lastError !== "") out(`${p.name}: last error: ${p.lastError}\n`);
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
  if (kind !== undefined && !(RECORD_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind: expected one of ${RECORD_KINDS.join(", ")}, got "${kind}"`, "tail");
  let point = pb.Point.UNSPECIFIED;
  const pointOption = stringOption(values, "point");
  if (pointOption !== undefined) {
    if (!(POINTS as readonly string[]).includes(pointOption)) throw new UsageError(`--point: expected one of ${POINTS.join(", ")}, got "${pointOption}"`, "tail");
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

function pluginJson(p: pb.PluginStatus): Record<string, unknown> {
  return {
    name: p.name,
    kind: p.kind,
    health: HEALTH_NAMES[p.health] ?? String(p.health),
    calls: Number(p.calls),
    failures: Number(p.failures),
    latencyP50Us: Number(p.latencyP50Us),
    latencyP99Us: Number(p.latencyP99Us),
    restarts: Number(p.restarts),
    points: p.points.map(pointName),
    target: p.target,
    subscriptions: p.subscriptions,
    lastError: p.lastError,
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
  };
}

export function recordLine(r: pb.AuditRecord): string {
  const where = `${r.agentId}/${r.sessionId} t${r.turn}s${r.step}${r.callId === "" ? "" : ` ${r.callId}`}${r.eventName === "" ? "" : ` ${r.eventName}`}`;
  const rewrite = r.originalArgumentsJson === undefined ? "" : `args=${r.argumentsJson ?? ""} was=${r.originalArgumentsJson}`;
  const why = [r.cause === "" ? "" : `cause=${r.cause}`, r.reason === "" ? "" : JSON.stringify(r.reason), rewrite].filter((x) => x !== "").join(" ");
  // A shadow call is never "-> decision": nothing was applied.
  const what = r.kind === "shadow" ? `${r.plugin} ${shadowVerdict(r.decision, r.cause)}` : `${r.plugin} -> ${r.decision}`;
  return `${r.time} ${r.kind.padEnd(10)} ${pointName(r.point).padEnd(13)} ${what} ${micros(r.durationUs)} [${where}]${why === "" ? "" : ` ${why}`}`;
}
