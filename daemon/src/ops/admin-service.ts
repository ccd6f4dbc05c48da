// HookAdmin over gRPC: status, plugins with their health and call statistics, reload, and the
// live audit tail. Talks to the daemon only through AdminDeps, so it owns no daemon state; a
// tail that cannot keep up is ended with RESOURCE_EXHAUSTED instead of buffering without bound.
import { create } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import type { Server } from "@grpc/grpc-js";
import { fromProtoPoint, toProtoPoint } from "@hookd/sdk/internal";
import type { PointName } from "@hookd/sdk";
import { StatusError, addService, pb } from "@hookd/sdk/internal";
import type { ServerStreamCall, ServiceImpl } from "@hookd/sdk/internal";
import type { StreamTracker } from "../host/host-service.js";
import type { PluginHealth, PluginStatus } from "../plugins/source.js";
import type { AuditFilter, AuditRecord, AuditTrail } from "./audit.js";
import type { Logger } from "../log.js";
import type { EngineMetrics } from "./metrics.js";

export interface DaemonStatus {
  readonly version: string;
  readonly startedAt: number;
  readonly agentsConnected: number;
  readonly sessionsOpen: number;
  readonly listeners: readonly string[];
  readonly configPath: string | undefined;
  readonly configGeneration: number;
  readonly instanceId: string;
  readonly configVersion: string;
}

export interface ReloadResult {
  readonly applied: boolean;
  /** Why it was refused, one "<path>: <problem>" per line. */
  readonly error: string;
  readonly configGeneration: number;
}

export interface AdminDeps {
  status(): DaemonStatus;
  plugins(): readonly PluginStatus[];
  readonly metrics: EngineMetrics;
  readonly audit: AuditTrail;
  reload(): Promise<ReloadResult>;
  /** Tails are ended with UNAVAILABLE when the daemon stops. */
  readonly tails: StreamTracker;
  readonly log: Logger;
}

/** Records a tail may fall behind by before it is ended. */
export const TAIL_BACKLOG = 10_000;

const HEALTH: Readonly<Record<PluginHealth, pb.PluginHealth>> = {
  serving: pb.PluginHealth.SERVING,
  starting: pb.PluginHealth.STARTING,
  ejected: pb.PluginHealth.EJECTED,
  unavailable: pb.PluginHealth.UNAVAILABLE,
  connecting: pb.PluginHealth.CONNECTING,
};

export function toProtoAuditRecord(record: AuditRecord): pb.AuditRecord {
  return create(pb.AuditRecordSchema, {
    time: record.time,
    kind: record.kind,
    agentId: record.agentId,
    sessionId: record.sessionId,
    turn: record.turn,
    step: record.step,
    callId: record.callId,
    eventName: record.eventName ?? "",
    plugin: record.plugin,
    point: toProtoPoint(record.point),
    decision: record.decision,
    reason: record.reason,
    cause: record.cause,
    durationUs: BigInt(record.durationUs),
    outcome: record.outcome ?? "",
    ...(record.argumentsJson === undefined ? {} : { argumentsJson: record.argumentsJson }),
    ...(record.originalArgumentsJson === undefined ? {} : { originalArgumentsJson: record.originalArgumentsJson }),
    rewrittenBy: [...(record.rewrittenBy ?? [])],
    traceId: record.traceId ?? "",
    instanceId: record.instanceId ?? "",
    configVersion: record.configVersion ?? "",
    retry: record.retry === true,
    rule: record.rule ?? "",
    userMessage: record.userMessage ?? "",
    stopAgent: record.stopAgent ?? "",
  });
}

type TailCall = ServerStreamCall<typeof pb.HookAdmin.method.tailAudit>;

async function tail(deps: AdminDeps, request: pb.TailAuditRequest, call: TailCall): Promise<void> {
  let point: PointName | undefined;
  if (request.point !== pb.Point.UNSPECIFIED) {
    const converted = fromProtoPoint(request.point, "point");
    if (!converted.ok) throw new StatusError(status.INVALID_ARGUMENT, converted.error.message);
    point = converted.value;
  }
  const filter: AuditFilter = {
    ...(request.sessionId === "" ? {} : { sessionId: request.sessionId }),
    ...(request.plugin === "" ? {} : { plugin: request.plugin }),
    ...(point === undefined ? {} : { point }),
  };
  const queue: AuditRecord[] = [];
  let wake: (() => void) | undefined;
  let ended: StatusError | undefined;
  const stop = (error: StatusError): void => {
    ended ??= error;
    wake?.();
  };
  const unsubscribe = deps.audit.subscribe(filter, (record) => {
    if (queue.length >= TAIL_BACKLOG) stop(new StatusError(status.RESOURCE_EXHAUSTED, `the tail fell ${TAIL_BACKLOG} records behind; start it again`));
    else queue.push(record);
    wake?.();
  });
  const untrack = deps.tails.track(stop);
  deps.log.info("audit tail opened", { filter });
  const onAbort = (): void => wake?.();
  call.signal.addEventListener("abort", onAbort);
  try {
    while (!call.signal.aborted && ended === undefined) {
      const record = queue.shift();
      if (record !== undefined) {
        await call.send({ record: toProtoAuditRecord(record) });
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    unsubscribe();
    untrack();
    call.signal.removeEventListener("abort", onAbort);
    deps.log.info("audit tail closed", { filter, reason: ended?.message ?? "the client went away" });
  }
  if (ended !== undefined) throw ended;
}

export function addAdminService(server: Server, deps: AdminDeps): void {
  const impl: ServiceImpl<typeof pb.HookAdmin> = {
    getStatus: async () => {
      const s = deps.status();
      return {
        version: s.version,
        pid: process.pid,
        uptimeMs: BigInt(Date.now() - s.startedAt),
        agentsConnected: s.agentsConnected,
        sessionsOpen: s.sessionsOpen,
        listeners: [...s.listeners],
        configPath: s.configPath ?? "",
        configGeneration: BigInt(s.configGeneration),
        instanceId: s.instanceId,
        configVersion: s.configVersion,
      };
    },
    listPlugins: async () => ({
      plugins: deps.plugins().map((p) => {
        const totals = deps.metrics.totals(p.name);
        return {
          name: p.name,
          kind: p.kind,
          target: p.target,
          health: HEALTH[p.health],
          points: p.points.map(toProtoPoint),
          calls: BigInt(totals?.calls ?? 0),
          failures: BigInt(totals?.failures ?? 0),
          latencyP50Us: BigInt(Math.round(totals?.quantile(0.5) ?? 0)),
          latencyP99Us: BigInt(Math.round(totals?.quantile(0.99) ?? 0)),
          restarts: p.restarts,
          lastError: p.lastError,
          subscriptions: p.subscriptions ?? "",
          transport: p.transport ?? "",
          refusedAnswers: BigInt(p.refusedAnswers ?? 0),
        };
      }),
    }),
    reload: async () => {
      const result = await deps.reload();
      return { applied: result.applied, error: result.error, configGeneration: BigInt(result.configGeneration) };
    },
    tailAudit: (request, call) => tail(deps, request, call),
  };
  addService(server, pb.HookAdmin, impl);
}
