// Where a remote plugin is reached and how: the target address ("unix:///abs/path" or
// "host:port"), TLS or mTLS credentials read from files, and the channel options that give
// grpc-js's own reconnection the plugin's backoff. Owns nothing about calls.
import { readFile } from "node:fs/promises";
import { credentials } from "@grpc/grpc-js";
import type { ChannelCredentials, ChannelOptions } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import { parseAddress } from "@hookd/sdk/internal";

/** TLS for a remote plugin: `ca` verifies the server; `cert` + `key` make it mTLS. File paths. */
export interface TlsFiles {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  /** The name the server's certificate must carry, when it differs from the target's host. */
  readonly serverName?: string;
}

/** Checks a target early, so a typo is a config error rather than a plugin that never connects. */
export function checkTarget(target: string, path = "target"): string {
  try {
    parseAddress(target);
  } catch (error) {
    throw new HookdError("invalid_argument", `${path}: ${(error as Error).message}`, { cause: error });
  }
  return target;
}

/** Insecure without `tls` (Unix sockets, loopback); otherwise SSL with the given files. */
export async function channelCredentials(tls: TlsFiles | undefined, path = "tls"): Promise<ChannelCredentials> {
  if (tls === undefined) return credentials.createInsecure();
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new HookdError("invalid_argument", `${path}: cert and key go together (mTLS needs both)`);
  }
  const read = async (file: string | undefined, field: string): Promise<Buffer | null> => {
    if (file === undefined) return null;
    try {
      return await readFile(file);
    } catch (error) {
      throw new HookdError("invalid_argument", `${path}.${field}: cannot read ${file}: ${(error as Error).message}`, { cause: error });
    }
  };
  const [ca, key, cert] = await Promise.all([read(tls.ca, "ca"), read(tls.key, "key"), read(tls.cert, "cert")]);
  return credentials.createSsl(ca, key, cert);
}

export interface BackoffPolicy {
  /** First reconnect / probe delay in milliseconds; doubles up to maxBackoffMs. */
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
}

/** The longest timer Node allows: a plugin's channel never goes idle on a timer. */
const NEVER_IDLE_MS = 2_147_483_647;

/**
 * grpc-js reconnects a broken channel by itself; these options make it follow the plugin's backoff.
 * The connection to a plugin is kept while the daemon runs (the admission re-checks a plugin
 * whenever it drops), so it is not dropped after an idle spell either.
 */
export function channelOptions(backoff: BackoffPolicy, tls?: TlsFiles): ChannelOptions {
  return {
    "grpc.initial_reconnect_backoff_ms": backoff.initialBackoffMs,
    "grpc.max_reconnect_backoff_ms": backoff.maxBackoffMs,
    "grpc.client_idle_timeout_ms": NEVER_IDLE_MS,
    ...(tls?.serverName === undefined
      ? {}
      : { "grpc.ssl_target_name_override": tls.serverName, "grpc.default_authority": tls.serverName }),
  };
}
