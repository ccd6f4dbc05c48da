#!/usr/bin/env node
// The `hookd` command. `serve` runs the daemon; operator commands (check, status, plugins,
// reload, tail) and the hook forwarder talk to a running daemon. Parses arguments and exits with
// a clear message and code; everything else lives in the modules it calls (commands/).
import { ConfigError } from "./config/load.js";
import { ADMIN_USAGE, plugins, reload, status, tail } from "./commands/admin.js";
import { CHECK_USAGE, check } from "./commands/check.js";
import { SERVE_USAGE, serve } from "./commands/serve.js";

const USAGE = `usage: hookd <command> [options]

commands:
  ${SERVE_USAGE}
  ${CHECK_USAGE}
${ADMIN_USAGE}
`;

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve(rest);
    case "check":
      return check(rest, { out, err });
    case "status":
      return status(rest, out);
    case "plugins":
      return plugins(rest, out);
    case "reload":
      return reload(rest, out, err);
    case "tail": {
      const stop = new AbortController();
      process.once("SIGINT", () => stop.abort());
      process.once("SIGTERM", () => stop.abort());
      return tail(rest, out, stop.signal);
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`hookd: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`hookd: ${error.message}\n`);
    else process.stderr.write(`hookd: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
