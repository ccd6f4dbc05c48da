// The guardrail library hookd ships: rule files in the daemon package (daemon/rules/*.yaml),
// each enabled in a rules plugin by name (`include: [builtin:destructive-shell]`). Owns the
// library's location, its names, and resolving an include entry to its file.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HookdError } from "@hookd/sdk";

/** daemon/rules, from both daemon/src/plugins/rules and daemon/dist/plugins/rules. */
export const LIBRARY_DIR = fileURLToPath(new URL("../../../rules/", import.meta.url));

const PREFIX = "builtin:";

/** The builtin rule files' names (`destructive-shell`), sorted; a file's policy tests (`*.test.yaml`) are not rule files. */
export function builtinNames(): string[] {
  return readdirSync(LIBRARY_DIR)
    .filter((name) => name.endsWith(".yaml") && !name.endsWith(".test.yaml"))
    .map((name) => name.slice(0, -".yaml".length))
    .sort();
}

/** The file of a builtin; `builtin:NAME` or the bare name. */
export function builtinFile(name: string): string {
  return join(LIBRARY_DIR, `${name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name}.yaml`);
}

/** The policy tests of a builtin (its cases, beside it). */
export function builtinTestFile(name: string): string {
  return builtinFile(name).replace(/\.yaml$/, ".test.yaml");
}

/** The files an `include` list names, in order; an entry that is no builtin is a config error naming the key. */
export function includedFiles(include: readonly string[], where: string): string[] {
  const names = builtinNames();
  return include.map((entry, index) => {
    const name = entry.startsWith(PREFIX) ? entry.slice(PREFIX.length) : undefined;
    if (name === undefined || !names.includes(name)) {
      throw new HookdError("invalid_plugin", `${where}[${index}]: unknown builtin "${entry}"; the library has ${names.map((n) => PREFIX + n).join(", ")}`);
    }
    return builtinFile(name);
  });
}
