// conformance-typescript: the hookd conformance plugin, served with the BUILT @hookd/sdk
// (servePlugin; run `npm run build` first). It behaves exactly like the Python and Go conformance
// plugins, so one scenario table (test/conformance/suite.ts) runs against all three.
//
// The scenario is read from the event: at pre-tool, post-tool, rewrite and approval from the tool
// call's arguments field "scenario"; at pre-step from the text of the first message ("inject…",
// "reject…", "redact…", "rewrite…" and "forge…" match by prefix); at turn-stopping from the text
// of the last assistant message. Scenarios at every subscribed point:
//   pass           answer pass
//   hang           never answer; wait until the call is cancelled (deadline or caller)
//   crash          the process exits abruptly in the middle of the call (process.exit(1))
//   garbage        answer bytes that do not parse: a varint where the decision message belongs
//   wrong-variant  answer another point's response (pre-tool: a PostToolResponse; others: a
//                  PreToolResponse)
// pre-tool: allow, deny, ask. post-tool: block, replace (content), value (canonical value),
// context (additional context), invalid (accept with BOTH content and value_json), forge-context
// (an additional context claiming the user as its source). pre-step: inject… (enter the same
// messages plus one context message), reject…, redact… (enter the batch with "SECRET-1234" in the
// first message redacted), rewrite… (the first message's text replaced), forge… (the batch plus a
// message sourced to another plugin). rewrite: replace, patch (RFC 7386), non-object,
// patch-non-object, invalid-json, big-int (the arguments re-emitted losslessly plus one key).
// approval: approve, reject. turn-stopping: steer, forge-steer (steering sourced as the user).
// session-end, turn-end: record the event as JSON in $HOOKD_CONFORMANCE_RECORDS/<point>.<session
// id>.json before answering. agent-event (subscribed with the matcher "Conformance*"): record the
// dialect, the event name and the payload's JSON text the same way. Anything else passes.
// The stream contract, at approval (paired by the arguments' "pair"): slow (answers once the
// pair's fast call has been answered), fast (answers once the pair's slow call is in flight),
// await-cancel (records its arrival and, once the daemon cancels it, why; answers nothing); see
// ../python/conformance_plugin.py.
//
// servePlugin validates and encodes every answer, so the answers no valid decision can express
// (garbage, wrong-variant, invalid, and the rewrite's non-object, patch-non-object and
// invalid-json) are sent by a raw grpc-js handler: while servePlugin registers the HookPlugin
// service, the registration of the point RPCs is wrapped so that those scenarios answer hand-made
// bytes through an identity serializer and every other call goes to the SDK's handler untouched.
// Over the Attach stream the same scenarios are answered the same way: the stream's incoming
// call frames are looked at before the SDK sees them, and a raw scenario's frame is answered with
// the same hand-made response bytes in that point's reply field (wrong-variant: in the reply field
// of the other point whose response it is); the SDK sees an empty frame instead, which it ignores.
//
// Transport: servePlugin serves both; $HOOKD_CONFORMANCE_TRANSPORT=unary makes the manifest ask
// the daemon for unary (it then never opens Attach), anything else leaves it the stream.
//
// Manifest: name conformance-typescript, the points $HOOKD_CONFORMANCE_POINTS names
// (comma-separated; all this plugin serves when unset), every tool, fail-closed unless
// $HOOKD_CONFORMANCE_FAILURE_POLICY says "fail-open" (the daemon's config may override it per
// point). Listens on $HOOKD_PLUGIN_SOCKET; SIGTERM closes it gracefully. With
// $HOOKD_CONFORMANCE_UNREACHABLE set the process exits before it serves.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { Server } from "@grpc/grpc-js";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as sdk from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";

// From the namespace rather than by name: the test also runs this plugin against an SDK that does
// not have the newer points' constructors yet (a missing named import would fail the module); the
// test then subscribes it only to the points that SDK knows, so those handlers never run.
const { accept, allow, approve, ask, block, definePlugin, deny, enter, messageText, pass, patch, pluginMessage, reject, replace, servePlugin, steer, userMessage } = sdk;

