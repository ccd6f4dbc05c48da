// The daemon's config file, as a zod schema: listeners, plugins, limits, audit, metrics, access.
// Every object is strict (an unknown key is an error) and every error names the path of the bad
// key. Owns shape and defaults only; loading and reporting live in load.ts.
import { POINTS } from "@hookd/sdk";
import { z } from "zod";

const durationMs = z.number().int().positive();

/** `defaults.pointBudgetMs` when the config does not set it. */
export const DEFAULT_POINT_BUDGET_MS = 10_000;
const failurePolicy = z.enum(["fail-closed", "fail-open"]);

const subscriptionOverride = z.strictObject({
  tools: z.array(z.string().min(1)).optional(),
  priority: z.number().int().optional(),
  deadlineMs: durationMs.optional(),
  failurePolicy: failurePolicy.optional(),
});

const pointOverrides = z.partialRecord(z.enum(POINTS), subscriptionOverride);

const pluginBase = {
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
   * as an allow, which skips the agent's own permission prompt for the call. Absent or false: an
   * allow answers no opinion and the agent's own rules decide (docs/http-hooks.md).
   */
  bypassAgentPermissions: z.boolean().optional(),
};

const tlsClient = z.strictObject({
  ca: z.string().optional(),
  cert: z.string().optional(),
  key: z.string().optional(),
  serverName: z.string().optional(),
});

const healthPolicy = z.strictObject({
  /** Consecutive failed calls after which the plugin is ejected until healthy again. */
  ejectAfterFailures: z.number().int().positive().default(5),
  /** First reconnect / health probe delay; doubles up to maxBackoffMs. */
  initialBackoffMs: durationMs.default(100),
  maxBackoffMs: durationMs.default(10_000),
});

export const pluginSchema = z.discriminatedUnion("kind", [
  z.strictObject({ ...pluginBase, kind: z.literal("in-process"), module: z.string().min(1) }),
  z.strictObject({ ...pluginBase, kind: z.literal("worker"), module: z.string().min(1) }),
  z.strictObject({
    ...pluginBase,
    kind: z.literal("remote"),
    /** unix:///path or host:port */
    target: z.string().min(1),
    tls: tlsClient.optional(),
    health: healthPolicy.prefault({}),
  }),
  z.strictObject({
    ...pluginBase,
    kind: z.literal("managed"),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
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
    /** A Claude Code / Codex / Gemini CLI hooks file (bare event map, or settings with a top-level "hooks"). */
    hooks: z.string().min(1),
    dialect: z.enum(["claude-code", "codex", "gemini"]),
    failurePolicy: failurePolicy.optional(),
  }),
]);

const socketMode = z.string().regex(/^0?[0-7]{3}$/, "an octal mode such as 0600");

const listenerSchema = z.union([
  z.strictObject({
    unix: z.string().min(1),
    /** File mode of the socket; default owner only. */
    mode: socketMode.default("0600"),
    /** Group that owns the socket (name or gid). */
    group: z.union([z.string(), z.number().int()]).optional(),
  }),
  z.strictObject({
    tcp: z.string().regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d+$/, "host:port"),
    tls: z
      .strictObject({
        cert: z.string(),
        key: z.string(),
        /** When set, clients must present a certificate signed by this CA (mTLS). */
        clientCa: z.string().optional(),
      })
      .optional(),
  }),
  z.strictObject({
    /** A socket inherited from systemd (LISTEN_FDS), by its FileDescriptorName. */
    systemd: z.string().min(1),
  }),
]);

