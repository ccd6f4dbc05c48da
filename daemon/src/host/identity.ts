// Who is calling: the agent identity of a gRPC call. With tokens configured, the bearer token is
// the identity and is required; without, the agent names itself (metadata x-hookd-agent, or the
// agent_id it declares). A declared id that contradicts the token is refused. Sessions are keyed
// by this identity, so an agent can never reach another agent's session. SwappableIdentities lets
// a config reload replace the tokens under running services.
import { readFileSync } from "node:fs";
import { timingSafeEqual } from "node:crypto";
import { status } from "@grpc/grpc-js";
import type { Metadata } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";

export const AGENT_HEADER = "x-hookd-agent";
const ANONYMOUS = "anonymous";

export type TokenConfig = { readonly agent: string; readonly token: string } | { readonly agent: string; readonly tokenFile: string };

export class AgentIdentities {
  readonly #tokens: readonly { readonly agent: string; readonly token: Buffer }[];

  constructor(tokens: readonly TokenConfig[]) {
    this.#tokens = tokens.map((entry) => ({
      agent: entry.agent,
      token: Buffer.from("token" in entry ? entry.token : readFileSync(entry.tokenFile, "utf8").trim()),
    }));
  }

  get requiresToken(): boolean {
    return this.#tokens.length > 0;
  }

  /** The caller's agent id; throws UNAUTHENTICATED or PERMISSION_DENIED as a StatusError. */
  resolve(metadata: Metadata, declared = ""): string {
    return this.resolveHeaders((name) => String(metadata.get(name)[0] ?? ""), declared);
  }

  /**
   * resolve() by a header reader (the value, "" when absent): the HTTP endpoint reads its
   * request's headers so, without building gRPC Metadata for every hook it is posted.
   */
  resolveHeaders(header: (name: typeof AGENT_HEADER | "authorization") => string, declared = ""): string {
    const headerAgent = header(AGENT_HEADER);
    if (!this.requiresToken) {
      if (headerAgent !== "" && declared !== "" && headerAgent !== declared) {
        throw new StatusError(status.PERMISSION_DENIED, `agent_id "${declared}" does not match the connection's agent "${headerAgent}"`);
      }
      return declared || headerAgent || ANONYMOUS;
    }
    const auth = header("authorization");
    const match = /^Bearer\s+(.+)$/i.exec(auth);
    if (match?.[1] === undefined) throw new StatusError(status.UNAUTHENTICATED, "authorization: a bearer token is required");
    const offered = Buffer.from(match[1]);
    const entry = this.#tokens.find((t) => t.token.length === offered.length && timingSafeEqual(t.token, offered));
    if (entry === undefined) throw new StatusError(status.UNAUTHENTICATED, "authorization: unknown token");
    for (const claimed of [declared, headerAgent]) {
      if (claimed !== "" && claimed !== entry.agent) {
        throw new StatusError(status.PERMISSION_DENIED, `agent_id "${claimed}" does not match the token's agent "${entry.agent}"`);
      }
    }
    return entry.agent;
  }
}

/**
 * Agent identities the host and evaluate services hold once and a reload can replace: every call
 * resolves against the tokens in force when it arrives.
 */
export class SwappableIdentities extends AgentIdentities {
  #current: AgentIdentities;

  constructor(initial: AgentIdentities) {
    super([]);
    this.#current = initial;
  }

  replace(next: AgentIdentities): void {
    this.#current = next;
  }

  override get requiresToken(): boolean {
    return this.#current.requiresToken;
  }

  override resolve(metadata: Metadata, declared = ""): string {
    return this.#current.resolve(metadata, declared);
  }

  override resolveHeaders(header: (name: typeof AGENT_HEADER | "authorization") => string, declared = ""): string {
    return this.#current.resolveHeaders(header, declared);
  }
}
