// conformance-typescript (raw stub): the hookd conformance plugin written from the contract
// alone, WITHOUT @hookd/sdk: plain @grpc/grpc-js, @bufbuild/protobuf and the code `buf generate`
// makes from proto/hookd/v1 (imported from sdk/dist/gen, the generated folder only: no SDK code).
// It proves a TypeScript author needs nothing but the proto, as the Python and Go raw stubs do.
// Unary only: it does not implement Attach, so the daemon gets UNIMPLEMENTED and calls it unary.
//
// Scenarios, manifest, environment and records are exactly those of the other conformance plugins
// (see test/conformance/plugins/python/conformance_plugin.py): the scenario is the call's
// arguments field "scenario" at pre-tool, post-tool, rewrite and approval, the first message's
// text at pre-step (by prefix), the last assistant message's text at turn-stopping; hang, crash,
// garbage and wrong-variant at every point. Every answer is encoded by hand into bytes, so the
// faulty ones (garbage, another RPC's response, invalid combinations) travel as written.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Server, ServerCredentials, status } from "@grpc/grpc-js";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as health from "../../../../sdk/dist/gen/grpc/health/v1/health_pb.js";
import * as plugin from "../../../../sdk/dist/gen/hookd/v1/plugin_pb.js";
import * as points from "../../../../sdk/dist/gen/hookd/v1/points_pb.js";
import * as types from "../../../../sdk/dist/gen/hookd/v1/types_pb.js";

const LANG = "typescript";
const NAME = `conformance-${LANG}`;
const SERVICE = "hookd.v1.HookPlugin";
const SECRET = "SECRET-1234";

if (process.env.HOOKD_CONFORMANCE_UNREACHABLE) {
  process.stderr.write(`${NAME} ${process.pid}: $HOOKD_CONFORMANCE_UNREACHABLE is set: exiting before serving\n`);
  process.exit(3);
}

const POINTS = {
  "pre-step": types.Point.PRE_STEP,
  "pre-tool": types.Point.PRE_TOOL,
  "post-tool": types.Point.POST_TOOL,
  "turn-stopping": types.Point.TURN_STOPPING,
  rewrite: types.Point.REWRITE,
  approval: types.Point.APPROVAL,
  "session-end": types.Point.SESSION_END,
  "turn-end": types.Point.TURN_END,
  "agent-event": types.Point.AGENT_EVENT,
};
const named = (process.env.HOOKD_CONFORMANCE_POINTS ?? Object.keys(POINTS).join(",")).split(",").filter((name) => name !== "");
const unknown = named.filter((name) => !(name in POINTS));
if (unknown.length > 0) throw new Error(`${NAME}: $HOOKD_CONFORMANCE_POINTS names points this plugin does not serve: ${unknown.join(", ")}`);
const policyName = process.env.HOOKD_CONFORMANCE_FAILURE_POLICY ?? "fail-closed";
if (policyName !== "fail-closed" && policyName !== "fail-open") throw new Error(`${NAME}: $HOOKD_CONFORMANCE_FAILURE_POLICY must be fail-closed or fail-open`);
const failurePolicy = policyName === "fail-open" ? types.FailurePolicy.FAIL_OPEN : types.FailurePolicy.FAIL_CLOSED;

/** One message's wire bytes, ready for the identity serializer. */
const encode = (schema, init) => Buffer.from(toBinary(schema, create(schema, init)));
/** A point response: `{ decision: { decision: { case, value } } }`; "pass" is an ordinary key here. */
const answer = (schema, kind, value = {}) => encode(schema, { decision: { decision: { case: kind, value } } });
const pluginSource = (name = NAME) => ({ kind: { case: "plugin", value: { name } } });
const userSource = () => ({ kind: { case: "user", value: {} } });
const message = (text, source) => ({ role: types.Role.USER, content: [{ block: { case: "text", value: text } }], source });
const contextMessage = () => message(`conformance: context from ${LANG}`, pluginSource());
const textOf = (msg) => (msg?.content ?? []).filter((block) => block.block.case === "text").map((block) => block.block.value).join("\n");
/** SESSION_END_REASON_DAEMON_STOPPING is DAEMON_STOPPING in protobuf-es: daemon-stopping, the records' form. */
const enumName = (enumObject, value) => String(enumObject[value]).toLowerCase().replaceAll("_", "-");

function scenarioOf(call) {
  try {
    const args = JSON.parse(call?.argumentsJson ?? "");
    return typeof args === "object" && args !== null && typeof args.scenario === "string" ? args.scenario : "";
  } catch {
    return "";
  }
}

/** Writes what a notification received, atomically, where the test reads it. */
function record(point, session, fields) {
  const dir = process.env.HOOKD_CONFORMANCE_RECORDS;
  if (!dir) return;
  const written = { point, sessionId: session.sessionId, agentId: session.agentId, parentSessionId: session.parentSessionId, agentType: session.agentType, ...fields };
  const temporary = join(dir, `.record-${process.pid}-${point}-${session.sessionId}`);
  writeFileSync(temporary, JSON.stringify(written));
  renameSync(temporary, join(dir, `${point}.${session.sessionId}.json`));
}

