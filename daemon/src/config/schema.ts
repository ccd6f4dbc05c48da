// The daemon's config file, as a zod schema: listeners, plugins, limits, audit, metrics, tracing, access.
// Every object is strict (an unknown key is an error) and every error names the path of the bad
// key. Owns shape and defaults only; loading and reporting live in load.ts.
import { z } from "zod";
import { adaptiveAdmission } from "./admission-schema.js";
import { durationMs } from "./units.js";
import { pluginSchema } from "./plugin-schema.js";

/** `defaults.pointBudgetMs` when the config does not set it. */
export const DEFAULT_POINT_BUDGET_MS = 10_000;

const socketMode = z.string().regex(/^0?[0-7]{3}$/, "an octal mode such as 0600");

const listenerSchema = z.union([
  z.strictObject({
    /** Listen on this Unix socket path (a stale socket file is replaced). */
    unix: z.string().min(1),
    /** File mode of the socket; default owner only. */
    mode: socketMode.default("0600"),
    /** Group that owns the socket (name or gid). */
    group: z.union([z.string(), z.number().int()]).optional(),
  }),
  z.strictObject({
    /** Listen on host:port (e.g. 127.0.0.1:7443; [::1]:7443). */
    tcp: z.string().regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d+$/, "host:port"),
    /** Serve TLS on this listener (absent: plaintext; bind loopback then). */
    tls: z
      .strictObject({
        /** Server certificate (PEM file). */
        cert: z.string(),
        /** The server certificate's private key (PEM file). */
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
  /** Where agents connect (the HookHost gRPC service): Unix sockets, TCP (with TLS) or sockets systemd passes. */
  listeners: z.array(listenerSchema).min(1, "at least one listener"),
  /** Where HookAdmin is served; absent serves it on the agent listeners too. */
  admin: listenerSchema.optional(),
  /** The hook plugins, each named; at every point they run in priority order (lower first, then by name). */
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
  /** Deadlines and budgets for plugin calls where neither the plugin's manifest nor `plugins[].points` sets one. */
  defaults: z
    .strictObject({
      /** How long one plugin call may take, unless its manifest or config says otherwise. */
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
  /** Caps that protect the daemon and the agents from each other; every one answers with a clear error when reached. */
  limits: z
    .strictObject({
      /** Open hosted sessions in all; one more is refused (RESOURCE_EXHAUSTED). */
      maxSessions: z.number().int().positive().default(10_000),
      /** Open hosted sessions per agent identity. */
      maxSessionsPerAgent: z.number().int().positive().default(1_000),
      /** Concurrent evaluate calls per agent beyond which RESOURCE_EXHAUSTED answers. */
      maxInflightPerAgent: z.number().int().positive().default(256),
      /**
       * Concurrent evaluate calls of all agents together beyond which RESOURCE_EXHAUSTED answers (no
       * queue): the ceiling of the adaptive limit.
       */
      maxInflight: z.number().int().positive().default(256),
      /**
       * Adaptive admission (docs/overload.md): under limits.maxInflight, a concurrency limit sized
       * from the latency of the calls admitted (a gradient controller), so that admitted calls stay
       * fast and the rest are refused at once; while several agents call, each gets its share of it.
       * Applies to evaluate calls, HTTP hook requests and new hosted sessions.
       */
      adaptive: adaptiveAdmission,
      /**
       * How long a new connection may take to send the whole HTTP/2 client preface (the magic and
       * its SETTINGS frame; with TLS, the handshake first) before it is closed, on every listener kind.
       */
      handshakeTimeoutMs: durationMs.default(10_000),
      /**
       * Open connections per listener (the kernel's accept backlog is sized to at least this). One
       * more closes the oldest connection still in its handshake, or, when every one has sent its
       * preface, is closed itself: a flood of half-open connections cannot turn new clients away.
       */
      maxConnectionsPerListener: z.number().int().positive().default(1_024),
      /** Largest message an agent may send (gRPC or an HTTP hook's body) and the daemon may send back. */
      maxMessageBytes: z.number().int().positive().default(4 * 1024 * 1024),
      /**
       * Times turn-stopping plugins may steer one turn on instead of letting it stop. The hosted
       * loop counts every steered continuation of a turn. Over an agent's hooks, only those with
       * no tool call in between count (one that ran a tool is progress and starts the count
       * again), as Claude Code's own stop guard counts (docs/http-hooks.md).
       */
      maxSteeredContinuations: z.number().int().nonnegative().default(8),
      /** Model steps one hosted turn may take; the turn then ends (max_steps). */
      maxStepsPerTurn: z.number().int().positive().default(64),
      /** Tool calls of one step a hosted session dispatches at once. */
      toolConcurrency: z.number().int().positive().default(4),
      /** How long a hosted session waits for the agent's answer to an approval request before it times out. */
      approvalTimeoutMs: durationMs.default(60_000),
      /**
       * How long a hosted tool's finalize boundary (finalizes_content) may take at the agent; a
       * later answer is ignored and the candidate's content kept. Small: it runs once per call.
       */
      finalizeTimeoutMs: durationMs.default(1_000),
      /** How long a disconnected session may be resumed. */
      resumeWindowMs: durationMs.default(300_000),
      /**
       * An evaluate sent again (a proxy's retry) within this window is answered with its first
       * answer, plugins not run again, audited `retry` (host/retries.ts). 0, the default, is off:
       * set it where a proxy in front retries (docs/fleet.md), 60000 is a fair window.
       */
      retryWindowMs: z.number().int().nonnegative().default(0),
      /**
       * On stop, how long the daemon reports NOT_SERVING (grpc.health.v1) while it still accepts
       * and serves calls, so a health-checking balancer or readiness probe takes it out first.
       */
      drainDelayMs: z.number().int().nonnegative().default(0),
      /** At most this many first answers are kept for retries (the oldest go first). */
      retryEntries: z.number().int().nonnegative().default(10_000),
      /** A hosted session with no frame and no turn for this long ends (session-end EXPIRED); absent: never. */
      sessionIdleMs: durationMs.optional(),
    })
    .prefault({}),
  /** The worker threads that run `kind: worker` plugins. */
  workers: z
    .strictObject({
      /** Threads in the pool shared by every worker plugin. */
      size: z.number().int().positive().default(2),
    })
    .prefault({}),
  /** The hosted loop's Session streams. */
  session: z
    .strictObject({
      /**
       * How often each side of a Session stream sends a Heartbeat when it has sent nothing else,
       * so proxies with idle timeouts (nginx: 60 s by default) keep the stream; 0 disables.
       */
      heartbeatMs: z.number().int().nonnegative().max(2_147_483_647).default(20_000),
    })
    .prefault({}),
  /** The audit log: one JSON line per plugin call and per decision applied (absent: no audit file). */
  audit: z
    .strictObject({
      /** The audit file, appended to (reopened on SIGHUP, for log rotation). */
      path: z.string().min(1),
      /** always: fsync every record before the agent is answered; interval: every 100 ms; never. */
      fsync: z.enum(["always", "interval", "never"]).default("interval"),
    })
    .optional(),
  /** Prometheus metrics over HTTP (absent: no metrics endpoint). */
  metrics: z
    .strictObject({
      /** host:port of the `/metrics` endpoint (bind loopback unless it is protected otherwise). */
      listen: z.string().regex(/^[^:\s]*:\d+$/, "host:port"),
    })
    .optional(),
  /**
   * The live console (docs/console.md): a web page on host:port with the decision stream, plugin
   * latency and failures, health and order. It always needs a token of its own (token or
   * tokenFile, exactly one): it shows every agent's decisions, which no agent token may see.
   */
  console: z
    .strictObject({
      /** host:port the page is served on (plain HTTP: keep it on loopback, or behind a TLS proxy). */
      listen: z.string().regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]*):\d+$/, "host:port"),
      /** The console's own token (16 characters or more); exactly one of token and tokenFile. */
      token: z.string().min(16).optional(),
      /** A file holding the console's token (relative to the config file's directory). */
      tokenFile: z.string().min(1).optional(),
    })
    .superRefine((value, ctx) => {
      if ((value.token === undefined) === (value.tokenFile === undefined)) {
        ctx.addIssue({ code: "custom", path: ["token"], message: "the console needs exactly one of token or tokenFile: it is never served without a token" });
      }
    })
    .optional(),
  /**
   * OpenTelemetry traces (docs/tracing.md): a span per decision and one per plugin call, exported
   * over OTLP/gRPC when `otlp` is set; absent, no tracing code is loaded.
   */
  tracing: z
    .strictObject({
      /** Where the spans go (absent: tracing off). */
      otlp: z
        .strictObject({
          /** The collector's OTLP/gRPC endpoint: http://host:port (plaintext) or https://host:port (TLS). */
          endpoint: z.string().regex(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, "http://host:port or https://host:port"),
          /** gRPC metadata sent with every export, e.g. an API key; names are lowercase. */
          headers: z
            .record(z.string(), z.string())
            .superRefine((headers, ctx) => {
              for (const name of Object.keys(headers)) {
                if (!/^[0-9a-z_.-]+$/.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "a gRPC metadata name: lowercase letters, digits, '-', '_' or '.'" });
              }
            })
            .default({}),
          /** The share of new traces recorded (0..1); a trace the agent started keeps its own sampled flag. */
          samplingRatio: z.number().min(0).max(1).default(1),
        })
        .optional(),
      /** The `service.name` resource attribute of the spans. */
      serviceName: z.string().min(1).default("hookd"),
    })
    .prefault({}),
  /** The daemon's own log on stdout: JSON lines, or readable text on a terminal. */
  log: z
    .strictObject({
      /** The least severe level written. */
      level: z.enum(["debug", "info", "warn", "error"]).default("info"),
    })
    .prefault({}),
  /** Who may connect: agent identities by bearer token. */
  access: z
    .strictObject({
      /** Bearer tokens that map a connection to an agent identity. When set, tokens are required. */
      tokens: z
        .array(
          z.union([
            z.strictObject({
              /** The agent identity the token stands for: its sessions, limits and audit records carry it. */
              agent: z.string().min(1),
              /** The token itself (16 characters or more); prefer tokenFile to keep it out of the config. */
              token: z.string().min(16),
            }),
            z.strictObject({
              agent: z.string().min(1),
              /** A file holding the token (read when the config is loaded; surrounding whitespace ignored). */
              tokenFile: z.string().min(1),
            }),
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
  state: z
    .strictObject({
      /** The state directory (see above). */
      dir: z.string().min(1).optional(),
    })
    .prefault({}),
  /**
   * This daemon's identity in a fleet (docs/fleet.md): on every audit record, log line and status.
   * Absent: $HOOKD_INSTANCE_ID, else the host name and a random suffix (config/instance.ts).
   */
  instance: z
    .strictObject({
      /** The instance id (at most 128 characters); needs a restart to change. */
      id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, "letters, digits, '.', '_', ':' or '-', at most 128").optional(),
    })
    .prefault({}),
  /** Claude Code http hooks endpoint (and the `hookd hook` forwarder's target). */
  http: z
    .strictObject({
      /** host:port, unix:/path or an absolute socket path (a socket is owner-only, mode 0600). */
      listen: z.string().regex(/^([^:\s/]*:\d+|unix:\/.+|\/.+)$/, "host:port, unix:/path or an absolute socket path"),
    })
    .optional(),
});

export type Config = z.infer<typeof configSchema>;
export type { PluginConfig } from "./plugin-schema.js";
export type ListenerConfig = z.infer<typeof listenerSchema>;
