// The floor's server process: bare grpc-js through the same adapter the daemon and plugins use
// (addService/bindServer from "@hookd/sdk/internal"), with no hookd logic. It answers
// HookHost.EvaluatePreTool with a fixed daemon-like response (floor_single) and
// HookPlugin.PreTool with a fixed plugin answer (the second hop of floor_relay), and holds
// HookHost.Session streams open after answering `open` (the floor of the sessions scenario).
// On the stream path it answers each pre-tool request of a HookHost.Evaluate stream with the same
// fixed response (floor_stream_single) and each call of a HookPlugin.Attach stream with the same
// plugin answer (the second hop of floor_stream_relay), in arrival order, each frame taken as it is
// decoded (Requests.listen) as the daemon and servePlugin take theirs.
// Usage: node floor-server.js --listen unix:///path. Prints "ready" on stdout once bound.
import { Server, status } from "@grpc/grpc-js";
import { addService, bindServer, pb } from "@hookd/sdk/internal";
import { PLUGIN_PRE_TOOL_RESPONSE, PRE_TOOL_RESPONSE } from "./messages.js";
import { argument, serveUntilSignal } from "./proc-args.js";

const server = new Server();
addService(server, pb.HookHost, {
  evaluatePreTool: async () => PRE_TOOL_RESPONSE,
  // An idle hosted session with nothing behind it: answer `open`, then hold the stream.
  session: async (requests, call) => {
    for await (const request of requests) {
      if (request.frame.case === "open") await call.send({ frame: { case: "opened", value: { sessionId: request.frame.value.sessionId } } });
    }
  },
  // Stream requests are taken as they are decoded (Requests.listen, as the daemon and servePlugin
  // take them) and answered without waiting for the answer before to be written: the stack's fastest.
  evaluate: (requests, call) =>
    requests.listen((request) => {
      call
        .send(
          request.request.case === "preTool"
            ? { requestId: request.requestId, reply: { case: "preTool", value: PRE_TOOL_RESPONSE } }
            : { requestId: request.requestId, reply: { case: "error", value: { code: status.UNIMPLEMENTED, message: `the floor answers pre_tool only, not ${request.request.case ?? "nothing"}` } } },
        )
        .catch(() => {});
    }),
});
addService(server, pb.HookPlugin, {
  preTool: async () => PLUGIN_PRE_TOOL_RESPONSE,
  attach: (requests, call) =>
    requests.listen((request) => {
      if (request.frame.case === "call") call.send({ callId: request.frame.value.callId, reply: { case: "preTool", value: PLUGIN_PRE_TOOL_RESPONSE } }).catch(() => {});
    }),
});
await bindServer(server, argument("--listen"));
serveUntilSignal(server);