class Hang {}
const HANG = new Hang();

/** The fault scenarios every point shares; undefined when the scenario is the point's own. */
function common(scenario, point) {
  if (scenario === "hang") return HANG;
  if (scenario === "crash") {
    process.stderr.write(`${NAME} ${process.pid}: crashing mid-call\n`);
    process.exit(1);
  }
  // A varint (wire type 0) in the decision's field (numbered like the point), which is a message.
  if (scenario === "garbage") return Buffer.from([(point << 3) | 0, 1]);
  if (scenario === "wrong-variant") {
    return point === types.Point.PRE_TOOL ? answer(plugin.PostToolResponseSchema, "accept") : answer(plugin.PreToolResponseSchema, "allow");
  }
  return undefined;
}

/** The same message (role, id, the source the plugin saw) with its text replaced. It is a decoded
 * message already, so the new block must be one too (create() copies a message as it is). */
const withText = (msg, text) => ({ ...msg, content: [create(types.ContentBlockSchema, { block: { case: "text", value: text } })] });

/** Every RPC this plugin serves: request -> response bytes, or HANG. */
const handlers = {
  Describe: () =>
    encode(plugin.DescribeResponseSchema, {
      manifest: {
        name: NAME,
        version: "1.0.0",
        subscriptions: named.map((name) => ({ point: POINTS[name], tools: name === "agent-event" ? ["Conformance*"] : [], failurePolicy })),
      },
    }),
  PreTool: ({ event }) => {
    const scenario = scenarioOf(event?.call);
    const R = plugin.PreToolResponseSchema;
    if (scenario === "allow") return answer(R, "allow");
    if (scenario === "deny") return answer(R, "deny", { reason: `conformance: denied by ${LANG}` });
    if (scenario === "ask") return answer(R, "ask", { reason: `conformance: asked by ${LANG}` });
    return common(scenario, types.Point.PRE_TOOL) ?? answer(R, "pass");
  },
  PostTool: ({ event }) => {
    const scenario = scenarioOf(event?.call);
    const R = plugin.PostToolResponseSchema;
    const content = { blocks: [{ block: { case: "text", value: `conformance: replaced by ${LANG}` } }] };
    const valueJson = JSON.stringify({ replacedBy: LANG });
    if (scenario === "block") return answer(R, "block", { feedback: `conformance: blocked by ${LANG}` });
    if (scenario === "replace") return answer(R, "accept", { content });
    if (scenario === "value") return answer(R, "accept", { valueJson });
    if (scenario === "context") return answer(R, "accept", { additionalContexts: [contextMessage()] });
    if (scenario === "invalid") return answer(R, "accept", { content, valueJson });
    if (scenario === "forge-context") return answer(R, "accept", { additionalContexts: [message(`conformance: forged by ${LANG}`, userSource())] });
    return common(scenario, types.Point.POST_TOOL) ?? answer(R, "pass");
  },
  PreStep: ({ event }) => {
    const messages = event?.messages ?? [];
    const text = textOf(messages[0]);
    const R = plugin.PreStepResponseSchema;
    const [first, ...rest] = messages;
    if (text.startsWith("inject")) return answer(R, "enter", { messages: [...messages, contextMessage()] });
    if (text.startsWith("reject")) return answer(R, "reject", { reason: `conformance: rejected by ${LANG}` });
    if (text.startsWith("redact")) return answer(R, "enter", { messages: [withText(first, text.replaceAll(SECRET, "[redacted]")), ...rest] });
    if (text.startsWith("rewrite")) return answer(R, "enter", { messages: [withText(first, `conformance: prompt rewritten by ${LANG}`), ...rest] });
    if (text.startsWith("forge")) return answer(R, "enter", { messages: [...messages, message(`conformance: forged by ${LANG}`, pluginSource("someone-else"))] });
    return common(text, types.Point.PRE_STEP) ?? answer(R, "pass");
  },
  Rewrite: ({ event }) => {
    const call = event?.call;
    const scenario = scenarioOf(call);
    const R = plugin.RewriteResponseSchema;
    const replace = (argumentsJson) => answer(R, "replace", { argumentsJson });
    const patch = (mergePatchJson) => answer(R, "patch", { mergePatchJson });
    if (scenario === "replace") return replace(JSON.stringify({ scenario: "replace", rewrittenBy: LANG }));
    if (scenario === "patch") return patch(JSON.stringify({ patchedBy: LANG, drop: null, nested: { added: true } }));
    if (scenario === "non-object") return replace(JSON.stringify(["not", "an", "object"]));
    if (scenario === "patch-non-object") return patch(JSON.stringify("not an object"));
    if (scenario === "invalid-json") return replace('{"scenario": ');
    // JSON.parse would round big integers: splice one key into the object's own text instead, so
    // every digit the daemon sent goes back untouched.
    if (scenario === "big-int") return replace(`${call.argumentsJson.trimEnd().slice(0, -1)},"rewrittenBy":${JSON.stringify(LANG)}}`);
    return common(scenario, types.Point.REWRITE) ?? answer(R, "pass");
  },
  Approve: ({ event }) => {
    const scenario = scenarioOf(event?.call);
    const R = plugin.ApproveResponseSchema;
    if (scenario === "approve") return answer(R, "approve");
    if (scenario === "reject") return answer(R, "reject", { reason: `conformance: rejected by ${LANG}` });
    return common(scenario, types.Point.APPROVAL) ?? answer(R, "pass");
  },
  TurnStopping: ({ event }) => {
    const text = textOf(event?.lastAssistantMessage);
    const R = plugin.TurnStoppingResponseSchema;
    if (text === "steer") return answer(R, "steer", { messages: [message(`conformance: steered by ${LANG}`, pluginSource())] });
    if (text === "forge-steer") return answer(R, "steer", { messages: [message(`conformance: steered by ${LANG}`, userSource())] });
    return common(text, types.Point.TURN_STOPPING) ?? answer(R, "pass");
  },
  SessionEnd: ({ event }) => {
    record("session-end", event.session, { reason: enumName(types.SessionEndReason, event.reason), detail: event.detail, turns: event.turns });
    return encode(plugin.SessionEndResponseSchema, {});
  },
  TurnEnd: ({ event }) => {
    record("turn-end", event.session, { turn: event.turn, outcome: enumName(points.TurnEndOutcome, event.outcome), detail: event.detail, steps: event.steps });
    return encode(plugin.TurnEndResponseSchema, {});
  },
  AgentEvent: ({ event }) => {
    record("agent-event", event.session, { dialect: enumName(types.AgentDialect, event.dialect), eventName: event.eventName, payloadJson: event.payloadJson });
    return encode(plugin.AgentEventResponseSchema, {});
  },
};

