// Internals shared by the daemon and the SDK's own servers and clients. No compatibility promise.
export * as pb from "./proto.js";
// The grpc-js adapter (sdk/src/grpc): service definitions, promise handlers, typed clients.
export * from "./grpc/index.js";
// Exact conversion between the protobuf and the typed forms (sdk/src/convert).
export * from "./convert.js";
// Errors at one field of an input, re-coded by the boundary that reads it (sdk/src/errors.ts).
export { atBoundary, fieldError, isFieldError, type FieldDetails } from "./errors.js";
// Freezing what hookd itself built, without walking parts frozen before, and sealing a value it
// has itself just parsed without parsing it again (sdk/src/json.ts).
export { freezeBuilt, snapshotParsed } from "./json.js";
// An abort whose AbortSignal is made on first read (sdk/src/lazy-abort.ts).
export { LazyAbort, signalOf, whenAborted } from "./lazy-abort.js";
export type { Cancellation } from "./lazy-abort.js";
// Handler contexts with a signal made on first read (sdk/src/context.ts).
export { CallContext, NextContext } from "./context.js";
// The note the agent client answers an approval request with when it has no approver.
export { NO_APPROVER } from "./agent/handlers.js";
// The affinity metadata agents send and the daemon checks against the frame.
export { AGENT_HEADER, SESSION_HEADER } from "./agent/affinity.js";
// Which oneof case carries each evaluated point on the HookHost.Evaluate stream.
export { EVALUATE_STREAM_CASES, EVALUATE_STREAM_REQUESTS, type EvaluateStreamCase } from "./agent/stream-cases.js";