export const configSchema = z.strictObject({
  listeners: z.array(listenerSchema).min(1, "at least one listener"),
  /** Where HookAdmin is served; absent serves it on the agent listeners too. */
  admin: listenerSchema.optional(),
  plugins: z
    .array(pluginSchema)
    .default([])
    .superRefine((plugins, ctx) => {
      const seen = new Map<string, number>();
      plugins.forEach((plugin, index) => {
        const first = seen.get(plugin.name);
        if (first !== undefined) ctx.addIssue({ code: "custom", path: [index, "name"], message: `duplicate plugin name "${plugin.name}" (also plugins[${first}])` });
        else seen.set(plugin.name, index);
      });
    }),
  defaults: z
    .strictObject({
      deadlineMs: durationMs.default(2_000),
      /**
       * Total time all sequential plugins of one point may take. Unset, it is 10 s plus, where a
       * command plugin's hooks run, their own timeouts (the agents' defaults); set, it is exact.
       */
      pointBudgetMs: durationMs.optional(),
      /**
       * Total time the session-end point may take for one session. A daemon stop ends every open
       * session under it, so a hanging plugin holds the stop for at most this long.
       */
      sessionEndBudgetMs: durationMs.default(2_000),
    })
    .prefault({})
    .transform((defaults) => ({
      ...defaults,
      pointBudgetMs: defaults.pointBudgetMs ?? DEFAULT_POINT_BUDGET_MS,
      /** True when the config leaves the point budget to its default: command plugins' hooks then stretch it (engine/registry.ts). */
      pointBudgetIsDefault: defaults.pointBudgetMs === undefined,
    })),
  limits: z
    .strictObject({
      maxSessions: z.number().int().positive().default(10_000),
      maxSessionsPerAgent: z.number().int().positive().default(1_000),
      /** Concurrent evaluate calls per agent beyond which RESOURCE_EXHAUSTED answers. */
      maxInflightPerAgent: z.number().int().positive().default(256),
      /** Concurrent evaluate calls of all agents together beyond which RESOURCE_EXHAUSTED answers (no queue). */
      maxInflight: z.number().int().positive().default(256),
      /** How long a new connection may take to send the HTTP/2 preface before it is closed. */
      handshakeTimeoutMs: durationMs.default(10_000),
      /** Open connections per listener; one more is closed at once. */
      maxConnectionsPerListener: z.number().int().positive().default(1_024),
      maxMessageBytes: z.number().int().positive().default(4 * 1024 * 1024),
      maxSteeredContinuations: z.number().int().nonnegative().default(8),
      maxStepsPerTurn: z.number().int().positive().default(64),
      toolConcurrency: z.number().int().positive().default(4),
      approvalTimeoutMs: durationMs.default(60_000),
      /**
       * How long a hosted tool's finalize boundary (finalizes_content) may take at the agent; a
       * later answer is ignored and the candidate's content kept. Small: it runs once per call.
       */
      finalizeTimeoutMs: durationMs.default(1_000),
      /** How long a disconnected session may be resumed. */
      resumeWindowMs: durationMs.default(300_000),
      /** A hosted session with no frame and no turn for this long ends (session-end EXPIRED); absent: never. */
      sessionIdleMs: durationMs.optional(),
    })
    .prefault({}),
  session: z
    .strictObject({
      /**
       * How often each side of a Session stream sends a Heartbeat when it has sent nothing else,
       * so proxies with idle timeouts (nginx: 60 s by default) keep the stream; 0 disables.
       */
      heartbeatMs: z.number().int().nonnegative().max(2_147_483_647).default(20_000),
    })
    .prefault({}),
  workers: z.strictObject({ size: z.number().int().positive().default(2) }).prefault({}),
  audit: z
    .strictObject({
      path: z.string().min(1),
      /** always: fsync every record before the agent is answered; interval: every 100 ms; never. */
      fsync: z.enum(["always", "interval", "never"]).default("interval"),
    })
    .optional(),
  metrics: z.strictObject({ listen: z.string().regex(/^[^:\s]*:\d+$/, "host:port") }).optional(),
  log: z.strictObject({ level: z.enum(["debug", "info", "warn", "error"]).default("info") }).prefault({}),
  access: z
    .strictObject({
      /** Bearer tokens that map a connection to an agent identity. When set, tokens are required. */
      tokens: z
        .array(
          z.union([
            z.strictObject({ agent: z.string().min(1), token: z.string().min(16) }),
            z.strictObject({ agent: z.string().min(1), tokenFile: z.string().min(1) }),
          ]),
        )
        .default([]),
    })
    .prefault({}),
  /**
   * Where the daemon keeps what must survive a restart (the last known manifest of each remote
   * and managed plugin). $STATE_DIRECTORY (systemd's StateDirectory=) wins over it; default:
   * `hookd-state` beside the config file, else $XDG_STATE_HOME/hookd (config/load.ts stateDir).
   */
  state: z.strictObject({ dir: z.string().min(1).optional() }).prefault({}),
  /** Claude Code http hooks endpoint (and the `hookd hook` forwarder's target). */
  http: z
    .strictObject({ listen: z.string().regex(/^([^:\s/]*:\d+|unix:\/.+|\/.+)$/, "host:port, unix:/path or an absolute socket path") })
    .optional(),
});

export type Config = z.infer<typeof configSchema>;
export type PluginConfig = z.infer<typeof pluginSchema>;
export type ListenerConfig = z.infer<typeof listenerSchema>;
