// HookHost over gRPC: the hosted-loop stream and the evaluate calls. The stream handler opens or
// resumes a session for the caller's identity, relays frames until the agent closes or goes
// away, and then closes or detaches the session. Protocol state lives in HostedSession; frames
// and heartbeats to the agent go through FrameSender.
import { status } from "@grpc/grpc-js";
import type { Server } from "@grpc/grpc-js";
import { fromProtoSessionSource, fromProtoToolDefinition } from "@hookd/sdk/internal";
import { EVALUATED_POINTS, EVALUATE_TABLE } from "@hookd/sdk";
import type { SessionEndReason, SessionInfo, SessionSource, ToolDefinitionInfo } from "@hookd/sdk";
import { StatusError, addService, invalidArgument, pb } from "@hookd/sdk/internal";
import type { ServerStreamCall, ServiceImpl } from "@hookd/sdk/internal";
import type { Logger } from "../log.js";
import type { Admission } from "./admission.js";
import type { EvaluateService } from "./evaluate.js";
import type { AgentIdentities } from "./identity.js";
import type { SessionStore } from "./session-store.js";
import { serveEvaluate } from "./evaluate-stream.js";
import { checkSessionHeader } from "./affinity.js";
import { FrameSender } from "./frame-sender.js";
import type { StreamTracker } from "./stream-tracker.js";
import { traceContextOf } from "./trace-context.js";

export { StreamTracker } from "./stream-tracker.js";

export interface HostServiceDeps {
  readonly store: SessionStore;
  readonly identities: AgentIdentities;
  readonly evaluate: EvaluateService;
  /** Refuses a session's open while the daemon is at its limit (host/admission.ts). */
  readonly admission?: Pick<Admission, "admitAtOnce">;
  readonly log: Logger;
  /** Hosted-loop streams being served, so a drain can end them with a retryable status. */
  readonly streams: StreamTracker;
  /** Evaluate streams being served, ended by a drain like hosted-loop streams. */
  readonly evaluateStreams: StreamTracker;
  /** limits.maxMessageBytes: a larger request is refused with INVALID_ARGUMENT. */
  readonly maxMessageBytes: number;
  /** This daemon's instance id, sent in SessionOpened so an agent knows where its session lives. */
  readonly instanceId?: string;
}

type SessionCall = ServerStreamCall<typeof pb.HookHost.method.session>;

export function addHostService(server: Server, deps: HostServiceDeps): void {
  // The evaluate RPCs come from the point table; their handlers are alike (see EvaluateService),
  // and the Evaluate stream runs the same ones per request.
  const unary = Object.fromEntries(EVALUATED_POINTS.map((point) => [EVALUATE_TABLE[point].method, deps.evaluate.rpc(point)]));
  const impl = {
    session: (requests, call) => serveSession(deps, requests, call),
    evaluate: (requests, call) => serveEvaluate({ evaluate: deps.evaluate, streams: deps.evaluateStreams }, requests, call),
    ...unary,
  } as ServiceImpl<typeof pb.HookHost>;
  addService(server, pb.HookHost, impl, { maxRequestBytes: deps.maxMessageBytes });
}

function readOpen(open: pb.OpenSession): { source: SessionSource; tools: ToolDefinitionInfo[]; lineage: Pick<SessionInfo, "parentSessionId" | "agentType"> } {
  if (open.sessionId === "") throw invalidArgument("open.session_id", "required");
  const source = open.source === pb.SessionSource.UNSPECIFIED ? ({ ok: true, value: "startup" } as const) : fromProtoSessionSource(open.source, "open.source");
  if (!source.ok) throw new StatusError(status.INVALID_ARGUMENT, source.error.message);
  const names = new Set<string>();
  const tools = open.tools.map((tool, index) => {
    const converted = fromProtoToolDefinition(tool, `open.tools[${index}]`);
    if (!converted.ok) throw new StatusError(status.INVALID_ARGUMENT, converted.error.message);
    if (converted.value.name === "") throw invalidArgument(`open.tools[${index}].name`, "required");
    if (names.has(converted.value.name)) throw invalidArgument(`open.tools[${index}].name`, `duplicate tool "${converted.value.name}"`);
    names.add(converted.value.name);
    return converted.value;
  });
  const lineage = {
    ...(open.parentSessionId === "" ? {} : { parentSessionId: open.parentSessionId }),
    ...(open.agentType === "" ? {} : { agentType: open.agentType }),
  };
  return { source: source.value, tools, lineage };
}

/** How the agent closed: CLOSED (also when unset) or CLEARED; anything else is the agent's mistake. */
function closeReason(close: pb.CloseSession): SessionEndReason | undefined {
  switch (close.reason) {
    case pb.SessionEndReason.UNSPECIFIED:
    case pb.SessionEndReason.CLOSED:
      return "closed";
    case pb.SessionEndReason.CLEARED:
      return "cleared";
    default:
      return undefined;
  }
}

