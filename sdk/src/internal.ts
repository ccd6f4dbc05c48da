// Internals shared by the daemon and the SDK's own servers and clients. No compatibility promise.
export * as pb from "./proto.js";
