#!/usr/bin/env node
// The `hookd` command. `serve` runs the daemon; operator commands (check, status, plugins,
// reload, tail) and the hook forwarder talk to a running daemon. Routes to the command, shows
// help, and maps mistakes to exit codes: 2 for every usage error, 1 for a failure. Every command
// module is imported only when chosen: `hookd hook` runs per agent event and must not pay for
// loading grpc-js, the daemon or even the help texts.

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

const wantsHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
};

async function help(topic: string | undefined): Promise<number> {
  const { commandHelp, globalHelp, unknownCommand, usageError } = await import("./commands/usage.js");
  if (topic === undefined || topic === "help" || topic === "--help" || topic === "-h") {
    out(globalHelp());
    return 0;
  }
  if (topic === "hook") {
    out(`${(await import("./forward/hook.js")).hookHelp((await import("./agents/registry.js")).AGENT_NAMES)}\n`);
    return 0;
  }
  const spec = (await import("./commands/spec.js")).commandSpec(topic);
  if (spec === undefined) throw usageError(unknownCommand(topic));
  out(commandHelp(spec));
  return 0;
}

async function run(command: string, rest: string[]): Promise<number> {
  switch (command) {
    case "serve":
      return (await import("./commands/serve.js")).serve(rest);
    case "check":
      return (await import("./commands/check.js")).check(rest, { out, err, colour: await colourOn(process.stdout) });
    case "eval":
      return (await import("./commands/eval.js")).evalCommand(rest, { out, err, colour: await colourOn(process.stdout) });
    case "rules":
      return (await import("./commands/rules-list.js")).rulesList(rest, { out, err });
    case "test":
      return (await import("./commands/policy-test.js")).policyTestCommand(rest, { out, err });
    case "init":
      return (await import("./commands/init.js")).init(rest, out, err);
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
    case "help": {
      if (rest.length > 1) throw (await import("./commands/usage.js")).usageError(`help takes one command, got ${rest.length}`, "help");
      return help(rest[0]);
    }
    default:
      throw (await import("./commands/usage.js")).usageError((await import("./commands/usage.js")).unknownCommand(command));
  }
}

async function colourOn(stream: NodeJS.WriteStream): Promise<boolean> {
  return (await import("./log.js")).colourEnabled(stream.isTTY, process.env);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "hook") return (await import("./forward/hook.js")).runHookForwarder(rest, undefined, async () => (await import("./agents/registry.js")).AGENT_NAMES);
  if (command === "--version" || command === "-V") {
    out(`hookd ${(await import("./runtime/version.js")).DAEMON_VERSION}\n`);
    return 0;
  }
  if (command === "--help" || command === "-h") return help(undefined);
  if (command === undefined) {
    err((await import("./commands/usage.js")).globalHelp());
    return 2;
  }
  if (command !== "help" && wantsHelp(rest)) return help(command);
  try {
    return await run(command, rest);
  } catch (error) {
    const { isUsageError } = await import("./commands/usage.js");
    if (!isUsageError(error)) throw error;
    const known = (await import("./commands/spec.js")).commandSpec(command) === undefined ? undefined : command;
    const name = error.details.command ?? known;
    err(`hookd${name === undefined ? "" : ` ${name}`}: ${error.message}\n(see hookd ${name === undefined ? "" : `${name} `}--help)\n`);
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
    // An invalid_config error's message already lists every problem with its path.
    process.stderr.write(`hookd: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
