// The request metadata a load balancer can route on: the agent's identity and, on hosted-session
// streams and unary evaluates, the session id. Sent by the agent client, checked by the daemon
// against the frame it accompanies (a mismatch is the caller's mistake). docs/fleet.md shows the
// nginx, Envoy and HAProxy settings that pin on them.

/** The agent's declared identity (without tokens it is the identity; with one, it must match). */
export const AGENT_HEADER = "x-hookd-agent";
/** The hosted or evaluated session: OpenSession.session_id, or event.session.session_id. */
export const SESSION_HEADER = "x-hookd-session";

/** Metadata values must be printable ASCII (grpc-js refuses anything else at call time). */
export const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * `base` plus the session header. A session id that cannot travel as a header value (non-ASCII,
 * surrounding spaces) is left out: the call still works, it only gets no affinity.
 */
export function withSession(base: Readonly<Record<string, string>>, sessionId: string): Readonly<Record<string, string>> {
  return HEADER_VALUE.test(sessionId) ? { ...base, [SESSION_HEADER]: sessionId } : base;
}
