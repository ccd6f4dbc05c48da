// conformance-typescript: the hookd conformance plugin, served with the BUILT @hookd/sdk
// (servePlugin; run `npm run build` first). It behaves exactly like the Python and Go conformance
// plugins, so one scenario table (test/conformance/conformance.test.ts) runs against all three.
//
// The scenario is read from the event: at pre-tool and post-tool from the tool call's arguments
// field "scenario"; at pre-step from the text of the first message ("inject…" and "reject…" match
// by prefix). Scenarios at every subscribed point:
//   pass           answer pass
//   hang           never answer; wait until the call is cancelled (deadline or caller)
//   crash          the process exits abruptly in the middle of the call (process.exit(1))
//   garbage        answer bytes that do not parse: a varint where the decision message belongs
//   wrong-variant  answer another point's response (pre-tool: a PostToolResponse; others: a
//                  PreToolResponse)
// pre-tool: allow, deny, ask. post-tool: block, replace (content), value (canonical value),
// context (additional context), invalid (accept with BOTH content and value_json). pre-step:
// inject… (enter the same messages plus one context message), reject…. Anything else passes.
//
// servePlugin validates and encodes every answer, so the three answers no valid decision can
// express (garbage, wrong-variant, invalid) are sent by a raw grpc-js handler: while servePlugin
// registers the HookPlugin service, the registration of PreStep, PreTool and PostTool is wrapped
// so that those scenarios answer hand-made bytes through an identity serializer and every other
// call goes to the SDK's handler untouched.
//
// Manifest: name conformance-typescript, pre-step, pre-tool and post-tool (every tool),
// fail-closed unless $HOOKD_CONFORMANCE_FAILURE_POLICY says "fail-open" (the daemon's config may
// override it per point). Listens on $HOOKD_PLUGIN_SOCKET; SIGTERM closes it gracefully.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Server } from "@grpc/grpc-js";
import { accept, allow, ask, block, definePlugin, deny, enter, messageText, pass, pluginMessage, reject, servePlugin } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";

const LANG = "typescript";
const NAME = `conformance-${LANG}`;
const failurePolicy = process.env.HOOKD_CONFORMANCE_FAILURE_POLICY ?? "fail-closed";

const contextMessage = () => pluginMessage(NAME, `conformance: context from ${LANG}`);
const scenarioOfCall = (call) => {
  const args = call.arguments;
  return typeof args === "object" && args !== null && !Array.isArray(args) && typeof args.scenario === "string" ? args.scenario : "";
};
const firstText = (messages) => (messages.length === 0 ? "" : messageText(messages[0]));

/** Never answers: settles (as the cancellation) only when the call is over. */
const hang = (signal) =>
  new Promise((_resolve, rejectCall) => {
    if (signal.aborted) rejectCall(signal.reason);
    else signal.addEventListener("abort", () => rejectCall(signal.reason), { once: true });
  });

const crash = () => {
  process.stderr.write(`${NAME} ${process.pid}: crashing mid-call\n`);
  process.exit(1);
};

/** The fault scenarios every point shares that a typed handler can act out; undefined otherwise. */
function common(scenario, signal) {
  if (scenario === "hang") return hang(signal);
  if (scenario === "crash") crash();
  signal.throwIfAborted(); // honour the deadline: an answer after it is of no use
  return undefined;
}

const plugin = definePlugin({
  name: NAME,
  version: "1.0.0",
  points: {
    "pre-step": {
      failurePolicy,
      handler: (event, ctx) => {
        const text = firstText(event.messages);
        const faulty = common(text, ctx.signal);
        if (faulty !== undefined) return faulty;
        if (text.startsWith("inject")) return enter([...event.messages, contextMessage()]);
        if (text.startsWith("reject")) return reject(`conformance: rejected by ${LANG}`);
        return pass();
      },
    },
    "pre-tool": {
      tools: [],
      failurePolicy,
      handler: (event, ctx) => {
        const scenario = scenarioOfCall(event.call);
        const faulty = common(scenario, ctx.signal);
        if (faulty !== undefined) return faulty;
        if (scenario === "allow") return allow();
        if (scenario === "deny") return deny(`conformance: denied by ${LANG}`);
        if (scenario === "ask") return ask(`conformance: asked by ${LANG}`);
        return pass();
      },
    },
    "post-tool": {
      tools: [],
      failurePolicy,
      handler: (event, ctx) => {
        const scenario = scenarioOfCall(event.call);
        const faulty = common(scenario, ctx.signal);
        if (faulty !== undefined) return faulty;
        if (scenario === "block") return block(`conformance: blocked by ${LANG}`);
        if (scenario === "replace") return accept({ content: [{ type: "text", text: `conformance: replaced by ${LANG}` }] });
        if (scenario === "value") return accept({ value: { replacedBy: LANG } });
        if (scenario === "context") return accept({ additionalContexts: [contextMessage()] });
        return pass();
      },
    },
  },
});

