// Argument parsing and help for the operator commands, from spec.ts: node:util parseArgs (built
// in, so no dependency) with its errors turned into usage errors that name the option, "did you
// mean" suggestions, and the help texts. cli.ts maps a usage error to exit code 2.
import { parseArgs } from "node:util";
import { HookdError } from "@hookd/sdk/errors";
import { COMMANDS, commandSpec } from "./spec.js";
import type { CommandSpec, OptionSpec } from "./spec.js";

/** What a usage error names besides its message: the command whose synopsis to point at. */
export interface UsageDetails {
  readonly command: string | undefined;
}

export type UsageError = HookdError<UsageDetails>;

/** A mistake in the command line: exit code 2, with the command's synopsis. */
export function usageError(message: string, command?: string): UsageError {
  return new HookdError("usage", message, { details: { command } });
}

/** Only usageError() makes the code, so the code says the details are there. */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof HookdError && error.code === "usage";
}

type ParsedValues = Record<string, string | boolean | undefined>;

/** Parses a command's arguments by its spec; throws a usage error naming the bad option. */
export function parseCommand(name: string, args: readonly string[]): ParsedValues {
  return parseCommandLine(name, args).values;
}

/** Options and positional arguments by the command's spec: too few or too many positionals is a usage error. */
export function parseCommandLine(name: string, args: readonly string[]): { values: ParsedValues; positionals: string[] } {
  const spec = commandSpec(name);
  if (spec === undefined) throw new Error(`no spec for command "${name}"`);
  const options = Object.fromEntries(Object.entries(spec.options).map(([key, o]) => [key, o.short === undefined ? { type: o.type } : { type: o.type, short: o.short }]));
  let parsed: { values: ParsedValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: spec.args !== undefined });
  } catch (error) {
    throw usageError(parseErrorMessage(error, spec), name);
  }
  const expected = spec.args ?? [];
  const required = expected.filter((a) => a.optional !== true);
  const missing = required[parsed.positionals.length];
  if (missing !== undefined) throw usageError(`missing ${missing.name} (${missing.help})`, name);
  const extra = parsed.positionals[expected.length];
  if (extra !== undefined) throw usageError(`unexpected argument "${extra}" (${spec.name} takes ${expected.map((a) => a.name).join(" ")})`, name);
  return parsed;
}

function parseErrorMessage(error: unknown, spec: CommandSpec): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const known = Object.keys(spec.options).map((o) => `--${o}`);
      return `unknown option ${quoted}${suggestion(quoted.replace(/=.*/, ""), [...known, "--help"])}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const long = /--[a-z-]+/.exec(quoted)?.[0] ?? quoted;
      if (message.includes("argument missing")) return `${long} needs a value`;
      if (message.includes("ambiguous")) return `${long} needs a value (one starting with "-" as ${long}=VALUE)`;
      return `${long}: ${message}`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${quoted === "" ? message : `"${quoted}"`} (${spec.name} takes options only)`;
    default:
      return message;
  }
}

/** An integer option's value, or `fallback` when absent; throws a usage error naming the option. */
export function integerOption(values: ParsedValues, name: string, fallback: number, min = 0): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) throw usageError(`--${name}: expected an integer of at least ${min}, got "${String(raw)}"`);
  return value;
}

/** A string option's value, when given. */
export function stringOption(values: ParsedValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** Edit distance counting a swap of two neighbours as one edit (the commonest typo), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The closest candidate, when it is close enough to be a typo (or `input` is its prefix). */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = candidate.startsWith(lower) && lower.length >= 2 ? 0.5 : distance(lower, candidate);
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  if (best === undefined) return undefined;
  return best.d <= Math.max(1, Math.floor(best.candidate.length / 3)) ? best.candidate : undefined;
}

function suggestion(input: string, candidates: readonly string[]): string {
  const match = closest(input, candidates);
  return match === undefined ? "" : `; did you mean ${match}?`;
}

/** The message for a command that does not exist. */
export function unknownCommand(input: string): string {
  const match = closest(input, COMMANDS.map((c) => c.name));
  return `unknown command "${input}"${match === undefined ? "" : `; did you mean "${match}"?`}`;
}

function optionLabel(name: string, o: OptionSpec): string {
  return `${o.short === undefined ? "    " : `-${o.short}, `}--${name}${o.type === "string" ? ` ${o.value ?? "VALUE"}` : ""}`;
}

export function synopsis(spec: CommandSpec): string {
  const options = Object.entries(spec.options).map(([name, o]) => `[--${name}${o.type === "string" ? ` ${o.value ?? "VALUE"}` : ""}]`);
  const args = (spec.args ?? []).map((a) => (a.optional === true ? `[${a.name}]` : a.name));
  return ["hookd", spec.name, ...options, ...args].join(" ");
}

/** `hookd <cmd> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const options: [string, string][] = [...Object.entries(spec.options).map(([name, o]): [string, string] => [optionLabel(name, o), o.help]), ["-h, --help", "show this help"]];
  const width = Math.max(...options.map(([label]) => label.length));
  return [
    `usage: ${synopsis(spec)}`,
    "",
    `${spec.summary[0]?.toUpperCase() ?? ""}${spec.summary.slice(1)}.${spec.details === "" ? "" : ` ${spec.details}`}`,
    "",
    ...argumentLines(spec),
    "options:",
    ...options.map(([label, help]) => `  ${label.padEnd(width)}  ${help}`),
    "",
  ].join("\n");
}

function argumentLines(spec: CommandSpec): string[] {
  const args = spec.args ?? [];
  if (args.length === 0) return [];
  const width = Math.max(...args.map((a) => a.name.length));
  return ["arguments:", ...args.map((a) => `  ${a.name.padEnd(width)}  ${a.help}`), ""];
}

/** `hookd --help`: every command with its one line. */
export function globalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "usage: hookd <command> [options]",
    "",
    "commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "options:",
    "  -h, --help     show help (hookd <command> --help, or hookd help <command>, for one command)",
    "  -V, --version  print hookd's version",
    "",
  ].join("\n");
}
