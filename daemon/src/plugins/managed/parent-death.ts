// Managed plugins die with the daemon, even when it is SIGKILLed: each is started through
// util-linux `setpriv --pdeathsig KILL`, which sets PR_SET_PDEATHSIG (the kernel sends SIGKILL to
// the child when the thread that spawned it, the daemon's main thread, exits) and then execs the
// plugin, so the pid is the plugin's own. util-linux is essential on Debian; where setpriv is
// missing the plugin runs unguarded (the caller warns) and the next daemon's leftover sweep
// (ledger.ts) is the only cleanup.
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `command` as exec would find it: a path (relative to `cwd`) or a name on PATH. */
function findCommand(command: string, path: string | undefined, cwd: string): string | undefined {
  if (command.includes("/")) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return executable(full) ? full : undefined;
  }
  for (const dir of (path ?? "/usr/local/bin:/usr/bin:/bin").split(delimiter)) {
    if (dir !== "" && executable(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

let setpriv: string | null | undefined;

/** The setpriv binary on the daemon's PATH, looked up once; undefined when there is none. */
export function setprivPath(): string | undefined {
  setpriv ??= findCommand("setpriv", process.env.PATH, process.cwd()) ?? null;
  return setpriv ?? undefined;
}

/**
 * How to spawn `command args` so that it gets SIGKILL when the daemon dies. Unchanged when
 * setpriv is missing, or when `command` cannot be found (so its spawn fails with ENOENT as it
 * would unwrapped, instead of setpriv exiting 127).
 */
export function withParentDeathSignal(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string | undefined): { command: string; args: string[] } {
  const wrapper = setprivPath();
  if (wrapper === undefined || findCommand(command, env.PATH, cwd ?? process.cwd()) === undefined) return { command, args: [...args] };
  return { command: wrapper, args: ["--pdeathsig", "KILL", "--", command, ...args] };
}
