// The config's plugin entries, as a zod schema: one strict object per plugin kind, their shared
// keys, per-point overrides of a plugin's manifest, and the health policy of remote plugins.
// Owns shape and defaults only (schema.ts assembles the whole config).
import { POINTS } from "@hookd/sdk";
import { z } from "zod";
import { AGENT_NAMES } from "../agents/registry.js";
import { durationMs } from "./units.js";

export const failurePolicy = z.enum(["fail-closed", "fail-open"]);

const subscriptionOverride = z.strictObject({
  /** Only these tools (names or `*` globs) reach the plugin at this tool point; replaces the manifest's list. */
  tools: z.array(z.string().min(1)).optional(),
  /** Order among the point's plugins (lower runs first; then by name); replaces the manifest's. */
  priority: z.number().int().optional(),
  /** How long one call of the plugin at this point may take; replaces the manifest's. */
  deadlineMs: durationMs.optional(),
  /** What a failed call answers at this point (fail-closed: the point's refusal; fail-open: no opinion); replaces the manifest's. */
  failurePolicy: failurePolicy.optional(),
});

const pointOverrides = z.partialRecord(z.enum(POINTS), subscriptionOverride);

const pluginBase = {
  /** The plugin's name, unique in the config; audit records, metrics and logs name it. */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' or '-'"),
  /** Per-point overrides of the plugin's own manifest. */
  points: pointOverrides.optional(),
  /** Refuse to start (and fail readiness) when this plugin cannot be reached. */
  required: z.boolean().default(false),
  /**
   * shadow: called and audited ("would have denied") beside the enforcing plugins, its answer
   * never applied and its failures never a failure policy's answer (docs/shadow-mode.md).
   * Absent means enforce (optional rather than defaulted, so entries built in code need not say it).
   */
  mode: z.enum(["enforce", "shadow"]).optional(),
  /**
   * Over the agents' hooks (HTTP endpoint, `hookd hook`): this plugin's allow is sent to the agent
   * as an allow, which skips the agent's own permission prompt for the call. False: an allow
   * answers no opinion and the agent's own rules decide. Absent: true for the `command` kind (its
   * hooks' allow means what it means to the agent), false for every other kind (docs/http-hooks.md).
   */
  bypassAgentPermissions: z.boolean().optional(),
};

const tlsClient = z.strictObject({
  /** CA bundle (PEM file) that signs the plugin's certificate (default: the system's). */
  ca: z.string().optional(),
  /** Client certificate (PEM file), for a plugin that requires mTLS. */
  cert: z.string().optional(),
  /** The client certificate's private key (PEM file). */
  key: z.string().optional(),
  /** The name the plugin's certificate must carry, when it differs from the target's host. */
  serverName: z.string().optional(),
});

const healthPolicy = z.strictObject({
  /** Consecutive failed calls after which the plugin is ejected until healthy again. */
  ejectAfterFailures: z.number().int().positive().default(5),
  /** First reconnect / health probe delay; doubles up to maxBackoffMs. */
  initialBackoffMs: durationMs.default(100),
  /** Longest delay between reconnects and health probes. */
  maxBackoffMs: durationMs.default(10_000),
});

