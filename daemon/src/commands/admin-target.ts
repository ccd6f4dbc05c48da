// Finding the daemon for the admin commands: --socket, else $HOOKD_SOCKET, else the user's default
// socket and then the systemd install's admin socket (deploy/hookd.service), in that order. A call
// that reaches no daemon at any of them says so plainly, naming every place tried, instead of
// grpc-js's connection notes.
import { join } from "node:path";
import { status as grpcStatus } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { runtimeDir } from "../config/load.js";

/** The admin socket of a systemd install (config.admin in deploy/hookd.yaml). */
export const SYSTEM_ADMIN_SOCKET = "/run/hookd/admin/admin.sock";

/** A path (absolute or ./relative) as a unix:// target; anything else as given. */
export function asTarget(chosen: string): string {
  return chosen.startsWith("/") || chosen.startsWith(".") ? `unix://${chosen.startsWith("/") ? chosen : join(process.cwd(), chosen)}` : chosen;
}

interface Candidate {
  readonly target: string;
  /** Where it came from, for the message. */
  readonly from: string;
}

/** The targets to try, in order. */
export function adminCandidates(socket: string | undefined, env: NodeJS.ProcessEnv = process.env): Candidate[] {
  if (socket !== undefined) return [{ target: asTarget(socket), from: "--socket" }];
  if (env.HOOKD_SOCKET !== undefined && env.HOOKD_SOCKET !== "") return [{ target: asTarget(env.HOOKD_SOCKET), from: "$HOOKD_SOCKET" }];
  return [
    { target: asTarget(join(runtimeDir(env), "hookd.sock")), from: "the default socket" },
    { target: asTarget(SYSTEM_ADMIN_SOCKET), from: "the systemd install's admin socket" },
  ];
}

/**
 * The socket error of a call that never reached a daemon ("ENOENT", "ECONNREFUSED", ...), or
 * undefined: an UNAVAILABLE the daemon itself sent (e.g. while shutting down) is its own message.
 */
function neverConnected(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error) || error.code !== grpcStatus.UNAVAILABLE) return undefined;
  const details = "details" in error && typeof error.details === "string" ? error.details : "";
  if (!details.startsWith("No connection established")) return undefined;
  return /\b(E[A-Z]+)\b/.exec(details)?.[1] ?? "no connection";
}

const shown = (target: string): string => (target.startsWith("unix://") ? target.slice("unix://".length) : target);

/** Runs `body` against the first candidate where a daemon answers. */
export async function withAdmin<T>(socket: string | undefined, body: (client: TypedClient<typeof pb.HookAdmin>, target: string) => Promise<T>): Promise<T> {
  const candidates = adminCandidates(socket);
  const refused: Candidate[] = [];
  for (const candidate of candidates) {
    const client = createClient(pb.HookAdmin, candidate.target);
    try {
      return await body(client, candidate.target);
    } catch (error) {
      const cause = neverConnected(error);
      if (cause === undefined) throw error;
      if (cause === "EACCES" || cause === "EPERM") refused.push(candidate);
    } finally {
      closeClient(client);
    }
  }
  const tried = `(tried: ${candidates.map((c) => `${c.target}, from ${c.from}`).join("; ")}${socket === undefined && candidates.length > 1 ? "; give --socket or set HOOKD_SOCKET" : ""})`;
  // A socket that is there but refuses this user is no missing daemon.
  const [denied] = refused;
  if (denied !== undefined) {
    const whose = denied.target === asTarget(SYSTEM_ADMIN_SOCKET) ? " (a systemd install's admin socket is for root and the hookd user)" : "";
    throw new HookdError("unavailable", `cannot connect to hookd at ${shown(denied.target)}: permission denied${whose} ${tried}`);
  }
  throw new HookdError("unavailable", `no hookd at ${shown(candidates[0]?.target ?? "")} — is it running? ${tried}`);
}