const LANG = "typescript";
const NAME = `conformance-${LANG}`;
const SECRET = "SECRET-1234";
const failurePolicy = process.env.HOOKD_CONFORMANCE_FAILURE_POLICY ?? "fail-closed";

if (process.env.HOOKD_CONFORMANCE_UNREACHABLE) {
  process.stderr.write(`${NAME} ${process.pid}: $HOOKD_CONFORMANCE_UNREACHABLE is set: exiting before serving\n`);
  process.exit(3);
}

const contextMessage = () => pluginMessage(NAME, `conformance: context from ${LANG}`);
/** The same message (role, id, the source the plugin saw) with its content replaced. */
const withText = (message, text) => ({ ...message, content: [{ type: "text", text }] });
/** SESSION_END_REASON_DAEMON_STOPPING or daemon_stopping -> daemon-stopping: the record's language-neutral form. */
const enumName = (value, prefix) => String(value).replace(prefix, "").toLowerCase().replaceAll("_", "-");

/** Writes what a call received, atomically, where the test reads it: <name>.<session id>.json. */
function record(point, session, fields, name = point) {
  const dir = process.env.HOOKD_CONFORMANCE_RECORDS;
  if (!dir) return;
  const written = {
    point,
    sessionId: session.sessionId,
    agentId: session.agentId,
    parentSessionId: session.parentSessionId ?? "",
    agentType: session.agentType ?? "",
    ...fields,
  };
  const temporary = join(dir, `.record-${process.pid}-${name}-${session.sessionId}`);
  writeFileSync(temporary, JSON.stringify(written));
  renameSync(temporary, join(dir, `${name}.${session.sessionId}.json`));
}
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

/** Moments of paired calls (the arguments' "pair"): one call reaches a moment, another waits for it. */
const moments = new Map();
function moment(pair, name) {
  const key = `${pair}\u0000${name}`;
  let found = moments.get(key);
  if (found === undefined) {
    let reach;
    const reached = new Promise((resolve) => (reach = resolve));
    found = { reached, reach };
    moments.set(key, found);
  }
  return found;
}
/** Resolves once the moment is reached; rejects as hang does when the call ends first. */
const reachedOrOver = (pair, name, signal) => Promise.race([moment(pair, name).reached, hang(signal)]);

/** The stream-contract scenarios at approval; undefined for every other scenario. */
function streamContract(scenario, event, signal) {
  const pair = typeof event.call.arguments?.pair === "string" ? event.call.arguments.pair : "";
  if (scenario === "slow") {
    moment(pair, "slow in flight").reach();
    return reachedOrOver(pair, "fast answered", signal).then(() => reject(`conformance: slow, answered after fast by ${LANG}`));
  }
  if (scenario === "fast") {
    return reachedOrOver(pair, "slow in flight", signal).then(() => {
      // After the SDK has written this answer (it does so as the handler's promise settles).
      setImmediate(() => moment(pair, "fast answered").reach());
      return reject(`conformance: fast, answered before slow by ${LANG}`);
    });
  }
  if (scenario === "await-cancel") {
    record("approval", event.session, {}, "received");
    return hang(signal).catch((reason) => {
      record("approval", event.session, { reason: reason?.name === "TimeoutError" ? "deadline" : "cancelled" }, "cancel");
      throw reason;
    });
  }
  return undefined;
}

/** The fault scenarios every point shares that a typed handler can act out; undefined otherwise. */
function common(scenario, signal) {
  if (scenario === "hang") return hang(signal);
  if (scenario === "crash") crash();
  signal.throwIfAborted(); // honour the deadline: an answer after it is of no use
  return undefined;
}

