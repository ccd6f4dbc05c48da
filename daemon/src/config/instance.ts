// Who this daemon is in a fleet, and which config it runs: the instance id (config `instance.id`,
// else $HOOKD_INSTANCE_ID, else generated at start) and the config version (a digest of the
// effective config). Both go on every audit record, log line, status and the metrics' info series,
// so the records of many instances behind one balancer can be told apart and compared.
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Config } from "./schema.js";

/** Letters, digits, '.', '_', ':', '-'; at most 128 characters (a label value, a file-name part). */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The configured id, else $HOOKD_INSTANCE_ID (a Kubernetes pod name through the Downward API, a
 * systemd template's `%i`: one config file shared by many instances), else the host name and six
 * random hex digits: unique per start, so a restarted instance's records are its own.
 */
export function resolveInstanceId(config: Config, env: NodeJS.ProcessEnv = process.env, host: string = hostname()): string {
  if (config.instance.id !== undefined) return config.instance.id;
  const fromEnv = env.HOOKD_INSTANCE_ID ?? "";
  if (fromEnv !== "") {
    if (!INSTANCE_ID_PATTERN.test(fromEnv)) throw new Error(`HOOKD_INSTANCE_ID: ${JSON.stringify(fromEnv)} is not an instance id (letters, digits, '.', '_', ':', '-'; at most 128)`);
    return fromEnv;
  }
  const name = host.split(".")[0]?.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "") ?? "";
  return `${name === "" ? "hookd" : name.slice(0, 100)}-${randomBytes(3).toString("hex")}`;
}

/**
 * A stable digest of the effective config: 12 hex digits of SHA-256 over its canonical JSON (keys
 * sorted), without `instance` so instances sharing one config report one version. The same
 * settings give the same version on every host and after every restart; a reload that changes
 * anything changes it. Files the config points to (modules, hooks files, token files) are not read.
 */
export function configVersion(config: Config): string {
  const { instance: _instance, ...rest } = config;
  return createHash("sha256").update(canonicalJson(rest)).digest("hex").slice(0, 12);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
