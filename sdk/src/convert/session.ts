// Exact conversion of the session facts (SessionInfo with its lineage, why a session started and
// why it ended) between protobuf messages and the typed form of types.ts. Re-exported by
// values.ts, where the rest of the shared vocabulary lives.
import { create } from "@bufbuild/protobuf";
import * as pb from "../proto.js";
import type { SessionEndReason, SessionInfo, SessionSource } from "../types.js";
import { enumMap, reader } from "./result.js";
import { fieldError } from "../errors.js";

const sessionSources = enumMap<SessionSource, pb.SessionSource>({
  startup: pb.SessionSource.STARTUP,
  resume: pb.SessionSource.RESUME,
  clear: pb.SessionSource.CLEAR,
  compact: pb.SessionSource.COMPACT,
  subagent: pb.SessionSource.SUBAGENT,
});
const sessionEndReasons = enumMap<SessionEndReason, pb.SessionEndReason>({
  closed: pb.SessionEndReason.CLOSED,
  cleared: pb.SessionEndReason.CLEARED,
  disconnected: pb.SessionEndReason.DISCONNECTED,
  expired: pb.SessionEndReason.EXPIRED,
  daemon_stopping: pb.SessionEndReason.DAEMON_STOPPING,
});

export const readSessionSource = sessionSources.read;
export const toProtoSessionSource = (source: SessionSource): pb.SessionSource => sessionSources.toProto(source);
/** SESSION_SOURCE_UNSPECIFIED and unknown numbers are errors. */
export const fromProtoSessionSource = reader(sessionSources.read, "source");

export const readSessionEndReason = sessionEndReasons.read;
export const toProtoSessionEndReason = (reason: SessionEndReason): pb.SessionEndReason => sessionEndReasons.toProto(reason);

export function toProtoSessionInfo(session: SessionInfo): pb.SessionInfo {
  return create(pb.SessionInfoSchema, {
    sessionId: session.sessionId,
    agentId: session.agentId,
    cwd: session.cwd,
    parentSessionId: session.parentSessionId ?? "",
    agentType: session.agentType ?? "",
  });
}

/** Empty lineage fields are absent in the typed form (proto3 cannot tell empty from unset). */
export function readSessionInfo(message: pb.SessionInfo | undefined, path: string): SessionInfo {
  if (message === undefined) throw fieldError(path, "missing");
  return {
    sessionId: message.sessionId,
    agentId: message.agentId,
    cwd: message.cwd,
    ...(message.parentSessionId === "" ? {} : { parentSessionId: message.parentSessionId }),
    ...(message.agentType === "" ? {} : { agentType: message.agentType }),
  };
}
export const fromProtoSessionInfo = reader(readSessionInfo, "session");
