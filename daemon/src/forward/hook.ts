// `hookd hook`: the forwarding command an agent runs as a command hook. Reads the hook's JSON on
// stdin, asks the daemon's HTTP hook endpoint, prints the dialect's answer and exits with the
// dialect's code (0 with the JSON on stdout, or 2 with the text on stderr for a block). The daemon
// renders the agent's output and names the exit code (forwarder mode, see http/server.ts); this
// only moves bytes, and passes the dialect through for the daemon to check against its agents.
// A process per event must start fast, so this file imports node:http and nothing else: never
// @hookd/sdk (which loads grpc-js) and never the daemon (the CLI hands it the agent list for its
// help). Keep it that way.
//
//   hookd hook --dialect AGENT [--event E] [--url URL | --socket PATH]
//              [--agent ID] [--timeout MS] [--fail-closed]
// Defaults: --url from HOOKD_HOOK_URL, --socket from HOOKD_HOOK_SOCKET, --agent from HOOKD_AGENT,
// a bearer token from HOOKD_TOKEN. When hookd cannot answer, the hook fails open (exit 1: both
// agents treat it as a non-blocking error) unless --fail-closed (exit 2: a block).
import { request } from "node:http";

export interface ForwarderIo {
  readonly stdin: AsyncIterable<Buffer | string>;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: NodeJS.ProcessEnv;
}

interface Options {
  /** Absent: the daemon's default dialect. */
  dialect: string | undefined;
  event: string | undefined;
  url: string | undefined;
  socket: string | undefined;
  agent: string | undefined;
  timeoutMs: number;
  failClosed: boolean;
}

const USAGE = "usage: hookd hook --dialect AGENT [--event E] [--url URL | --socket PATH] [--agent ID] [--timeout MS] [--fail-closed]";

/** `hookd hook --help` and `hookd help hook`, naming the agents hookd serves. */
export const hookHelp = (agents: readonly string[]): string => `${USAGE}

Answer an agent's command hook through the daemon's HTTP hook endpoint (http.listen): reads the
hook's JSON on stdin, prints the agent's answer, exits with the agent's code (0; 2 for a block).

options:
  --dialect AGENT    the agent's hook dialect: ${agents.length === 0 ? "one the daemon serves (hookd help hook lists them)" : agents.join(", ")} (default: the first the daemon serves, claude-code)
  --event E          the hook event (PreToolUse, ...); default: the body's hook_event_name
  --url URL          the endpoint as http://host:port[/prefix] (default $HOOKD_HOOK_URL)
  --socket PATH      the endpoint's Unix socket (default $HOOKD_HOOK_SOCKET); not the gRPC socket
  --agent ID         the agent id (default $HOOKD_AGENT, else the dialect's name)
  --timeout MS       how long to wait for hookd (default 60000)
  --fail-closed      when hookd cannot answer, block (exit 2) instead of a non-blocking error (exit 1)
  -h, --help         show this help
A bearer token is read from $HOOKD_TOKEN. Usage errors exit 1, as a failure to reach hookd does:
for the agents, 2 means "block".`;

/** What a gRPC listener (HTTP/2 only) makes node's HTTP/1 parser say. */
const HTTP2_ANSWER = /Expected HTTP\//;

/** The command line read: the options, a wish for help, or a usage mistake to report. */
type Parsed = { readonly kind: "options"; readonly options: Options } | { readonly kind: "help" } | { readonly kind: "usage"; readonly problem: string };

