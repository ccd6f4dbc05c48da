// Where startTestDaemon finds the hookd daemon: the SDK never imports the daemon, it runs it.
// In this order: the `daemon` option, $HOOKD_DAEMON, the `hookd` bin of an installed
// @hookd/daemon package (node_modules from the working directory upwards), `hookd` on $PATH.
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { HookdError } from "../errors.js";

/** The environment variable naming the daemon to run: its `cli.js` or a `hookd` executable. */
export const DAEMON_ENV = "HOOKD_DAEMON";

/** How to start the daemon: a command and the arguments before `serve`. */
export interface DaemonCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** A JavaScript entry point runs under this Node; anything else is executed as it is. */
export function daemonCommand(path: string): DaemonCommand {
  return /\.[cm]?js$/.test(path) ? { command: process.execPath, args: [path] } : { command: path, args: [] };
}

export function locateDaemon(explicit: string | undefined, cwd = process.cwd()): DaemonCommand {
  const named = explicit ?? process.env[DAEMON_ENV];
  if (named !== undefined && named !== "") {
    const path = isAbsolute(named) ? named : resolve(cwd, named);
    if (!existsSync(path)) throw new HookdError("invalid_argument", `startTestDaemon: the daemon ${path} (${explicit === undefined ? `$${DAEMON_ENV}` : "option daemon"}) does not exist`);
    return daemonCommand(path);
  }
  const installed = installedBin(cwd) ?? onPath("hookd");
  if (installed !== undefined) return daemonCommand(installed);
  throw new HookdError(
    "unavailable",
    `startTestDaemon: no hookd daemon found: install @hookd/daemon (npm i -D @hookd/daemon), put \`hookd\` on PATH, set $${DAEMON_ENV} to its cli.js, or pass { daemon }`,
  );
}

function installedBin(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules/@hookd/daemon/package.json");
    if (existsSync(manifest)) {
      const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin?: string | Record<string, string> };
      const entry = typeof bin === "string" ? bin : bin?.hookd;
      if (entry !== undefined) return join(dirname(manifest), entry);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}
