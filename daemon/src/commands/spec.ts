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

/** A positional argument (most commands take options only). */
export interface ArgSpec {
  /** Its placeholder in the synopsis (EVENT, NAME). */
  readonly name: string;
  readonly help: string;
  /** May be left out (`[EVENT]` in the synopsis). */
  readonly optional?: boolean;
}

export interface CommandSpec {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraphs shown by `hookd <cmd> --help` under the synopsis. */
  readonly details: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Positional arguments, in order; absent: the command takes options only. */
  readonly args?: readonly ArgSpec[];
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
    name: "eval",
    summary: "run one event through a config's plugins, offline, and explain the decision",
    details:
      "Loads the config's plugins as serve does (remote ones connected, managed ones started, and all stopped after), runs the event once through the real pipeline, and prints the plugins that matched in order, each one's answer and latency, and the decision and why. No agent, socket or audit file is involved. EVENT is hookd's proto JSON for a point (--point, or a one-key wrapper such as {\"preTool\": {...}}), or an agent's own hook JSON with --dialect; a path or - for stdin. An ask is returned as an ask (approval plugins still run), as for an agent that resolves asks itself. With --explain, the audit record given (--record, or --from-audit and --call-id) is compared with the replay. Exit 0: decided (and, with --explain, the replay agrees); 1: the config, a plugin or the event could not be used; 2: usage; 3: the replay differs from the record.",
    options: {
      config,
      point: { type: "string", short: "p", value: "POINT", help: "the point EVENT is for (pre-tool, rewrite, post-tool, pre-step, ...), when it is hookd's proto JSON without a wrapper" },
      dialect: { type: "string", short: "d", value: "AGENT", help: "EVENT is that agent's own hook JSON (claude-code, gemini, ...: an unknown name is refused with the list), mapped as the daemon's HTTP endpoint maps it" },
      agent: { type: "string", value: "ID", help: "the agent id a --dialect event comes from (default: the dialect's name, as the endpoint)" },
      explain: { type: "boolean", help: "replay a recorded decision: compare the audit record with what the config decides now" },
      record: { type: "string", value: "JSON|FILE", help: "with --explain: one audit line, as JSON text or a file holding it" },
      "from-audit": { type: "string", value: "FILE", help: "with --explain: an audit log; its records of --call-id are compared" },
      "call-id": { type: "string", value: "ID", help: "with --from-audit: the tool call (or, for calls without one, the session id) to replay" },
      "timeout-ms": { type: "string", value: "N", help: "how long each plugin may take to become reachable, in ms (default 5000)" },
      json: { type: "boolean", help: "print the explanation as one JSON object" },
    },
    args: [{ name: "EVENT", help: "the event: a file, or - for stdin" }],
  },
  {
    name: "test",
    summary: "run policy tests (cases of events and the decisions they must get), offline",
    details:
      "Each test file (YAML, docs/rules.md) names what it tests (a config, or rule files and builtins as one rules plugin) and its cases: an event (a tool call or prompt in shorthand, hookd's proto JSON, or an agent's own hook JSON with its dialect) and the decision, rule id and reason pattern it must get. The cases run through the real pipeline, as hookd eval runs one event; no agent, socket or audit file is involved. PATH is a test file or a directory of *.test.yaml files; --library runs the builtin rules' own cases. Exit 0: every case passed; 1: a case failed, or a file, config or event could not be used; 2: usage.",
    options: {
      config: { type: "string", short: "c", value: "FILE", help: "test against this config instead of the one each test file names" },
      library: { type: "boolean", help: "run the cases of hookd's builtin rules (hookd rules list)" },
      json: { type: "boolean", help: "print every case's result as one JSON object" },
    },
    args: [{ name: "PATH", help: "a test file, or a directory of *.test.yaml files", optional: true }],
  },
  {
    name: "rules",
    summary: "list the builtin guardrail rules, and a config's rules plugins' rules",
    details: "hookd rules list prints every rule of hookd's guardrail library (enable one with include: [builtin:NAME] in a rules plugin; docs/guardrails.md), with its point, decision and tools; with --config, each rules plugin of that config and its rules too, in the order they are tried. Exit 1 when the config or a rule file cannot be used.",
    options: {
      config: { type: "string", short: "c", value: "FILE", help: "also list this config's rules plugins' rules" },
      json: { type: "boolean", help: "print the rules as one JSON object" },
    },
    args: [{ name: "list", help: "what to do (only list, for now)" }],
  },
  {
    name: "init",
    summary: "scaffold a new plugin (README, handler, test) in TypeScript, Python or Go, or a policy (rule file and its tests)",
    details:
      "hookd init policy NAME writes NAME.yaml (a rule file for a rules plugin, with two example rules and a parameter) and NAME.test.yaml (its cases, for hookd test) into DIR (default .); an existing file is never overwritten. hookd init plugin --lang ts|python|go NAME copies the daemon's template for that language into DIR (default ./NAME; an existing directory must be empty), naming the plugin NAME (kebab-case: lower-case letters, digits and single dashes, starting with a letter). The generated project uses the SDK of this hookd checkout by its absolute path (sdk, sdk-python, sdk-go beside the daemon package) until the SDKs are published; its README says how to build, test and configure it.",
    options: {
      lang: { type: "string", short: "l", value: "ts|python|go", help: "a plugin's language (typescript and py are accepted too)" },
      dir: { type: "string", value: "DIR", help: "where to write it (default ./NAME for a plugin, . for a policy)" },
    },
    args: [
      { name: "plugin|policy", help: "what to create: a plugin project, or a policy (rule file and tests)" },
      { name: "NAME", help: "the plugin's or policy's name, kebab-case: my-policy" },
    ],
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
