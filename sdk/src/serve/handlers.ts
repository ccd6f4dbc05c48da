// The HookPlugin service of one plugin definition: Describe derived from its subscriptions, and
// one RPC per point it handles. Each RPC converts the proto event to the typed (frozen) form,
// calls the handler with a context whose signal follows the client's cancel and deadline (and
// whose traceparent is the daemon's, from the call's metadata or the Attach frame),
// validates the answer like the daemon would, and converts it back. A handler that throws or
// answers something invalid gets an error status naming the point and the field, never a crash.
// Points the definition does not handle are left out, so they answer UNIMPLEMENTED. Attach
// (attach.ts) runs the very same point handlers for the calls it carries.
import { status } from "@grpc/grpc-js";
import { create } from "@bufbuild/protobuf";
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { NextContext } from "../context.js";
import type { DecisionPoint } from "../convert.js";
import { PLUGIN_METHODS, fromProtoEvent, isDecisionPoint, toProtoDecision, toProtoFailurePolicy, toProtoPoint } from "../convert.js";
import type { ProtoEvent } from "../convert.js";
import { HookdError } from "../errors.js";
import type { PluginDefinition, Subscription } from "../plugin.js";
import { encode } from "../grpc/definition.js";
import { EncodedResponse } from "../grpc/server.js";
import type { ServerCallInfo, ServiceImpl } from "../grpc/server.js";
import { StatusError, invalidArgument, toStatusError } from "../grpc/status.js";
import * as pb from "../proto.js";
import { POINTS } from "../types.js";
import type { PointName } from "../types.js";
import { SINGLETON_ANSWERS, validateDecision } from "../validate.js";
import { attachHandler } from "./attach.js";

/** Receives a handler's failure (a throw or an invalid answer) before it becomes the call's status. */
export type ErrorReporter = (error: StatusError, point: PointName) => void;

export const NEXT_UNAVAILABLE = "next() is only available in-process; return pass() instead";

/** Which transport the plugin asks the daemon for; absent: the stream (Attach is always served). */
export type ServeTransport = "unary" | "stream";

const TRANSPORT: Readonly<Record<ServeTransport, pb.PluginTransport>> = { unary: pb.PluginTransport.UNARY, stream: pb.PluginTransport.STREAM };

/** The manifest Describe answers, derived from the definition (points in firing order). */
export function manifestOf(definition: PluginDefinition, transport?: ServeTransport): MessageInitShape<typeof pb.PluginManifestSchema> {
  return {
    name: definition.name,
    version: definition.version,
    sideEffectFree: definition.sideEffectFree,
    transport: transport === undefined ? pb.PluginTransport.UNSPECIFIED : TRANSPORT[transport],
    subscriptions: POINTS.flatMap((point) => {
      const sub: Subscription<PointName> | undefined = definition.subscriptions[point];
      if (sub === undefined) return [];
      return [
        {
          point: toProtoPoint(point),
          tools: [...(sub.tools ?? [])],
          priority: sub.priority ?? 0,
          deadlineMs: sub.deadlineMs ?? 0,
          failurePolicy: toProtoFailurePolicy(sub.failurePolicy),
        },
      ];
    }),
  };
}

/**
 * One point's handler behind its unary RPC and Attach: a response (or EncodedResponse), or a
 * thrown StatusError. `traceparent` is the daemon's trace context for the call, if it sent one.
 */
export type PointRequestHandler = (request: { readonly event?: unknown }, call: ServerCallInfo, traceparent: string | undefined) => Promise<unknown>;

/** The HookPlugin implementation of `definition`: its points, Describe and Attach. */
export function pluginService(definition: PluginDefinition, report: ErrorReporter, transport?: ServeTransport): Partial<ServiceImpl<typeof pb.HookPlugin>> {
  const impl: Record<string, unknown> = {
    describe: async () => ({ manifest: manifestOf(definition, transport) }),
  };
  const handlers = new Map<PointName, PointRequestHandler>();
  for (const point of POINTS) {
    const sub: Subscription<PointName> | undefined = definition.subscriptions[point];
    if (sub === undefined) continue;
    const handler = pointHandler(definition.name, point, sub, report);
    handlers.set(point, handler);
    impl[PLUGIN_METHODS[point]] = (request: { readonly event?: unknown }, call: ServerCallInfo) => handler(request, call, traceparentOf(call));
  }
  impl.attach = attachHandler(handlers);
  // addService checks every key names a method and every handler is a function.
  return impl;
}