// ---- raw answers ---------------------------------------------------------------------------

const SERVICE = "/hookd.v1.HookPlugin/";
const bytes = (schema, init) => Buffer.from(toBinary(schema, create(schema, init)));
const scenarioOfRequest = {
  PreStep: (request) => protoFirstText(request.event?.messages ?? []),
  PreTool: (request) => scenarioFromJson(request.event?.call?.argumentsJson),
  PostTool: (request) => scenarioFromJson(request.event?.call?.argumentsJson),
};
const REQUESTS = { PreStep: pb.PreStepRequestSchema, PreTool: pb.PreToolRequestSchema, PostTool: pb.PostToolRequestSchema };
/** The decision's field number in each response: the point's `Point` value. */
const DECISION_FIELD = { PreStep: pb.Point.PRE_STEP, PreTool: pb.Point.PRE_TOOL, PostTool: pb.Point.POST_TOOL };

/** firstText of protobuf messages: the text blocks of the first message, joined by newlines. */
function protoFirstText(messages) {
  if (messages.length === 0) return "";
  return messages[0].content.flatMap(({ block }) => (block.case === "text" ? [block.value] : [])).join("\n");
}

function scenarioFromJson(text) {
  try {
    const args = JSON.parse(text ?? "");
    return typeof args === "object" && args !== null && typeof args.scenario === "string" ? args.scenario : "";
  } catch {
    return "";
  }
}

/** The hand-made answer of a raw scenario, or undefined to let the SDK's handler answer. */
function rawAnswer(method, scenario) {
  switch (scenario) {
    case "garbage":
      // A varint (wire type 0) in the decision's field, which holds a message (wire type 2).
      return Buffer.from([(DECISION_FIELD[method] << 3) | 0, 1]);
    case "wrong-variant":
      return method === "PreTool"
        ? bytes(pb.PostToolResponseSchema, { decision: { decision: { case: "accept", value: {} } } })
        : bytes(pb.PreToolResponseSchema, { decision: { decision: { case: "allow", value: {} } } });
    case "invalid":
      if (method !== "PostTool") return undefined;
      return bytes(pb.PostToolResponseSchema, {
        decision: {
          decision: {
            case: "accept",
            value: {
              content: { blocks: [{ block: { case: "text", value: `conformance: replaced by ${LANG}` } }] },
              valueJson: JSON.stringify({ replacedBy: LANG }),
            },
          },
        },
      });
    default:
      return undefined;
  }
}

/** Wraps the registration of the point RPCs (see the header); every other method is untouched. */
function withRawAnswers(register) {
  return function (name, handler, serialize, deserialize, type) {
    const method = name.startsWith(SERVICE) ? name.slice(SERVICE.length) : "";
    if (!(method in REQUESTS)) return register.call(this, name, handler, serialize, deserialize, type);
    const requestBytes = new WeakMap();
    const keepBytes = (data) => {
      const decoded = deserialize(data);
      if (typeof decoded === "object" && decoded !== null) requestBytes.set(decoded, data);
      return decoded;
    };
    const identity = (answer) => (Buffer.isBuffer(answer) ? answer : serialize(answer));
    const raw = (call, callback) => {
      const data = requestBytes.get(call.request);
      const scenario = data === undefined ? "" : scenarioOfRequest[method](fromBinary(REQUESTS[method], data));
      const answer = rawAnswer(method, scenario);
      if (answer === undefined) handler(call, callback);
      else callback(null, answer);
    };
    return register.call(this, name, raw, identity, keepBytes, type);
  };
}

// ---- serve -------------------------------------------------------------------------------

const stop = new AbortController();
process.on("SIGTERM", () => stop.abort());

const register = Server.prototype.register;
Server.prototype.register = withRawAnswers(register);
let serving;
try {
  serving = servePlugin(plugin, { signal: stop.signal }); // registers its services synchronously
} finally {
  Server.prototype.register = register;
}
const server = await serving;
process.stderr.write(`${NAME} ${process.pid}: serving on ${server.address}\n`);
await server.closed;
