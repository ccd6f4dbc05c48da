// Log lines on stdout: JSON (journald-friendly), one object per line with time, level, msg and
// flat fields; or, when stdout is a terminal, the same as readable text (time, level, msg,
// key=value), coloured unless NO_COLOR is set. Fields named like secrets are masked, so a token in a config echo never leaks.
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
  /** "json", or "text" for a person; default: text when stdout is a terminal and nothing else is given. */
  readonly format?: LogFormat;
  /** Colour the text format's levels; default: colourEnabled for stdout. */
  readonly colour?: boolean;
}

export type LogFormat = "json" | "text";

/**
 * Whether to colour output for a stream: only a terminal, never with NO_COLOR (no-color.org: set
 * and not empty) or TERM=dumb.
 */
export function colourEnabled(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return isTTY === true && (env.NO_COLOR ?? "") === "" && env.TERM !== "dumb";
}

/** The format a logger writing to stdout uses: text for a person at a terminal, else JSON. */
export function defaultLogFormat(isTTY: boolean | undefined): LogFormat {
  return isTTY === true ? "text" : "json";
}

const LEVEL_COLOUR: Record<LogLevel, string> = { debug: "\x1b[2m", info: "\x1b[36m", warn: "\x1b[33m", error: "\x1b[31m" };

/** `key=value` pairs: strings bare when they have no space or quote, everything else as JSON. */
export function formatFields(fields: Readonly<Record<string, unknown>>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === "string" && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`)
    .join(" ");
}

/** One record as a readable line: `12:00:00.000 INFO  msg key=value`. */
export function formatText(record: Readonly<Record<string, unknown>>, colour: boolean): string {
  const { time, level, msg, ...fields } = record;
  const name = String(level) as LogLevel;
  const label = name.toUpperCase().padEnd(5);
  const clock = typeof time === "string" ? time.slice(11, 23) : "";
  const rest = formatFields(fields);
  return `${clock} ${colour ? `${LEVEL_COLOUR[name] ?? ""}${label}\x1b[0m` : label} ${String(msg)}${rest === "" ? "" : ` ${rest}`}`;
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
  const toStdout = options.write === undefined;
  const format = options.format ?? (toStdout ? defaultLogFormat(process.stdout.isTTY) : "json");
  const colour = options.colour ?? (toStdout && colourEnabled(process.stdout.isTTY));
  const resolved: LoggerOptions = { ...options, priorityPrefix: prefixed, format, colour };
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}): void => {
    if (RANK[level] < threshold) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
    for (const [key, value] of Object.entries({ ...base, ...fields })) {
      record[key] = SECRET_KEY.test(key) ? "[redacted]" : clean(value);
    }
    const text = format === "text" ? formatText(record, colour) : JSON.stringify(record);
    write(`${prefixed ? `<${PRIORITY[level]}>` : ""}${text}\n`);
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
