// The session header an agent sends for load-balancer affinity (x-hookd-session) must name the
// session of the frame it travels with: a balancer pins on the header, the daemon acts on the
// frame, and the two disagreeing would pin one session's calls to another's instance.
import { status } from "@grpc/grpc-js";
import type { Metadata } from "@grpc/grpc-js";
import { SESSION_HEADER, StatusError } from "@hookd/sdk/internal";

/** Throws INVALID_ARGUMENT naming `field` when the call's session header is present and differs from `sessionId`. */
export function checkSessionHeader(metadata: Metadata, sessionId: string, field: string): void {
  const values = metadata.get(SESSION_HEADER);
  if (values.length === 0) return;
  const header = String(values[0]);
  if (header !== sessionId) {
    throw new StatusError(status.INVALID_ARGUMENT, `${field}: "${sessionId}" does not match the call's ${SESSION_HEADER} metadata "${header}"`);
  }
}