function pointHandler(plugin: string, point: PointName, sub: Subscription<PointName>, report: ErrorReporter): PointRequestHandler {
  const handler = sub.handler as (event: unknown, ctx: unknown) => unknown;
  const encodedSingleton = isDecisionPoint(point) ? singletonResponses(point) : () => undefined;
  const fail = (error: StatusError): never => {
    report(error, point);
    throw error;
  };
  return async (request, call, traceparent) => {
    if (request.event === undefined) throw invalidArgument("event", "missing");
    const event = fromProtoEvent(point, request.event as ProtoEvent<PointName>);
    if (!event.ok) throw new StatusError(status.INVALID_ARGUMENT, event.error.message, { cause: event.error });
    // The signal is made only if the handler reads it (most never do).
    const ctx = new NextContext(call.cancellation, plugin, nextUnavailable, traceparent);
    let answer: unknown;
    try {
      answer = await handler(event.value, ctx);
    } catch (error) {
      return fail(handlerError(plugin, point, error, call.signal));
    }
    const checked = validateDecision(point, answer);
    if (!checked.ok) {
      return fail(new StatusError(status.UNKNOWN, `plugin ${plugin} at ${point} answered an invalid decision: ${checked.error.message}`, { cause: checked.error }));
    }
    if (!isDecisionPoint(point)) return {}; // an observer answers nothing
    const encoded = encodedSingleton(checked.decision);
    if (encoded !== undefined) return encoded;
    try {
      return { decision: toProtoDecision(point, checked.decision as never) };
    } catch (error) {
      return fail(new StatusError(status.UNKNOWN, `plugin ${plugin} at ${point}: the decision cannot be encoded: ${messageOf(error)}`, { cause: error }));
    }
  };
}

/**
 * The response of `point` for each singleton decision, encoded on first use and sent as is
 * afterwards: building and encoding the same message on every call was a visible share of a
 * served plugin's CPU per call (bench/README.md).
 */
function singletonResponses(point: DecisionPoint): (decision: unknown) => EncodedResponse | undefined {
  const output: DescMessage = pb.HookPlugin.method[PLUGIN_METHODS[point]].output;
  const encoded = new Map<unknown, EncodedResponse>();
  return (decision) => {
    if (!SINGLETON_ANSWERS.has(decision)) return undefined;
    let response = encoded.get(decision);
    if (response === undefined) {
      const message = { decision: toProtoDecision(point, decision as never) } as MessageInitShape<DescMessage>;
      response = new EncodedResponse(encode(output, create(output, message)));
      encoded.set(decision, response);
    }
    return response;
  };
}

/** A unary call's `traceparent` metadata (the daemon sends it while its tracing is on). */
function traceparentOf(call: ServerCallInfo): string | undefined {
  const value = call.metadata.get("traceparent")[0];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A rejected promise already marked handled: a handler that drops it must not crash the server. */
function nextUnavailable(): Promise<never> {
  const rejected = Promise.reject(new HookdError("plugin_error", NEXT_UNAVAILABLE));
  rejected.catch(() => {});
  return rejected;
}

/** A StatusError thrown on purpose is kept; a cancelled call stays cancelled; anything else is the handler's bug. */
function handlerError(plugin: string, point: PointName, error: unknown, signal: AbortSignal): StatusError {
  if (error instanceof StatusError) return error;
  if (signal.aborted && error === signal.reason) return toStatusError(error);
  return new StatusError(status.UNKNOWN, `plugin ${plugin} at ${point} threw: ${messageOf(error)}`, { cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
