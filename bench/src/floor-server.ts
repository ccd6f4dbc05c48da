// The floor's server process: bare grpc-js through the same adapter the daemon and plugins use
// (addService/bindServer from "@hookd/sdk/internal"), with no hookd logic. It answers
// HookHost.EvaluatePreTool with a fixed daemon-like response (floor_single) and
// HookPlugin.PreTool with a fixed plugin answer (the second hop of floor_relay), and holds
// HookHost.Session streams open after answering `open` (the floor of the sessions scenario).
// Usage: node floor-server.js --listen unix:///path. Prints "ready" on stdout once bound.
import { Server } from "@grpc/grpc-js";
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
});
addService(server, pb.HookPlugin, { preTool: async () => PLUGIN_PRE_TOOL_RESPONSE });
await bindServer(server, argument("--listen"));
serveUntilSignal(server);
