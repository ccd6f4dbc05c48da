// Loads the config: a YAML (or JSON) file from --config or HOOKD_CONFIG, or the embedded default.
// Every problem is reported at once, each with the path of the bad key and what was expected.
// Relative paths in the file resolve against the file's directory.
import { existsSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HookdError, hasCode } from "@hookd/sdk/errors";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { configSchema } from "./schema.js";
import type { Config } from "./schema.js";

/** What an invalid_config error names besides its message. */
export interface ConfigProblems {
  readonly source: string;
  /** One line per problem: "<path>: <what was expected>". */
  readonly problems: readonly string[];
}

export type ConfigError = HookdError<ConfigProblems>;

export function configError(source: string, problems: readonly string[]): ConfigError {
  return new HookdError("invalid_config", `invalid config ${source}:\n${problems.map((p) => `  - ${p}`).join("\n")}`, { details: { source, problems } });
}

/** Only configError() makes the code, so the code says the details are there. */
export function isConfigError(error: unknown): error is ConfigError {
  return hasCode(error, "invalid_config");
}

export interface LoadedConfig {
  readonly config: Config;
  /** The file it came from; undefined for the embedded default. */
  readonly path: string | undefined;
}

/** Formats zod issues as "<path>: <message>" lines, e.g. "plugins[1].target: expected string". */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.reduce<string>(
      (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`),
      "",
    );
    const message = issue.code === "unrecognized_keys" ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}` : issue.message;
    return `${path === "" ? "(top level)" : path}: ${message}`;
  });
}

/** Parses and validates config text. `source` names it in errors; `baseDir` resolves relative paths. */
export function parseConfig(text: string, source: string, baseDir: string): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw configError(source, doc.errors.map((e) => `line ${e.linePos?.[0].line ?? "?"}: ${e.message.split("\n")[0] ?? e.message}`));
  }
  const result = configSchema.safeParse(doc.toJS());
  if (!result.success) throw configError(source, formatIssues(result.error.issues));
  return resolvePaths(result.data, baseDir);
}

function resolvePaths(config: Config, baseDir: string): Config {
  const abs = (path: string): string => (isAbsolute(path) ? path : resolve(baseDir, path));
  return {
    ...config,
    plugins: config.plugins.map((plugin) => {
      switch (plugin.kind) {
        case "in-process":
        case "worker":
          return { ...plugin, module: abs(plugin.module) };
        case "command":
          return { ...plugin, hooks: abs(plugin.hooks) };
        case "managed":
          return { ...plugin, cwd: plugin.cwd === undefined ? baseDir : abs(plugin.cwd) };
        case "rego":
          return { ...plugin, bundle: abs(plugin.bundle) };
        case "rules":
          return plugin.rules === undefined ? plugin : { ...plugin, rules: (typeof plugin.rules === "string" ? [plugin.rules] : plugin.rules).map(abs) };
        case "remote":
          return plugin;
      }
    }),
    ...(config.audit ? { audit: { ...config.audit, path: abs(config.audit.path) } } : {}),
    state: config.state.dir === undefined ? config.state : { dir: abs(config.state.dir) },
    ...(config.console?.tokenFile === undefined ? {} : { console: { ...config.console, tokenFile: abs(config.console.tokenFile) } }),
  };
}

/** The runtime directory for sockets: $XDG_RUNTIME_DIR/hookd, else <tmp>/hookd-<uid>. */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg !== undefined && xdg !== "") return join(xdg, "hookd");
  return join(tmpdir(), `hookd-${process.getuid?.() ?? "user"}`);
}

/**
 * The state directory (what survives a restart): $STATE_DIRECTORY (systemd's StateDirectory=; the
 * first of a list), else the config's `state.dir`, else `hookd-state` beside the config file,
 * else $XDG_STATE_HOME/hookd, else ~/.local/state/hookd.
 */
export function stateDir(config: Config, configPath: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const systemd = env.STATE_DIRECTORY?.split(":")[0];
  if (systemd !== undefined && systemd !== "") return systemd;
  if (config.state.dir !== undefined) return config.state.dir;
  if (configPath !== undefined) return join(dirname(configPath), "hookd-state");
  const xdg = env.XDG_STATE_HOME;
  return xdg !== undefined && xdg !== "" ? join(xdg, "hookd") : join(homedir(), ".local/state/hookd");
}

/** Reads the config named by `--config` or HOOKD_CONFIG, or returns the embedded default. */
export function loadConfig(path: string | undefined, env: NodeJS.ProcessEnv = process.env, embedded: () => Config = () => defaultConfig(env)): LoadedConfig {
  const file = path ?? (env.HOOKD_CONFIG === "" ? undefined : env.HOOKD_CONFIG);
  if (file === undefined) return { config: embedded(), path: undefined };
  const absolute = resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    throw configError(absolute, [`cannot read the file: ${(error as Error).message}`]);
  }
  return { config: parseConfig(text, absolute, dirname(absolute)), path: absolute };
}

/** The example TypeScript policy of this repository (hooks-examples/typescript), once built. */
export const EXAMPLE_POLICY = fileURLToPath(new URL("../../../hooks-examples/typescript/dist/policy.js", import.meta.url));

/**
 * The embedded default: one Unix socket in the runtime dir, and the example TypeScript policy
 * (it denies dangerous shell commands) loaded in-process when this checkout has it built.
 */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return configSchema.parse({
    listeners: [{ unix: join(runtimeDir(env), "hookd.sock") }],
    plugins: existsSync(EXAMPLE_POLICY) ? [{ name: "shell-policy", kind: "in-process", module: EXAMPLE_POLICY }] : [],
  });
}
