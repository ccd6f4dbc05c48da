// JSON log lines on stdout (journald-friendly): one object per line with time, level, msg and
// flat fields. Fields named like secrets are masked, so a token in a config echo never leaks.
// When stdout is the journal's stream, each line starts with its syslog priority (`<4>`), which
// journald turns into PRIORITY= and strips, so `journalctl -p warning` finds warnings. Writing is
// synchronous: a line logged before a crash is not lost in a buffer.
import { fstatSync, writeSync } from "node:fs";
import { format } from "node:util";

export type LogLevel = "debug" | "info" | "warn" | "error";
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /token|secret|password|authorization|api[_-]?key/i;

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds these fields to every line. */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Where lines go; stdout by default. Tests pass a collector. */
  readonly write?: (line: string) => void;
  /** Start each line with its syslog priority; default: when stdout is the journal (JOURNAL_STREAM). */
  readonly priorityPrefix?: boolean;
}

/** syslog priorities journald reads from a `<N>` line prefix. */
const PRIORITY: Record<LogLevel, number> = { debug: 7, info: 6, warn: 4, error: 3 };

/** True when fd 1 is the stream systemd connected to the journal (JOURNAL_STREAM is "device:inode"). */
export function stdoutIsJournal(env: NodeJS.ProcessEnv = process.env): boolean {
  const stream = env.JOURNAL_STREAM;
  if (stream === undefined || stream === "") return false;
  try {
    const { dev, ino } = fstatSync(1);
    return stream === `${dev}:${ino}`;
  } catch {
    return false;
  }
}

function clean(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return value.toString();
  return value;
}

export function createLogger(options: LoggerOptions = {}, base: LogFields = {}): Logger {
  const threshold = RANK[options.level ?? "info"];
  const write = options.write ?? ((line: string) => writeSync(1, line));
  const prefixed = options.priorityPrefix ?? (options.write === undefined && stdoutIsJournal());
  const resolved: LoggerOptions = { ...options, priorityPrefix: prefixed };
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}): void => {
    if (RANK[level] < threshold) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
    for (const [key, value] of Object.entries({ ...base, ...fields })) {
      record[key] = SECRET_KEY.test(key) ? "[redacted]" : clean(value);
    }
    write(`${prefixed ? `<${PRIORITY[level]}>` : ""}${JSON.stringify(record)}\n`);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(resolved, { ...base, ...fields }),
  };
}

/** The console methods plugin code writes through, and the level each one's lines get. */
const CONSOLE_LEVELS = { debug: "debug", log: "info", info: "info", warn: "warn", error: "error" } as const satisfies Record<string, LogLevel>;

/**
 * Routes `console` output (what plugin code prints, since hookd itself logs through a Logger) into
 * `log` as labelled lines, `{"msg":"plugin output","stream":"console","line":...}` plus `fields`
 * (e.g. the plugin of a worker), as a managed plugin's output is: never raw text among the
 * daemon's JSON lines.
 */
export function captureConsole(log: Logger, fields: LogFields = {}): void {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS) as [keyof typeof CONSOLE_LEVELS, LogLevel][]) {
    console[method] = (...args: unknown[]): void => log[level]("plugin output", { ...fields, stream: "console", line: format(...args) });
  }
}

/** A logger that drops everything (tests, library use). */
export const silentLogger: Logger = createLogger({ write: () => {} });