/** A grpc-js service definition for the methods of `service` named in `impl`, answers as raw bytes. */
function definition(service, impl) {
  const methods = {};
  for (const method of service.methods) {
    if (!(method.name in impl)) continue; // Attach and the points not served answer UNIMPLEMENTED
    methods[method.name] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestDeserialize: (bytes) => fromBinary(method.input, bytes),
      requestSerialize: (value) => value,
      responseSerialize: (bytes) => bytes,
      responseDeserialize: (bytes) => bytes,
    };
  }
  return methods;
}

/** A unary handler: the answer's bytes, a hang until the call ends, or an error status. */
const unary = (handle) => (call, callback) => {
  let result;
  try {
    result = handle(call.request);
  } catch (error) {
    callback({ code: status.INTERNAL, details: `${NAME}: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  if (result === HANG) {
    call.on("cancelled", () => callback({ code: status.CANCELLED, details: "the call ended before an answer" }));
    return;
  }
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  if (Number.isFinite(at) && at <= Date.now()) callback({ code: status.DEADLINE_EXCEEDED, details: "the deadline passed before the answer" });
  else callback(null, result);
};

const SERVING = health.HealthCheckResponse_ServingStatus.SERVING;
const server = new Server();
server.addService(definition(plugin.HookPlugin, handlers), Object.fromEntries(Object.entries(handlers).map(([name, handle]) => [name, unary(handle)])));
// Health is required: the daemon asks for "hookd.v1.HookPlugin", then "" when that is NOT_FOUND.
let healthStatus = SERVING;
server.addService(definition(health.Health, { Check: true }), {
  Check: (call, callback) => {
    const { service } = call.request;
    if (service !== "" && service !== SERVICE) callback({ code: status.NOT_FOUND, details: `unknown service ${service}` });
    else callback(null, encode(health.HealthCheckResponseSchema, { status: healthStatus }));
  },
});

const socket = process.env.HOOKD_PLUGIN_SOCKET;
const listen = process.argv.includes("--listen") ? process.argv[process.argv.indexOf("--listen") + 1] : undefined;
// $HOOKD_PLUGIN_SOCKET is a bare filesystem path; grpc-js wants a unix: address.
const address = listen ?? (socket ? `unix://${socket}` : undefined);
if (address === undefined) throw new Error(`${NAME}: no address: pass --listen ADDRESS or set HOOKD_PLUGIN_SOCKET`);
server.bindAsync(address, ServerCredentials.createInsecure(), (error) => {
  if (error) {
    process.stderr.write(`${NAME}: cannot listen on ${address}: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${NAME} ${process.pid}: serving on ${address} (raw stub, unary)\n`);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    healthStatus = health.HealthCheckResponse_ServingStatus.NOT_SERVING;
    const force = setTimeout(() => server.forceShutdown(), 2_000);
    server.tryShutdown(() => clearTimeout(force));
  });
}
