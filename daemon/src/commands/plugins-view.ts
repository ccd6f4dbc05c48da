// What `hookd plugins` shows of each plugin, as one record per plugin (PluginView): --json prints
// the records as they are, and the table and the lines under it are rendered from them, so the
// text can show no field the JSON leaves out.
import { pb } from "@hookd/sdk/internal";
import { micros, pointName } from "./admin-format.js";
import { tidy } from "./check-report.js";
import { table } from "./table.js";

/** The health's name in the proto enum, lower-cased ("serving", "connecting", ...). */
function healthName(health: pb.PluginHealth): string {
  if (health === pb.PluginHealth.UNSPECIFIED) return "unknown";
  return pb.PluginHealth[health]?.toLowerCase() ?? String(health);
}

/** One plugin of `hookd plugins --json` (hookd.v1.PluginStatus, with names for enums). */
export interface PluginView {
  readonly name: string;
  readonly kind: string;
  readonly health: string;
  readonly calls: number;
  readonly failures: number;
  readonly latencyP50Us: number;
  readonly latencyP99Us: number;
  readonly restarts: number;
  readonly points: readonly string[];
  readonly target: string;
  /** Remote and managed: "described", or the fallback it is subscribed by until it is; "" for the other kinds. */
  readonly subscriptions: string;
  /** Remote and managed: "stream" or "unary"; "" for the other kinds. */
  readonly transport: string;
  /** Attach answers refused (an id never sent, or answered twice). */
  readonly refusedAnswers: number;
  /** "" when there was none. */
  readonly lastError: string;
}

export function pluginView(p: pb.PluginStatus): PluginView {
  return {
    name: p.name,
    kind: p.kind,
    health: healthName(p.health),
    calls: Number(p.calls),
    failures: Number(p.failures),
    latencyP50Us: Number(p.latencyP50Us),
    latencyP99Us: Number(p.latencyP99Us),
    restarts: p.restarts,
    points: p.points.map(pointName),
    target: p.target,
    subscriptions: p.subscriptions,
    transport: p.transport,
    refusedAnswers: Number(p.refusedAnswers),
    lastError: tidy(p.lastError),
  };
}

export function pluginsJson(views: readonly PluginView[]): string {
  return `${JSON.stringify({ plugins: views })}\n`;
}

/** The table, then a line for each thing worth a person's attention that has no column. */
export function pluginsText(views: readonly PluginView[]): string {
  if (views.length === 0) return "no plugins configured\n";
  const rows = views.map((p) => [p.name, p.kind, p.health, String(p.calls), String(p.failures), micros(p.latencyP50Us), micros(p.latencyP99Us), String(p.restarts), p.points.join(","), p.target]);
  const lines = [
    // A plugin not described yet gates by a fallback; say which (fail-closed never silently opens).
    ...views.filter((p) => p.subscriptions !== "" && p.subscriptions !== "described").map((p) => `${p.name}: subscriptions: ${p.subscriptions}`),
    ...views.filter((p) => p.transport !== "").map((p) => `${p.name}: transport: ${p.transport}${p.refusedAnswers > 0 ? `, ${p.refusedAnswers} ${p.refusedAnswers === 1 ? "answer" : "answers"} refused` : ""}`),
    ...views.filter((p) => p.lastError !== "").map((p) => `${p.name}: last error: ${p.lastError}`),
  ];
  return table(["PLUGIN", "KIND", "HEALTH", "CALLS", "FAILURES", "P50", "P99", "RESTARTS", "POINTS", "TARGET"], rows) + lines.map((line) => `${line}\n`).join("");
}
