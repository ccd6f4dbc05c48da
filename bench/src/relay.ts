// The floor's relay process: agent -> relay -> plugin with bare grpc-js unary calls and no hookd
// logic, the physical limit of agent -> daemon -> plugin. It answers HookHost.EvaluatePreTool by
// calling HookPlugin.PreTool upstream with the event, a deadline and the caller's cancellation,
// and answering a fixed allow. The upstream call goes through the adapter's unary call on the
// channel's own call (`startUnaryCall`), as the daemon's plugin calls do, with none of the
// daemon's logic around it: the floor is the stack's, not a slower API's.
// With several upstreams (floor_fanout4) it calls them all at once and answers once every one
// has: the limit of a fan-out over side-effect-free plugins, which needs every answer when all
// but the last pass.
// On the stream path (floor_stream_relay) it answers a HookHost.Evaluate stream by relaying each
// pre-tool request over one HookPlugin.Attach stream per upstream (attach-upstream.ts), opened on
// first use, with the request's time left; an EvaluateCancel or the stream's end cancels upstream.
// Usage: node relay.js --listen unix:///relay.sock --upstream unix:///a.sock[,unix:///b.sock...]
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Channel, Server, credentials, status } from "@grpc/grpc-js";
import { StatusError, addService, bindServer, pb, startUnaryCall } from "@hookd/sdk/internal";
import type { Requests } from "@hookd/sdk/internal";
import { AttachUpstream } from "./attach-upstream.js";
import { PRE_TOOL_RESPONSE } from "./messages.js";
import { argument, serveUntilSignal } from "./proc-args.js";

const PRE_TOOL_PATH = `/${pb.HookPlugin.typeName}/${pb.HookPlugin.method.preTool.name}`;
const DEADLINE_MS = 2_000;

/** One unary PreTool call on `channel`: the request bytes out, the decoded answer back. */
function preTool(channel: Channel, request: Buffer, signal: AbortSignal): Promise<pb.PreToolResponse> {
  return new Promise((resolve, reject) => {
    startUnaryCall(channel, PRE_TOOL_PATH, request, { deadline: Date.now() + DEADLINE_MS, cancellation: signal }, (final, response) => {
      if (final.code !== status.OK || response === undefined) reject(new StatusError(final.code, `upstream: ${final.details}`));
      else {
        try {
          resolve(fromBinary(pb.PreToolResponseSchema, response));
        } catch (error) {
          reject(new StatusError(status.INTERNAL, `upstream answered an undecodable PreToolResponse: ${String(error)}`));
        }
      }
    });
  });
}

const targets = argument("--upstream").split(",");
const upstreams = targets.map((target) => new Channel(target, credentials.createInsecure(), {}));
let attached: AttachUpstream[] | undefined;

function refusalOf(answers: readonly pb.PreToolResponse[]): pb.EvaluatePreToolResponse | { decision: pb.PreToolResponse["decision"] } {
  const refusal = answers.find((answer) => answer.decision?.decision.case !== "allow");
  return refusal === undefined ? PRE_TOOL_RESPONSE : { decision: refusal.decision };
}

/**
 * Relays one Evaluate stream's pre-tool requests over the Attach upstreams, answering each by id.
 * Each request is taken as it is decoded (Requests.listen, as the daemon takes them) and answered
 * as soon as its upstream answers, without waiting for the answer before it to be written.
 */
async function relayStream(requests: Requests<pb.EvaluateRequest>, send: (frame: MessageInitShape<typeof pb.EvaluateResponseSchema>) => Promise<void>, signal: AbortSignal): Promise<void> {
  const running = new Map<bigint, { cancel(): void }[]>();
  const cancelAll = (): void => {
    for (const calls of running.values()) for (const call of calls) call.cancel();
  };
  signal.addEventListener("abort", cancelAll, { once: true });
  const answered = new Set<Promise<void>>();
  // A send fails once the stream is over; nothing is left to tell then.
  const track = (sent: Promise<void>): void => {
    const settled = sent.catch(() => {}).finally(() => answered.delete(settled));
    answered.add(settled);
  };
  await requests.listen((request) => {
    const id = request.requestId;
    if (request.request.case === "cancel") {
      for (const call of running.get(id) ?? []) call.cancel();
      return;
    }
    if (request.request.case !== "preTool") {
      track(send({ requestId: id, reply: { case: "error", value: { code: status.UNIMPLEMENTED, message: "the floor relays pre_tool only" } } }));
      return;
    }
    const event = request.request.value.event;
    // Opened on first use; a stream that ended (its plugin went away) is opened again.
    attached = targets.map((target, i) => (attached?.[i] === undefined || attached[i].ended !== undefined ? new AttachUpstream(target, `floor-${i + 1}`) : attached[i]));
    const calls = attached.map((upstream) => upstream.preTool(event, request.deadlineMs === 0 ? DEADLINE_MS : request.deadlineMs));
    running.set(id, calls);
    track(
      Promise.all(calls.map((call) => call.answer)).then(
        (answers) => send({ requestId: id, reply: { case: "preTool", value: refusalOf(answers) } }),
        (error: unknown) => send({ requestId: id, reply: { case: "error", value: { code: error instanceof StatusError ? error.code : status.INTERNAL, message: String(error) } } }),
      ).finally(() => running.delete(id)),
    );
  });
  await Promise.allSettled([...answered]);
  signal.removeEventListener("abort", cancelAll);
}

const server = new Server();
addService(server, pb.HookHost, {
  evaluatePreTool: async (request, call) => {
    const bytes = Buffer.from(toBinary(pb.PreToolRequestSchema, create(pb.PreToolRequestSchema, { event: request.event })));
    return refusalOf(await Promise.all(upstreams.map((channel) => preTool(channel, bytes, call.signal))));
  },
  evaluate: (requests, call) => relayStream(requests, (frame) => call.send(frame), call.signal),
});
await bindServer(server, argument("--listen"));
serveUntilSignal(server);
