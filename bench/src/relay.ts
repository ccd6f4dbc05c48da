// The floor's relay process: agent -> relay -> plugin with two bare grpc-js unary calls and no
// hookd logic, the physical limit of agent -> daemon -> plugin. It answers
// HookHost.EvaluatePreTool by calling HookPlugin.PreTool upstream with the event, a deadline and
// the caller's cancellation, as the daemon does, and answering a fixed allow.
// Usage: node relay.js --listen unix:///relay.sock --upstream unix:///floor.sock
import { Server } from "@grpc/grpc-js";
import { addService, bindServer, createClient, pb } from "@hookd/sdk/internal";
import { PRE_TOOL_RESPONSE } from "./messages.js";
import { argument, serveUntilSignal } from "./proc-args.js";

const upstream = createClient(pb.HookPlugin, argument("--upstream"));
const server = new Server();
addService(server, pb.HookHost, {
  evaluatePreTool: async (request, call) => {
    const answer = await upstream.preTool({ event: request.event }, { signal: call.signal, timeoutMs: 2_000 });
    return answer.decision?.decision.case === "allow" ? PRE_TOOL_RESPONSE : { decision: answer.decision };
  },
});
await bindServer(server, argument("--listen"));
serveUntilSignal(server);