/**
 * Reads the first frame and opens or resumes the session it names; undefined when the stream
 * ended first. Kept apart from serveSession so that the first request (its tools and all) is not
 * held for the life of the stream.
 */
async function openFromFirstFrame(deps: HostServiceDeps, iterator: AsyncIterator<pb.SessionRequest>, call: SessionCall) {
  const first = await iterator.next();
  if (first.done === true) return undefined;
  const frame = first.value.frame;
  if (frame.case !== "open") throw invalidArgument("frame", `the first frame must be open, got ${frame.case ?? "none"}`);
  const open = frame.value;
  const agentId = deps.identities.resolve(call.metadata, open.agentId);
  const { source, tools, lineage } = readOpen(open);
  checkSessionHeader(call.metadata, open.sessionId, "open.session_id");
  const info = Object.freeze({ sessionId: open.sessionId, agentId, cwd: open.cwd, ...lineage });
  // Fields, not a child logger: a child's closures are kept for the whole life of an idle session.
  const who = { agent: agentId, session: open.sessionId };
  // Shed at the door: the turns of sessions already open are not admitted one by one, since a
  // turn waits on the agent's model for seconds, which says nothing of the daemon's load.
  deps.admission?.admitAtOnce(agentId);
  let opened: ReturnType<SessionStore["open"]>;
  try {
    opened = deps.store.open({ info, source, tools });
  } catch (error) {
    // Behind a balancer this is a session routed to the wrong instance, or one whose instance died.
    if (error instanceof StatusError && error.code === status.NOT_FOUND) deps.log.info("session resume refused: unknown session", who);
    throw error;
  }
  const { session, resumed } = opened;
  deps.log.info(resumed ? "session resumed" : "session opened", { ...who, source, ...lineage });
  return { session, resumed, who };
}

async function serveSession(deps: HostServiceDeps, requests: AsyncIterable<pb.SessionRequest>, call: SessionCall): Promise<void> {
  const iterator = requests[Symbol.asyncIterator]();
  const opened = await openFromFirstFrame(deps, iterator, call);
  if (opened === undefined) return;
  const { session, resumed, who } = opened;
  const sender = new FrameSender(call);
  // Once per stream: the stream's trace context parents its session's decision spans (tracing on).
  session.attach(sender, traceContextOf(call.metadata));
  // From here on, a frame that cannot be used (malformed, oversized) is reported and skipped:
  // the session and its stream go on.
  call.onInvalidRequest = (error) => session.problem(error.codeName, error.details);

  // A drain ends the stream: it wakes the wait for the next frame. One waker per wait, not a
  // race against one long-lived promise, which would keep a reaction for every frame received.
  let ended: StatusError | undefined;
  let wake: (() => void) | undefined;
  const untrack = deps.streams.track((error) => {
    ended = error;
    wake?.();
  });
  let closed: SessionEndReason | undefined;
  try {
    // Session-start runs before the agent hears the session is open; its contexts wait at the head
    // of the first step's batch, the one place they are delivered (SessionOpened.contexts stays empty).
    if (!resumed) await session.start();
    const heartbeatIntervalMs = deps.store.heartbeatMs;
    sender.send({ case: "opened", value: { sessionId: who.session, resumed, heartbeatIntervalMs, instanceId: deps.instanceId ?? "" } });
    sender.startHeartbeats(heartbeatIntervalMs);
    for (;;) {
      if (ended !== undefined) break;
      const next = await new Promise<IteratorResult<pb.SessionRequest> | "ended">((resolve, reject) => {
        wake = () => resolve("ended");
        iterator.next().then(resolve, reject);
      });
      wake = undefined;
      if (next === "ended" || next.done === true) break;
      const current = next.value.frame;
      if (current.case === "close") {
        closed = closeReason(current.value);
        if (closed === undefined) {
          session.problem("INVALID_ARGUMENT", `close.reason: expected CLOSED or CLEARED, got ${current.value.reason}; closed as CLOSED`);
          closed = "closed";
        }
        break;
      }
      // A keepalive for the proxies in between: not the session's activity, never a plugin's concern.
      if (current.case === "heartbeat") continue;
      session.handle(current);
    }
  } finally {
    untrack();
    if (closed !== undefined) {
      await deps.store.close(session, closed === "cleared" ? "cleared by the agent" : "closed by the agent", closed);
      deps.log.info("session closed", { ...who, reason: closed });
    } else {
      deps.store.detach(session, ended?.message ?? "agent disconnected");
      deps.log.info("session detached", { ...who, reason: ended?.message ?? "agent disconnected" });
    }
    await sender.flush();
  }
  if (ended !== undefined) throw ended;
}
