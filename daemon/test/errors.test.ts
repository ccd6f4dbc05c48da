// docs/errors.md against the sources: every HookdError code (ERROR_CODES) and every plugin fault
// cause (the FaultCause union, read from faults.ts with the TypeScript parser) has a filled-in
// row there, no row names an unknown one, and every code literal the sources construct a
// HookdError with is a member of ERROR_CODES. Reads files only; nothing is built or started.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@hookd/sdk";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs/errors.md"), "utf8");

/** The first cell (a backticked name) of each table row under `## heading`, with its other cells. */
function documentedRows(markdown: string, heading: string): Map<string, string[]> {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/errors.md has no "## ${heading}" section`);
  const rest = markdown.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const row = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (row === null) continue;
    const [, name = "", cells = ""] = row;
    if (rows.has(name)) throw new Error(`"${name}" has two rows under "## ${heading}"`);
    rows.set(name, cells.split("|").map((cell) => cell.trim()));
  }
  return rows;
}

/** The string literal members of a union type alias, read from a source file's syntax tree. */
function unionMembers(file: string, alias: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || statement.name.text !== alias) continue;
    const types = ts.isUnionTypeNode(statement.type) ? statement.type.types : [statement.type];
    return types.map((type) => {
      if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) return type.literal.text;
      throw new Error(`${alias} in ${file} has a member that is not a string literal: ${type.getText(source)}`);
    });
  }
  throw new Error(`no type ${alias} in ${file}`);
}

/** The .ts files under `dir`, generated code left out. */
function sourceFiles(dir: string): string[] {
  if (relative(ROOT, dir) === join("sdk", "src", "gen")) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.isFile() && entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every code literal passed to `new HookdError("<code>", …)` or `HookdError.from(x, "<code>")`. */
function codeLiterals(text: string): string[] {
  const constructed = [...text.matchAll(/new HookdError\(\s*"([^"]*)"/g)].map((match) => match[1] ?? "");
  // The first argument may hold one level of parentheses: HookdError.from(f(x), "internal").
  const normalized = [...text.matchAll(/HookdError\.from\((?:[^()]|\([^()]*\))*?,\s*"([^"]*)"\s*\)/g)].map((match) => match[1] ?? "");
  return [...constructed, ...normalized];
}

const CODES = Object.keys(ERROR_CODES);
const FAULT_CAUSES = unionMembers(join(ROOT, "daemon/src/engine/faults.ts"), "FaultCause");

describe("docs/errors.md", () => {
  const codeRows = documentedRows(DOC, "Error codes");
  const causeRows = documentedRows(DOC, "Plugin fault causes");

  it("documents every error code, with every column filled in", () => {
    expect(CODES.length).toBeGreaterThan(0);
    for (const code of CODES) {
      expect(codeRows.has(code), `ERROR_CODES.${code} has no row under "## Error codes"`).toBe(true);
      expect(codeRows.get(code)?.every((cell) => cell !== ""), `the row of ${code} has an empty cell`).toBe(true);
    }
  });

  it("documents every plugin fault cause, with every column filled in", () => {
    expect(FAULT_CAUSES).toContain("deadline_exceeded");
    for (const cause of FAULT_CAUSES) {
      expect(causeRows.has(cause), `FaultCause "${cause}" has no row under "## Plugin fault causes"`).toBe(true);
      expect(causeRows.get(cause)?.every((cell) => cell !== ""), `the row of ${cause} has an empty cell`).toBe(true);
    }
  });

  it("documents no code or cause the sources do not have", () => {
    expect([...codeRows.keys()].filter((code) => !CODES.includes(code))).toEqual([]);
    expect([...causeRows.keys()].filter((cause) => !FAULT_CAUSES.includes(cause))).toEqual([]);
  });
});

describe("HookdError codes in the sources", () => {
  const files = ["sdk/src", "daemon/src"].flatMap((dir) => sourceFiles(join(ROOT, dir)));
  const found = files.flatMap((file) => codeLiterals(readFileSync(file, "utf8")).map((code) => ({ file: relative(ROOT, file), code })));

  it("are all members of ERROR_CODES", () => {
    // Enough sites to show the scan sees them; then every one must be a known code.
    expect(found.length).toBeGreaterThan(50);
    expect(found.filter(({ code }) => !CODES.includes(code))).toEqual([]);
  });

  it("are found by the scan in both spellings, and an unknown one would be reported", () => {
    expect(codeLiterals('throw new HookdError(\n  "bogus", "x");\nHookdError.from(f(x), "internal");')).toEqual(["bogus", "internal"]);
    expect(new Set(found.map(({ code }) => code))).toContain("cancelled"); // HookdError.from(signal.reason, "cancelled")
  });
});
