// The grpc-js adapter for protobuf-es services: definitions, promise handlers, typed clients,
// statuses and listen addresses. The SDK's plugin server, the agent client and the daemon build
// on it; it is exported from "@hookd/sdk/internal" only, with no compatibility promise.
export {
  serviceDefinition,
  methodPath,
  type AnyService,
  type Decoded,
  type HookdMethodDefinition,
  type HookdServiceDefinition,
  type InputInitOf,
  type InputOf,
  type MethodsOf,
  type OutputInitOf,
  type OutputOf,
} from "./definition.js";
export {
  addService,
  EncodedResponse,
  type BidiStreamingHandler,
  type MethodHandler,
  type ServerCallInfo,
  type ServerStreamCall,
  type ServerStreamingHandler,
  type ServiceImpl,
  type UnaryHandler,
} from "./server.js";
export {
  createClient,
  closeClient,
  type BidiCall,
  type BidiStreamingMethod,
  type CallOptions,
  type ClientMethod,
  type ClientOptions,
  type ServerStreamingMethod,
  type TypedClient,
  type UnaryMethod,
} from "./client.js";
export type { Requests } from "./requests.js";
export { startUnaryCall, type UnaryCallOptions } from "./unary.js";
export {
  StatusError,
  ERROR_STATUS,
  httpStatusOf,
  invalidArgument,
  statusName,
  toStatusError,
  type ErrorStatus,
  type StatusCode,
} from "./status.js";
export { bindServer, parseAddress, removeStaleSocket, type ListenAddress } from "./address.js";
