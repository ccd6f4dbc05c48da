// The floor's relay process: agent -> relay -> plugin with bare grpc-js unary calls and no hookd
// logic, the physical limit of agent -> daemon -> plugin. It answers HookHost.EvaluatePreTool by
// calling HookPlugin.PreTool upstream with the event, a deadline and the caller's cancellation,
// and answering a fixed allow. The upstream call goes through the adapter's unary call on the
// channel's own call (`startUnaryCall`), as the daemon's plugin calls do, with none of the
// daemon's logic around it: the floor is the stack's, not a slower API's.
// With several upstreams (floor_fanout4) it calls them all at once and answers once every one
// has: the limit of a fan-out over side-effect-free plugins, which needs every answer when all
// but the last pass.
// Usage: node relay.js --listen unix:///relay.sock --upstream unix:///a.sock[,unix:///b.sock...]
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Channel, Server, credentials, status } from "@grpc/grpc-js";
import { StatusError, addService, bindServer, pb, startUnaryCall } from "@hookd/sdk/internal";
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

const upstreams = argument("--upstream")
  .split(",")
  .map((target) => new Channel(target, credentials.createInsecure(), {}));
const server = new Server();
addService(server, pb.HookHost, {
  evaluatePreTool: async (request, call) => {
    const bytes = Buffer.from(toBinary(pb.PreToolRequestSchema, create(pb.PreToolRequestSchema, { event: request.event })));
    const answers = await Promise.all(upstreams.map((channel) => preTool(channel, bytes, call.signal)));
    const refusal = answers.find((answer) => answer.decision?.decision.case !== "allow");
    return refusal === undefined ? PRE_TOOL_RESPONSE : { decision: refusal.decision };
  },
});
await bindServer(server, argument("--listen"));
serveUntilSignal(server);
