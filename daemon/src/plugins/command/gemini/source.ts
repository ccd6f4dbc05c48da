// A `kind: "command"` plugin with `dialect: "gemini"`: a Gemini CLI hooks file, validated at load
// (so `hookd check` reports it), its listeners, and a log line per hook that failed, per output
// field that had no effect and per system message. The listeners never change until a reload.
import { dirname } from "node:path";
import type { Logger } from "../../../log.js";
import type { PluginSource } from "../../source.js";
import { staticSource } from "../../source.js";
import { geminiCommandListeners } from "./listener.js";
import type { GeminiFiring } from "./listener.js";
import { loadGeminiHooksFile } from "./parse.js";
import type { GeminiHooksModel } from "./parse.js";

export interface GeminiSourceConfig {
  readonly name: string;
  readonly hooks: string;
  readonly failurePolicy?: "fail-open" | "fail-closed";
  readonly points?: Parameters<typeof geminiCommandListeners>[1]["points"];
}

export interface GeminiSourceOptions {
  readonly log: Logger;
  readonly env?: NodeJS.ProcessEnv;
  readonly onReport?: (firing: GeminiFiring) => void;
}

export interface GeminiPluginSource extends PluginSource {
  readonly model: GeminiHooksModel;
  readonly notes: readonly string[];
}

function logFiring(log: Logger, firing: GeminiFiring): void {
  const where = { plugin: firing.plugin, point: firing.point, event: firing.event };
  for (const result of firing.results) {
    const fields = { ...where, hook: result.hook, status: result.status, durationMs: result.durationMs, ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }) };
    if (result.error !== undefined) log.warn("command hook failed", { ...fields, error: result.error.message, cause: result.error.kind });
    else log.debug("command hook answered", { ...fields, ...(result.decision === undefined ? {} : { decision: result.decision }) });
  }
  for (const note of firing.merged.notes) log.warn("command hook output ignored", { ...where, note });
  for (const message of firing.merged.systemMessages) log.info("command hook system message", { ...where, message });
}

export async function geminiCommandPluginSource(config: GeminiSourceConfig, options: GeminiSourceOptions): Promise<GeminiPluginSource> {
  const model = await loadGeminiHooksFile(config.hooks);
  const log = options.log.child({ plugin: config.name });
  for (const note of model.notes) log.warn("hooks file entry not run", { hooks: config.hooks, note });
  const listeners = geminiCommandListeners(model, {
    plugin: config.name,
    ...(config.failurePolicy === undefined ? {} : { failurePolicy: config.failurePolicy }),
    points: config.points ?? {},
    ...(options.env === undefined ? {} : { env: options.env }),
    fallbackCwd: dirname(config.hooks),
    onReport: (firing) => {
      logFiring(log, firing);
      options.onReport?.(firing);
    },
  });
  const source = staticSource({ name: config.name, kind: "command", target: config.hooks }, listeners);
  return { ...source, model, notes: model.notes };
}
