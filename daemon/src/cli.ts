#!/usr/bin/env node
// The `hookd` command. `serve` runs the daemon; operator commands (check, status, plugins,
// reload, tail) and the hook forwarder talk to a running daemon. Parses arguments and exits with
// a clear message and code; everything else lives in the modules it calls (commands/). Every
// command module is imported only when chosen: `hookd hook` runs per agent event and must not
// pay for loading grpc-js or the daemon.

async function usage(): Promise<string> {
  const [{ ADMIN_USAGE }, { CHECK_USAGE }, { SERVE_USAGE }] = await Promise.all([
    import("./commands/admin.js"),
    import("./commands/check.js"),
    import("./commands/serve.js"),
  ]);
  return `usage: hookd <command> [options]

commands:
  ${SERVE_USAGE}
  ${CHECK_USAGE}
${ADMIN_USAGE}
  hook --dialect claude-code|codex|gemini --event EVENT [--url URL | --socket PATH]
                          answer an agent's command hook through the daemon (JSON on stdin)
`;
}

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "hook":
      return (await import("./forward/hook.js")).runHookForwarder(rest);
    case "serve":
      return (await import("./commands/serve.js")).serve(rest);
    case "check":
      return (await import("./commands/check.js")).check(rest, { out, err });
    case "status":
      return (await import("./commands/admin.js")).status(rest, out);
    case "plugins":
      return (await import("./commands/admin.js")).plugins(rest, out);
    case "reload":
      return (await import("./commands/admin.js")).reload(rest, out, err);
    case "tail": {
      const stop = new AbortController();
      process.once("SIGINT", () => stop.abort());
      process.once("SIGTERM", () => stop.abort());
      return (await import("./commands/admin.js")).tail(rest, out, stop.signal);
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(await usage());
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`hookd: unknown command "${command}"\n${await usage()}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Let stdout drain (a forwarded hook answer is read by the agent) before exiting.
    process.exitCode = code;
    if (process.argv[2] !== "hook") process.exit(code);
  },
  (error: unknown) => {
    // ConfigError messages already list every problem with its path.
    process.stderr.write(`hookd: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