export const pluginSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    ...pluginBase,
    /**
     * How the plugin runs: in-process (a module loaded into the daemon), worker (a module in a
     * worker thread), remote (a gRPC server the daemon dials), managed (a gRPC server process the
     * daemon starts and supervises), command (an agent's hooks file, run as the agent runs it),
     * rego (an OPA policy compiled to Wasm, evaluated in the daemon), rules (CEL rules from YAML
     * files, evaluated in the daemon).
     */
    kind: z.literal("in-process"),
    /**
     * The plugin's module (built JavaScript: an ES module whose default export is the plugin), a
     * path (relative paths resolve against the config file's directory).
     */
    module: z.string().min(1),
  }),
  z.strictObject({ ...pluginBase, kind: z.literal("worker"), module: z.string().min(1) }),
  z.strictObject({
    ...pluginBase,
    kind: z.literal("remote"),
    /** unix:///path or host:port */
    target: z.string().min(1),
    /** TLS for a host:port target (absent: plaintext, for loopback and Unix sockets). */
    tls: tlsClient.optional(),
    /** When a failing plugin is ejected, and how soon it is probed again. */
    health: healthPolicy.prefault({}),
  }),
  z.strictObject({
    ...pluginBase,
    kind: z.literal("managed"),
    /** The plugin's executable; it serves gRPC on the Unix socket named by $HOOKD_PLUGIN_SOCKET. */
    command: z.string().min(1),
    /** Arguments of the command. */
    args: z.array(z.string()).default([]),
    /** Variables added to the command's environment. */
    env: z.record(z.string(), z.string()).default({}),
    /** The command's working directory (default: the config file's directory). */
    cwd: z.string().optional(),
    /** How long a plugin gets to exit after SIGTERM before SIGKILL. */
    stopGraceMs: durationMs.default(3_000),
    /** How long the daemon waits for the plugin to report SERVING after a start. */
    startTimeoutMs: durationMs.default(10_000),
    health: healthPolicy.prefault({}),
  }),
  z.strictObject({
    ...pluginBase,
    kind: z.literal("command"),
    /** An agent's hooks file (bare event map, or settings with a top-level "hooks"). */
    hooks: z.string().min(1),
    /** Whose hooks file it is: the events and answers of that agent's hook system. */
    dialect: z.enum(AGENT_NAMES),
    /** What a failed hook answers (default: as the agent would treat it). */
    failurePolicy: failurePolicy.optional(),
    /**
     * Run the hooks that are Python or Node scripts in warm interpreters (started ahead of the
     * events), with the outcome a spawn would give; default true, false spawns every hook, and
     * `{ exclude: [...] }` spawns the hooks an entry names (a hook id such as
     * `PreToolUse[0].hooks[1]`, or its command, exactly or as a glob with `*` and `?`).
     */
    warm: z
      .union([z.boolean(), z.strictObject({ exclude: z.array(z.string().min(1, "an exclude entry is empty")).min(1, "exclude lists no hook (use warm: true)") })], {
        error: "must be true, false or { exclude: [hook ids or command globs] }, with no other key",
      })
      .optional(),
  }),
  z
    .strictObject({
      ...pluginBase,
      kind: z.literal("rego"),
      /** An OPA bundle compiled to Wasm (`opa build -t wasm -e ENTRYPOINT`), a .tar.gz path (relative paths resolve against the config file's directory). */
      bundle: z.string().min(1),
      /** The entrypoint the daemon evaluates, as given to `opa build -e` (e.g. `hookd/policy/decision`); docs/rego.md says what it answers. */
      entrypoint: z.string().min(1),
    })
    // A bundle has no manifest of its own: the config's points are where it is evaluated.
    .refine((plugin) => Object.keys(plugin.points ?? {}).length > 0, {
      path: ["points"],
      message: "a rego plugin is evaluated at the points named here: name at least one (e.g. points: { pre-tool: {} })",
    }),
  z.strictObject({
    ...pluginBase,
    kind: z.literal("rules"),
    /** Rule files (YAML, docs/rules.md), a path or `*` glob or a list of them (relative ones resolve against the config file's directory); read again on reload. */
    rules: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Builtin rule files of hookd's guardrail library, by name (`builtin:destructive-shell`; docs/guardrails.md); their rules are tried before the plugin's own files'. */
    include: z.array(z.string().min(1)).min(1).optional(),
    /** Values for the parameters the rule files declare (`protected_paths: [...]`), replacing their defaults. */
    params: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  })
    // A rules plugin with neither has nothing to decide with.
    .refine((plugin) => plugin.rules !== undefined || plugin.include !== undefined, {
      path: ["rules"],
      message: "a rules plugin needs rule files (rules) or builtins (include), or both",
    }),
]);

export type PluginConfig = z.infer<typeof pluginSchema>;
