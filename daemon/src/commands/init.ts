// `hookd init plugin --lang ts|python|go NAME [--dir DIR]` (a policy: init-policy.ts): copies every file of the daemon
// package's templates/plugin-<lang>/ into DIR (default ./NAME; an existing directory must be
// empty), replacing {{name}} (kebab-case), {{name_snake}}, {{name_pascal}} and {{sdk_path}} (the
// absolute path of this checkout's SDK for the language, beside the daemon package, until the
// SDKs are published) in file contents and file names. Modes are kept (a script stays executable).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scaffoldPolicy } from "./init-policy.js";
import { parseCommandLine, stringOption, usageError } from "./usage.js";

export type PluginLanguage = "ts" | "python" | "go";

const LANGUAGES: { readonly [alias: string]: PluginLanguage } = { ts: "ts", typescript: "ts", python: "python", py: "python", go: "go" };

/** Where each language's SDK lives in a hookd checkout, beside the daemon package. */
const SDK_DIRS: { readonly [L in PluginLanguage]: string } = { ts: "sdk", python: "sdk-python", go: "sdk-go" };

/** The daemon package's root (dist/commands/init.js or src/commands/init.ts, two levels up). */
const DAEMON_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** kebab-case: lower-case words of letters and digits joined by single dashes, starting with a letter. */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;

export interface ScaffoldOptions {
  readonly lang: PluginLanguage;
  readonly name: string;
  readonly dir: string;
  /** Default: the daemon package's templates directory. */
  readonly templates?: string;
  /** Default: the checkout the daemon package sits in. */
  readonly repoRoot?: string;
}

export interface Scaffold {
  readonly dir: string;
  /** The files written, relative to `dir`, sorted. */
  readonly files: string[];
  readonly sdkPath: string;
  /** The SDK directory is not there (a daemon installed outside a checkout): the project's dependency on it needs editing. */
  readonly sdkMissing: boolean;
}

/** The replacements for a name: {{name}}, {{name_snake}}, {{name_pascal}}, {{sdk_path}}. */
export function placeholders(name: string, sdkPath: string): ReadonlyMap<string, string> {
  const words = name.split("-");
  return new Map([
    ["{{name}}", name],
    ["{{name_snake}}", words.join("_")],
    ["{{name_pascal}}", words.map((w) => `${w[0]?.toUpperCase() ?? ""}${w.slice(1)}`).join("")],
    ["{{sdk_path}}", sdkPath],
  ]);
}

function fill(text: string, values: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [key, value] of values) out = out.replaceAll(key, value);
  return out;
}

function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(root, path) : [relative(root, path)];
  });
}

/** Writes the scaffold; throws an Error saying what is in the way. */
export function scaffoldPlugin(options: ScaffoldOptions): Scaffold {
  const template = join(options.templates ?? join(DAEMON_ROOT, "templates"), `plugin-${options.lang}`);
  if (!existsSync(template)) throw new Error(`no ${options.lang} template in this hookd (looked in ${template})`);
  const dir = resolve(options.dir);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} exists and is not a directory`);
    if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: give --dir a new or empty directory`);
  }
  const sdkPath = resolve(options.repoRoot ?? join(DAEMON_ROOT, ".."), SDK_DIRS[options.lang]);
  const values = placeholders(options.name, sdkPath);
  const files: string[] = [];
  for (const file of filesUnder(template).sort()) {
    const target = join(dir, fill(file, values));
    const source = join(template, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, fill(readFileSync(source, "utf8"), values));
    chmodSync(target, statSync(source).mode & 0o777);
    files.push(relative(dir, target));
  }
  return { dir, files: files.sort(), sdkPath, sdkMissing: !existsSync(sdkPath) };
}

const NEXT_STEPS: { readonly [L in PluginLanguage]: string } = {
  ts: "npm install && npm test",
  python: "see README.md (a venv with the SDK installed, then the tests)",
  go: "go mod tidy && go test ./...",
};

function initPolicy(name: string, dir: string, out: (text: string) => void, err: (text: string) => void): number {
  if (!NAME.test(name) || name.length > MAX_NAME) throw usageError(`NAME: expected kebab-case (lower-case letters and digits, words joined by single dashes, starting with a letter, at most ${MAX_NAME} characters), got "${name}"`, "init");
  let files: string[];
  try {
    files = scaffoldPolicy(name, dir);
  } catch (error) {
    err(`hookd init: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  out(`created policy "${name}":\n${files.map((f) => `  ${f}\n`).join("")}next: hookd test ${files[0] ?? ""}\n`);
  return 0;
}

export function init(args: string[], out: (text: string) => void, err: (text: string) => void): number {
  const { values, positionals } = parseCommandLine("init", args);
  const [what = "", name = ""] = positionals;
  if (what === "policy") return initPolicy(name, stringOption(values, "dir") ?? ".", out, err);
  if (what !== "plugin") throw usageError(`can create a plugin (hookd init plugin --lang ts|python|go NAME) or a policy (hookd init policy NAME), not "${what}"`, "init");
  const langValue = stringOption(values, "lang");
  if (langValue === undefined) throw usageError("--lang is required: ts, python or go", "init");
  const lang = LANGUAGES[langValue.toLowerCase()];
  if (lang === undefined) throw usageError(`--lang: expected ts, python or go, got "${langValue}"`, "init");
  if (!NAME.test(name) || name.length > MAX_NAME) {
    throw usageError(`NAME: expected kebab-case (lower-case letters and digits, words joined by single dashes, starting with a letter, at most ${MAX_NAME} characters), got "${name}"`, "init");
  }
  let scaffold: Scaffold;
  try {
    scaffold = scaffoldPlugin({ lang, name, dir: stringOption(values, "dir") ?? name });
  } catch (error) {
    err(`hookd init: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  out(`created ${lang} plugin "${name}" in ${scaffold.dir}:\n${scaffold.files.map((f) => `  ${f}\n`).join("")}`);
  out(`it uses the SDK at ${scaffold.sdkPath}\n`);
  if (scaffold.sdkMissing) err(`hookd init: warning: ${scaffold.sdkPath} does not exist (this hookd is not in a checkout): point the project's SDK dependency at an installed SDK\n`);
  out(`next: cd ${relative(process.cwd(), scaffold.dir) || "."} && ${NEXT_STEPS[lang]}\n`);
  return 0;
}
