// `hookd init policy NAME [--dir DIR]`: writes a rule file and its policy tests (NAME.yaml,
// NAME.test.yaml) from the daemon package's templates/policy/ into DIR (default .); an existing
// file is never overwritten.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TEMPLATES = fileURLToPath(new URL("../../templates/policy/", import.meta.url));
const SCHEMA = fileURLToPath(new URL("../../rules.schema.json", import.meta.url));

/** Writes the files and returns their paths; throws an Error naming a file in the way. */
export function scaffoldPolicy(name: string, dir: string): string[] {
  const target = resolve(dir);
  const values = new Map([["{{name}}", name], ["{{schema_path}}", SCHEMA]]);
  const fill = (text: string): string => [...values].reduce((out, [key, value]) => out.replaceAll(key, value), text);
  const files = readdirSync(TEMPLATES).sort().map((file) => ({ source: join(TEMPLATES, file), path: join(target, fill(file)) }));
  const taken = files.find((file) => existsSync(file.path));
  if (taken !== undefined) throw new Error(`${taken.path} exists: give another NAME or --dir`);
  mkdirSync(target, { recursive: true });
  for (const file of files) writeFileSync(file.path, fill(readFileSync(file.source, "utf8")));
  return files.map((file) => relative(process.cwd(), file.path) || file.path);
}
