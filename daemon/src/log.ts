// JSON log lines on stdout (journald-friendly): one object per line with time, level, msg and
// flat fields. Fields named like secrets are masked, so a token in a config echo never leaks.
// Writing is synchronous: a line logged before a crash is not lost in a buffer.
import { writeSync } from "node:fs";

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
}

function clean(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return value.toString();
  return value;
}

export function createLogger(options: LoggerOptions = {}, base: LogFields = {}): Logger {
  const threshold = RANK[options.level ?? "info"];
  const write = options.write ?? ((line: string) => writeSync(1, line));
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}): void => {
    if (RANK[level] < threshold) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
    for (const [key, value] of Object.entries({ ...base, ...fields })) {
      record[key] = SECRET_KEY.test(key) ? "[redacted]" : clean(value);
    }
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(options, { ...base, ...fields }),
  };
}

/** A logger that drops everything (tests, library use). */
export const silentLogger: Logger = createLogger({ write: () => {} });
