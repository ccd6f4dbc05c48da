// The environment every child process of the daemon starts with: the daemon's own, minus what a
// service manager meant for the daemon alone. A child that inherited NOTIFY_SOCKET could report
// the daemon ready (or stopping), WATCHDOG_* would make it ping on the daemon's behalf, and
// LISTEN_* would make it believe systemd passed it the daemon's sockets. Every spawn goes
// through childEnv(); the daemon notifies systemd itself, from its own process.

/** Variables that belong to the daemon's service manager contract, never to its children. */
export const DAEMON_ONLY_ENV: readonly string[] = Object.freeze(["NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]);

/** `base` (default: this process's environment) with `extra` added, minus DAEMON_ONLY_ENV. */
export function childEnv(base: NodeJS.ProcessEnv = process.env, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...extra };
  for (const name of DAEMON_ONLY_ENV) delete env[name];
  return env;
}
