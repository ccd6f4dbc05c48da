// The generated protobuf schemas and services (sdk/src/gen, made by `npm run generate`).
export * from "./gen/hookd/v1/types_pb.js";
export * from "./gen/hookd/v1/point_options_pb.js";
export * from "./gen/hookd/v1/point_facts_pb.js";
export * from "./gen/hookd/v1/points_pb.js";
export * from "./gen/hookd/v1/plugin_pb.js";
export * from "./gen/hookd/v1/host_pb.js";
export * from "./gen/hookd/v1/admin_pb.js";
export * as health from "./gen/grpc/health/v1/health_pb.js";
