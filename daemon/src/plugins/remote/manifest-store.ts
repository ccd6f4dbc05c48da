// The last known manifest of each remote and managed plugin, persisted in the state directory so
// that a gate plugin unreachable at the next start still gates by what it last said. One file per
// configured plugin name (`<dir>/manifests/<name>.json`), written atomically (a temp file, then
// rename). A file is read back through the same validation as a Describe answer; a corrupt or
// foreign one is ignored with a warning, never trusted.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import type { JsonValue } from "@bufbuild/protobuf";
import { pb, toProtoFailurePolicy, toProtoPoint } from "@hookd/sdk/internal";
import type { Logger } from "../../log.js";
import { readManifest } from "./manifest.js";
import type { RemoteManifest } from "./manifest.js";

/** A manifest as it was last described, and when. */
export interface KnownManifest {
  readonly manifest: RemoteManifest;
  /** ISO 8601: when the plugin described it. */
  readonly savedAt: string;
}

/** Bumped if the file's shape ever changes; a file of another format is ignored. */
const FORMAT = 1;

let writes = 0;

export class ManifestStore {
  readonly dir: string;
  readonly #log: Logger;
  readonly #readOnly: boolean;

  /** `readOnly`: loads but never writes (`hookd check` must not change what the daemon will find). */
  constructor(stateDir: string, log: Logger, options: { readonly readOnly?: boolean } = {}) {
    this.dir = join(stateDir, "manifests");
    this.#log = log;
    this.#readOnly = options.readOnly === true;
  }

  path(plugin: string): string {
    return join(this.dir, `${plugin}.json`);
  }

  /** The last known manifest of `plugin`; undefined when there is none or it cannot be trusted. */
  async load(plugin: string): Promise<KnownManifest | undefined> {
    const path = this.path(plugin);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.#log.warn("cannot read the last known manifest; ignored", { path, error });
      return undefined;
    }
    try {
      return parseStored(text, plugin);
    } catch (error) {
      this.#log.warn("the last known manifest is corrupt; ignored", { path, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }

  /** Persists what `plugin` described; a failure is logged (the plugin still runs by it). */
  async save(plugin: string, manifest: RemoteManifest, savedAt = new Date()): Promise<void> {
    if (this.#readOnly) return;
    const path = this.path(plugin);
    const temp = `${path}.${process.pid}.${++writes}.tmp`;
    const body = { format: FORMAT, plugin, savedAt: savedAt.toISOString(), manifest: toJson(pb.PluginManifestSchema, toProto(manifest)) };
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      this.#log.warn("cannot persist the plugin's manifest", { path, error });
    }
  }
}

/** Throws naming what is wrong; the manifest is validated exactly like a Describe answer. */
export function parseStored(text: string, plugin: string): KnownManifest {
  const body: unknown = JSON.parse(text);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Error("expected a JSON object");
  const fields = body as Record<string, unknown>;
  if (fields.format !== FORMAT) throw new Error(`format: expected ${FORMAT}, got ${JSON.stringify(fields.format)}`);
  if (fields.plugin !== plugin) throw new Error(`plugin: expected ${JSON.stringify(plugin)}, got ${JSON.stringify(fields.plugin)}`);
  const savedAt = fields.savedAt;
  if (typeof savedAt !== "string" || Number.isNaN(Date.parse(savedAt))) throw new Error(`savedAt: expected an ISO 8601 time, got ${JSON.stringify(savedAt)}`);
  if (fields.manifest === undefined) throw new Error("manifest: missing");
  const message = fromJson(pb.PluginManifestSchema, fields.manifest as JsonValue);
  return { manifest: readManifest(message), savedAt };
}

function toProto(manifest: RemoteManifest): pb.PluginManifest {
  return create(pb.PluginManifestSchema, {
    name: manifest.name,
    version: manifest.version,
    sideEffectFree: manifest.sideEffectFree,
    transport: { default: pb.PluginTransport.UNSPECIFIED, unary: pb.PluginTransport.UNARY, stream: pb.PluginTransport.STREAM }[manifest.transport ?? "default"],
    subscriptions: manifest.subscriptions.map((sub) => ({
      point: toProtoPoint(sub.point),
      tools: [...sub.tools],
      priority: sub.priority,
      deadlineMs: sub.deadlineMs ?? 0,
      failurePolicy: toProtoFailurePolicy(sub.failurePolicy),
    })),
  });
}