/** Every point this plugin serves; the manifest subscribes to those the test names (see subscribed). */
const handlers = {
  "pre-step": {
    failurePolicy,
    handler: (event, ctx) => {
      const text = firstText(event.messages);
      const faulty = common(text, ctx.signal);
      if (faulty !== undefined) return faulty;
      if (text.startsWith("inject")) return enter([...event.messages, contextMessage()]);
      if (text.startsWith("reject")) return reject(`conformance: rejected by ${LANG}`);
      const [first, ...rest] = event.messages;
      // Prompt redaction and rewrite: the whole batch goes back, the first message changed.
      if (text.startsWith("redact")) return enter([withText(first, text.replaceAll(SECRET, "[redacted]")), ...rest]);
      if (text.startsWith("rewrite")) return enter([withText(first, `conformance: prompt rewritten by ${LANG}`), ...rest]);
      if (text.startsWith("forge")) return enter([...event.messages, pluginMessage("someone-else", `conformance: forged by ${LANG}`)]);
      return pass();
    },
  },
  rewrite: {
    failurePolicy,
    handler: (event, ctx) => {
      const scenario = scenarioOfCall(event.call);
      const faulty = common(scenario, ctx.signal);
      if (faulty !== undefined) return faulty;
      if (scenario === "replace") return replace({ scenario: "replace", rewrittenBy: LANG });
      if (scenario === "patch") return patch({ patchedBy: LANG, drop: null, nested: { added: true } });
      // The SDK's arguments are lossless (integers past 2^53 are bigints), and so is its encoding.
      if (scenario === "big-int") return replace({ ...event.call.arguments, rewrittenBy: LANG });
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
  approval: {
    failurePolicy,
    handler: (event, ctx) => {
      const scenario = scenarioOfCall(event.call);
      const contract = streamContract(scenario, event, ctx.signal);
      if (contract !== undefined) return contract;
      const faulty = common(scenario, ctx.signal);
      if (faulty !== undefined) return faulty;
      if (scenario === "approve") return approve();
      if (scenario === "reject") return reject(`conformance: rejected by ${LANG}`);
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
      if (scenario === "forge-context") return accept({ additionalContexts: [userMessage(`conformance: forged by ${LANG}`)] });
      return pass();
    },
  },
  "turn-stopping": {
    handler: (event, ctx) => {
      const said = event.lastAssistantMessage === undefined ? "" : messageText(event.lastAssistantMessage);
      const faulty = common(said, ctx.signal);
      if (faulty !== undefined) return faulty;
      if (said === "steer") return steer([pluginMessage(NAME, `conformance: steered by ${LANG}`)]);
      if (said === "forge-steer") return steer([userMessage(`conformance: steered by ${LANG}`)]);
      return pass();
    },
  },
  "turn-end": {
    handler: (event) => {
      record("turn-end", event.session, { turn: event.turn, outcome: enumName(event.outcome, "TURN_END_OUTCOME_"), detail: event.detail, steps: event.steps });
    },
  },
  "session-end": {
    handler: (event) => {
      record("session-end", event.session, { reason: enumName(event.reason, "SESSION_END_REASON_"), detail: event.detail, turns: event.turns });
    },
  },
  "agent-event": {
    tools: ["Conformance*"],
    handler: (event) => {
      // The payload as the canonical JSON text the daemon sent, re-emitted losslessly.
      record("agent-event", event.session, { dialect: event.dialect, eventName: event.eventName, payloadJson: sdk.toJsonText(event.payload) });
    },
  },
};

/** The points $HOOKD_CONFORMANCE_POINTS names; every point above when unset. */
function subscribed() {
  const named = process.env.HOOKD_CONFORMANCE_POINTS;
  if (named === undefined) return handlers;
  const points = named.split(",").filter((point) => point !== "");
  const unknown = points.filter((point) => !Object.hasOwn(handlers, point));
  if (unknown.length > 0) throw new Error(`${NAME}: $HOOKD_CONFORMANCE_POINTS names points this plugin does not serve: ${unknown.join(", ")}`);
  return Object.fromEntries(points.map((point) => [point, handlers[point]]));
}

const plugin = definePlugin({ name: NAME, version: "1.0.0", points: subscribed() });

// ---- raw answers ---------------------------------------------------------------------------

const SERVICE = "/hookd.v1.HookPlugin/";
const bytes = (schema, init) => Buffer.from(toBinary(schema, create(schema, init)));
const scenarioOfRequest = {
  PreStep: (request) => protoFirstText(request.event?.messages ?? []),
  PreTool: (request) => scenarioFromJson(request.event?.call?.argumentsJson),
  PostTool: (request) => scenarioFromJson(request.event?.call?.argumentsJson),
  Rewrite: (request) => scenarioFromJson(request.event?.call?.argumentsJson),
  Approve: (request) => scenarioFromJson(request.event?.call?.argumentsJson),
  TurnStopping: (request) => {
    const last = request.event?.lastAssistantMessage;
    return last === undefined ? "" : protoFirstText([last]);
  },
};
const REQUESTS = {
  PreStep: pb.PreStepRequestSchema,
  PreTool: pb.PreToolRequestSchema,
  PostTool: pb.PostToolRequestSchema,
  Rewrite: pb.RewriteRequestSchema,
  Approve: pb.ApproveRequestSchema,
  TurnStopping: pb.TurnStoppingRequestSchema,
};
/** The decision's field number in each response: the point's `Point` value. */
const DECISION_FIELD = {
  PreStep: pb.Point.PRE_STEP,
  PreTool: pb.Point.PRE_TOOL,
  PostTool: pb.Point.POST_TOOL,
  Rewrite: pb.Point.REWRITE,
  Approve: pb.Point.APPROVAL,
  TurnStopping: pb.Point.TURN_STOPPING,
};
const rewriteAnswer = (decision) => bytes(pb.RewriteResponseSchema, { decision: { decision } });

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
    case "non-object":
      return method === "Rewrite" ? rewriteAnswer({ case: "replace", value: { argumentsJson: JSON.stringify(["not", "an", "object"]) } }) : undefined;
    case "patch-non-object":
      return method === "Rewrite" ? rewriteAnswer({ case: "patch", value: { mergePatchJson: JSON.stringify("not an object") } }) : undefined;
    case "invalid-json":
      return method === "Rewrite" ? rewriteAnswer({ case: "replace", value: { argumentsJson: '{"scenario": ' } }) : undefined;
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

/** The RPC name of each AttachCall request case that has raw scenarios. */
const ATTACH_METHODS = { preStep: "PreStep", preTool: "PreTool", postTool: "PostTool", rewrite: "Rewrite", approve: "Approve", turnStopping: "TurnStopping" };

/** The Attach answer frame of a raw scenario's call, or undefined to let the SDK answer it. */
function rawAttachAnswer(call) {
  const method = ATTACH_METHODS[call.request.case];
  if (method === undefined) return undefined;
  const scenario = scenarioOfRequest[method](call.request.value);
  const answer = rawAnswer(method, scenario);
  if (answer === undefined) return undefined;
  // wrong-variant answers another point's response: it goes in that point's reply field.
  const point = scenario !== "wrong-variant" ? DECISION_FIELD[method] : method === "PreTool" ? pb.Point.POST_TOOL : pb.Point.PRE_TOOL;
  const frame = new BinaryWriter().tag(1, WireType.Varint).uint64(call.callId).tag(10 + point, WireType.LengthDelimited).bytes(answer).finish();
  return Buffer.from(frame);
}

/** The Attach handler with raw scenarios answered before the SDK's handler sees their frames. */
function attachWithRawAnswers(handler) {
  return (stream) => {
    const push = stream.push.bind(stream);
    stream.push = (decoded) => {
      const frame = decoded?.ok ? decoded.message.frame : undefined;
      const answer = frame?.case === "call" ? rawAttachAnswer(frame.value) : undefined;
      if (answer === undefined) return push(decoded);
      stream.write(answer);
      // The stream reads on only after a push: an empty frame (which the SDK ignores) keeps it reading.
      return push({ ok: true, message: create(pb.AttachRequestSchema, {}) });
    };
    return handler(stream);
  };
}

/** Wraps the registration of the point RPCs and Attach (see the header); every other method is untouched. */
function withRawAnswers(register) {
  return function (name, handler, serialize, deserialize, type) {
    const method = name.startsWith(SERVICE) ? name.slice(SERVICE.length) : "";
    if (method === "Attach") return register.call(this, name, attachWithRawAnswers(handler), serialize, deserialize, type);
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
  const transport = process.env.HOOKD_CONFORMANCE_TRANSPORT === "unary" ? "unary" : undefined;
  serving = servePlugin(plugin, { signal: stop.signal, transport }); // registers its services synchronously
} finally {
  Server.prototype.register = register;
}
const server = await serving;
process.stderr.write(`${NAME} ${process.pid}: serving on ${server.address}\n`);
await server.closed;
