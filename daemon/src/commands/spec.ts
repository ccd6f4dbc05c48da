// What every `hookd` subcommand accepts, as data: the one source for argument parsing (usage.ts
// turns it into node:util parseArgs options), `--help`, `hookd help <cmd>` and the command list.
// Imports nothing, so printing help never loads grpc-js or the daemon.

export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** The value's placeholder in help (string options). */
  readonly value?: string;
  readonly help: string;
}

export interface CommandSpec {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraphs shown by `hookd <cmd> --help` under the synopsis. */
  readonly details: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
}

const socket: OptionSpec = {
  type: "string",
  short: "s",
  value: "PATH|unix:///PATH|host:port",
  help: "the daemon's admin socket (default: $HOOKD_SOCKET, else hookd.sock in the runtime directory, then /run/hookd/admin/admin.sock)",
};
const json: OptionSpec = { type: "boolean", help: "print JSON instead of a table" };
const config: OptionSpec = { type: "string", short: "c", value: "FILE", help: "the config file (default: $HOOKD_CONFIG, else the embedded default)" };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "serve",
    summary: "run the daemon",
    details: "Runs the daemon until SIGTERM or SIGINT (drained within --grace-ms); SIGHUP reopens the audit log and reloads the config. Logs are JSON lines on stdout, or readable lines when stdout is a terminal.",
    options: { config, "grace-ms": { type: "string", value: "N", help: "how long a stop lets in-flight calls finish, in ms (default 10000)" } },
  },
  {
    name: "check",
    summary: "validate a config, load and probe its plugins, show the order they run in",
    details: "Reports every schema problem with its key path, then what only trying can tell: token files, the audit directory, each plugin loaded or connected, the order they run in at each point. Exits 1 on any problem.",
    options: { config, "timeout-ms": { type: "string", value: "N", help: "how long each plugin may take to become reachable, in ms (default 5000)" }, json: { type: "boolean", help: "print the report as one JSON object" } },
  },
  {
    name: "status",
    summary: "the daemon's version, uptime, agents, sessions, listeners, config",
    details: "Asks a running daemon (HookAdmin.GetStatus). Agents count those with an open hosted session and those whose HTTP hooks arrived in the last 5 minutes.",
    options: { socket, json },
  },
  {
    name: "plugins",
    summary: "every plugin: health, calls, failures, latency p50/p99, restarts",
    details: "Asks a running daemon (HookAdmin.ListPlugins). A plugin gating by a fallback (not described yet) says which.",
    options: { socket, json },
  },
  {
    name: "reload",
    summary: "re-read the config (an invalid one is refused; the running one stays)",
    details: "Asks a running daemon to reload its config, as SIGHUP does. Exits 1 when the new config is refused, listing why.",
    options: { socket },
  },
  {
    name: "tail",
    summary: "follow the audit records as they are written",
    details: 'Until interrupted. Shadow plugins\' calls are kind "shadow" ("would have denied").',
    options: {
      socket,
      session: { type: "string", value: "ID", help: "only this session's records" },
      plugin: { type: "string", value: "NAME", help: "only this plugin's records" },
      point: { type: "string", value: "POINT", help: "only this point's records (pre-tool, rewrite, ...)" },
      kind: { type: "string", value: "KIND", help: "only invocation, decision or shadow records" },
      json: { type: "boolean", help: "print the audit log's own JSON lines" },
    },
  },
  {
    name: "hook",
    summary: "answer an agent's command hook through the daemon's HTTP endpoint (JSON on stdin)",
    details: "",
    options: {},
  },
  {
    name: "help",
    summary: "show the commands, or one command's options",
    details: "",
    options: {},
  },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
