#!/usr/bin/env node
// The `hookd` command. `serve` runs the daemon; operator commands (check, status, plugins,
// reload, tail) and the hook forwarder talk to a running daemon. Parses arguments and exits with
// a clear message and code; everything else lives in the modules it calls.
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "./config/load.js";
import { createLogger } from "./ops/log.js";
import { Daemon } from "./runtime/daemon.js";
import { loadOtherPlugin } from "./runtime/other-plugins.js";

const USAGE = `usage: hookd <command> [options]

commands:
  serve [--config FILE]   run the daemon (config from --config, HOOKD_CONFIG, or the embedded default)
`;

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { config: { type: "string", short: "c" } }, strict: true });
  const loaded = loadConfig(values.config);
  const log = createLogger({ level: loaded.config.log.level });
  const daemon = await Daemon.start({ config: loaded.config, configPath: loaded.path, log, loadOther: loadOtherPlugin(log) });
  if (process.stderr.isTTY) process.stderr.write(`hookd listening on ${daemon.addresses.join(", ")}\n`);
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      log.info("stopping", { signal });
      daemon.stop().then(
        () => resolve(0),
        (error: unknown) => {
          log.error("stop failed", { error });
          resolve(1);
        },
      );
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve(rest);
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