const usage = (problem: string): Parsed => ({ kind: "usage", problem });

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Parsed {
  const options: Options = {
    dialect: undefined,
    event: undefined,
    url: env.HOOKD_HOOK_URL || undefined,
    socket: env.HOOKD_HOOK_SOCKET || undefined,
    agent: env.HOOKD_AGENT || undefined,
    timeoutMs: 60_000,
    failClosed: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    /** The flag's value; undefined when it has none (a usage mistake). */
    const value = (): string | undefined => {
      const v = inline ?? argv[++i];
      return v === undefined || v === "" ? undefined : v;
    };
    const needsValue = (): Parsed => usage(`${flag} needs a value`);
    switch (flag) {
      case "--dialect": {
        const dialect = value();
        if (dialect === undefined) return needsValue();
        // The daemon knows its agents and names an unknown one (HTTP 400); only the shape is checked here.
        if (!/^[a-z][a-z0-9-]*$/.test(dialect)) return usage(`--dialect: expected an agent's name such as claude-code, got ${dialect}`);
        options.dialect = dialect;
        break;
      }
      case "--event":
        options.event = value();
        if (options.event === undefined) return needsValue();
        if (!/^[A-Za-z]+$/.test(options.event)) return usage(`--event: expected a hook event name such as PreToolUse`);
        break;
      case "--url":
        options.url = value();
        if (options.url === undefined) return needsValue();
        options.socket = undefined;
        break;
      case "--socket":
        options.socket = value();
        if (options.socket === undefined) return needsValue();
        options.url = undefined;
        break;
      case "--agent":
        options.agent = value();
        if (options.agent === undefined) return needsValue();
        break;
      case "--timeout": {
        const timeout = value();
        if (timeout === undefined) return needsValue();
        options.timeoutMs = Number(timeout);
        if (!(options.timeoutMs > 0)) return usage("--timeout: expected a positive number of milliseconds");
        break;
      }
      case "--fail-closed":
        options.failClosed = true;
        break;
      case "--help":
      case "-h":
        return { kind: "help" };
      default:
        return usage(`unknown option ${arg}`);
    }
  }
  if (options.url === undefined && options.socket === undefined) return usage("give --url or --socket (or set HOOKD_HOOK_URL / HOOKD_HOOK_SOCKET)");
  return { kind: "options", options };
}

async function readAll(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  let text = "";
  for await (const chunk of stdin) text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
  return text;
}

interface Answer {
  readonly status: number;
  /** x-hookd-exit: 0 prints the text to stdout, 2 to stderr. */
  readonly exitCode: string | undefined;
  readonly text: string;
}

function post(options: Options, body: string, env: NodeJS.ProcessEnv): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const path = options.event === undefined ? "/hooks" : `/hooks/${options.event}`;
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      // Forwarder mode: the daemon renders the dialect's output and exit code (agents/<agent>/).
      "x-hookd-forward": "1",
    };
    if (options.dialect !== undefined) headers["x-hookd-dialect"] = options.dialect;
    if (options.agent !== undefined) headers["x-hookd-agent"] = options.agent;
    if (env.HOOKD_TOKEN) headers.authorization = `Bearer ${env.HOOKD_TOKEN}`;
    let target: { socketPath: string; path: string } | { hostname: string; port: string; path: string };
    if (options.socket !== undefined) target = { socketPath: options.socket, path };
    else {
      // --url is the endpoint's base (http://host:port[/prefix]); /hooks[/Event] is appended.
      const base = new URL(options.url ?? "");
      target = { hostname: base.hostname.replace(/^\[(.*)\]$/, "$1"), port: base.port || "80", path: `${base.pathname.replace(/\/$/, "")}${path}` };
    }
    const req = request({ ...target, method: "POST", headers, agent: false, timeout: options.timeoutMs }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        const exit = res.headers["x-hookd-exit"];
        resolve({ status: res.statusCode ?? 0, exitCode: Array.isArray(exit) ? exit[0] : exit, text });
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs the forwarder; resolves to the exit code. Never rejects. */
export async function runHookForwarder(
  argv: readonly string[],
  io: ForwarderIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
  agents: () => Promise<readonly string[]> = () => Promise.resolve([]),
): Promise<number> {
  const parsed = parseOptions(argv, io.env);
  if (parsed.kind === "help") {
    io.stdout.write(`${hookHelp(await agents())}\n`);
    return 0;
  }
  if (parsed.kind === "usage") {
    io.stderr.write(`hookd hook: ${parsed.problem}\n${USAGE}\n`);
    return 1;
  }
  const { options } = parsed;
  const unavailable = (detail: string): number => {
    io.stderr.write(`hookd hook: hookd did not answer: ${detail}\n`);
    return options.failClosed ? 2 : 1;
  };
  let answer: Answer;
  try {
    answer = await post(options, await readAll(io.stdin), io.env);
  } catch (error) {
    const message = (error as Error).message;
    if (!HTTP2_ANSWER.test(message)) return unavailable(message);
    const where = options.socket ?? options.url ?? "";
    return unavailable(`${where} answered in HTTP/2: that is hookd's gRPC socket, not its HTTP hook endpoint; give ${options.socket === undefined ? "--url" : "--socket"} the address of http.listen`);
  }
  if (answer.status !== 200) return unavailable(`HTTP ${answer.status}: ${answer.text.slice(0, 500)}`);
  if (answer.exitCode === "2") {
    io.stderr.write(answer.text);
    return 2;
  }
  if (answer.exitCode !== "0") return unavailable(`unexpected x-hookd-exit ${JSON.stringify(answer.exitCode)}`);
  io.stdout.write(answer.text);
  return 0;
}
