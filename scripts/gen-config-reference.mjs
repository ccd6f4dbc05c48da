#!/usr/bin/env node
// Generates the config reference from the config's zod schema (daemon/src/config/schema.ts):
//   docs/config-reference.md   every key, its type, default and meaning, for people;
//   daemon/config.schema.json  the same as a JSON Schema, with the meanings, for editors;
//   daemon/rules.schema.json   the JSON Schema of a rules plugin's rule files (daemon/src/plugins/rules/rule-file.ts).
// Types and defaults come from zod's own JSON Schema of the built schema (daemon/dist); the
// meanings are the schema's doc comments, read from its source with the TypeScript compiler, so
// the comment beside a key is its one description. A key without one fails the generation.
//   node scripts/gen-config-reference.mjs           write both files
//   node scripts/gen-config-reference.mjs --check   exit 1 when either file is stale
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { z } from "zod";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_DIR = join(root, "daemon/src/config");
const RULES_DIR = join(root, "daemon/src/plugins/rules");
const OUTPUTS = { markdown: join(root, "docs/config-reference.md"), jsonSchema: join(root, "daemon/config.schema.json"), rulesSchema: join(root, "daemon/rules.schema.json") };

const { configSchema } = await import(join(root, "daemon/dist/config/schema.js"));
const descriptions = commentsByPath(SCHEMA_DIR, "configSchema");
const schema = z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" });
const rows = [];
walk(schema, "", undefined);

const missing = rows.filter((row) => row.meaning === undefined).map((row) => row.path);
if (missing.length > 0) {
  console.error(`gen-config-reference: no doc comment in daemon/src/config/schema.ts for:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}

// The rule file's schema: every key described by its doc comment, like the config's.
const { ruleFileSchema } = await import(join(root, "daemon/dist/plugins/rules/rule-file.js"));
const ruleDescriptions = commentsByPath(RULES_DIR, "ruleFileSchema");
const rulesSchema = z.toJSONSchema(ruleFileSchema, { io: "input", unrepresentable: "any" });
const undescribed = [];
describeKeys(rulesSchema, "");
if (undescribed.length > 0) {
  console.error(`gen-config-reference: no doc comment in daemon/src/plugins/rules/rule-file.ts for:\n  ${undescribed.join("\n  ")}`);
  process.exit(1);
}

const outputs = {
  markdown: markdown(rows),
  jsonSchema: `${JSON.stringify({ $id: "https://hookd.dev/schema/config.json", title: "hookd config", ...schema }, null, 2)}\n`,
  rulesSchema: `${JSON.stringify({ $id: "https://hookd.dev/schema/rules.json", title: "hookd rule file (kind: rules)", ...rulesSchema }, null, 2)}\n`,
};

function describeKeys(node, path) {
  if (node.type === "array" && node.items !== undefined) return describeKeys(node.items, `${path}[]`);
  if (node.type !== "object" || node.properties === undefined) return;
  for (const [key, child] of Object.entries(node.properties)) {
    const childPath = path === "" ? key : `${path}.${key}`;
    const meaning = ruleDescriptions.get(childPath);
    if (meaning === undefined) undescribed.push(childPath);
    else child.description = meaning;
    describeKeys(child, childPath);
  }
}
if (process.argv.includes("--check")) {
  const stale = Object.entries(OUTPUTS).filter(([kind, path]) => readOr(path) !== outputs[kind]);
  if (stale.length > 0) {
    console.error(`config reference is stale; run 'npm run generate' and commit: ${stale.map(([, path]) => path.slice(root.length + 1)).join(", ")}`);
    process.exit(1);
  }
} else {
  for (const [kind, path] of Object.entries(OUTPUTS)) writeFileSync(path, outputs[kind]);
}

function readOr(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

// ---- the JSON Schema: one row per key, its description written into the schema too -----------

/** `variant` names the plugin kind (or listener form) a key belongs to, when not every one has it. */
function walk(node, path, variant) {
  const options = node.oneOf ?? node.anyOf;
  if (options !== undefined && options.every((option) => option.type === "object" && option.properties !== undefined)) {
    const shared = Object.keys(options[0].properties).filter((key) => options.every((option) => Object.hasOwn(option.properties, key)));
    const all = options.map((option) => variantOf(option, shared));
    for (const [index, option] of options.entries()) walk(option, path, { label: all[index], all });
    return;
  }
  if (node.type === "array" && node.items !== undefined && isObjectLike(node.items)) return walk(node.items, `${path}[]`, variant);
  if (node.type === "object" && node.properties !== undefined) {
    const required = new Set(node.required ?? []);
    for (const [key, child] of Object.entries(node.properties)) {
      const childPath = path === "" ? key : `${path}.${key}`;
      addRow(childPath, child, required.has(key), variant);
      if (isObjectLike(child)) walk(child, childPath, variant);
    }
    return;
  }
  if (node.type === "object" && typeof node.additionalProperties === "object" && isObjectLike(node.additionalProperties)) {
    walk(node.additionalProperties, `${path}.${mapKey(node)}`, variant);
  }
}

function isObjectLike(node) {
  const inner = node;
  if (inner.type === "object") return inner.properties !== undefined || typeof inner.additionalProperties === "object";
  if (inner.type === "array") return inner.items !== undefined && isObjectLike(inner.items);
  const options = inner.oneOf ?? inner.anyOf;
  return options !== undefined && options.every((option) => option.type === "object" && option.properties !== undefined);
}

/** A plugin kind ("kind remote"), or a form by its first key the other forms lack ("`unix` form"). */
function variantOf(option, shared) {
  const kind = option.properties?.kind?.const;
  if (kind !== undefined) return `kind ${kind}`;
  const own = Object.keys(option.properties).find((key) => !shared.includes(key));
  return `\`${own}\` form`;
}

function mapKey(node) {
  return node.propertyNames?.enum !== undefined ? "<point>" : "<name>";
}

function addRow(path, node, required, variant) {
  const meaning = descriptions.get(path);
  if (meaning !== undefined) node.description = meaning;
  const existing = rows.find((row) => row.path === path);
  if (existing !== undefined) {
    if (variant !== undefined && !existing.variants.includes(variant.label)) existing.variants.push(variant.label);
    // The discriminator: one constant per form, listed together.
    if (node.const !== undefined && !existing.type.includes(JSON.stringify(node.const))) existing.type += ` \\| ${JSON.stringify(node.const)}`;
    return;
  }
  rows.push({ path, type: typeOf(node), default: defaultOf(node, required), meaning, variants: variant === undefined ? [] : [variant.label], all: variant?.all ?? [] });
}

function typeOf(node) {
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum !== undefined) return node.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  const options = node.oneOf ?? node.anyOf;
  if (options !== undefined) return options.every((option) => option.type === "object") ? "object (one of the forms below)" : options.map(typeOf).join(" \\| ");
  switch (node.type) {
    case "integer":
    case "number": {
      const bounds = [];
      if (node.exclusiveMinimum !== undefined) bounds.push(`> ${node.exclusiveMinimum}`);
      if (node.minimum !== undefined && node.minimum > Number.MIN_SAFE_INTEGER) bounds.push(`≥ ${node.minimum}`);
      return `${node.type}${bounds.length > 0 ? ` ${bounds.join(", ")}` : ""}`;
    }
    case "string":
      if (node.pattern !== undefined) return `string matching \`${node.pattern.replaceAll("|", "\\|")}\``;
      return node.minLength > 1 ? `string of ${node.minLength}+ characters` : node.minLength === 1 ? "non-empty string" : "string";
    case "array":
      return node.items === undefined ? "list" : isObjectLike(node.items) ? "list of objects" : `list of ${typeOf(node.items)}`;
    case "object":
      if (node.properties !== undefined) return "object";
      if (typeof node.additionalProperties === "object") return `map of \`${mapKey(node)}\` to ${isObjectLike(node.additionalProperties) ? "object" : typeOf(node.additionalProperties)}`;
      return "object";
    default:
      return node.type ?? "any";
  }
}

function defaultOf(node, required) {
  if (node.default !== undefined) {
    const text = JSON.stringify(node.default);
    return text === "{}" && node.properties !== undefined ? "(its keys' defaults)" : `\`${text}\``;
  }
  return required ? "required" : "—";
}

function markdown(all) {
  const sections = new Map();
  for (const row of all) {
    const top = row.path.split(/[.[]/)[0];
    if (!sections.has(top)) sections.set(top, []);
    sections.get(top).push(row);
  }
  const lines = [
    "# Config reference",
    "",
    "<!-- Generated by scripts/gen-config-reference.mjs from daemon/src/config/schema.ts (`npm run generate`); do not edit. -->",
    "",
    "Every key of hookd's config file (YAML or JSON; `hookd check` validates one, and every error names",
    "the path of the bad key). Unknown keys are errors. `[]` is an entry of a list, `<point>` a point",
    "name, `<name>` any key. Editors can validate and complete a config with the JSON Schema",
    "[`daemon/config.schema.json`](../daemon/config.schema.json) (in YAML:",
    "`# yaml-language-server: $schema=<path to hookd>/config.schema.json` as the first line).",
    "",
  ];
  for (const [top, section] of sections) {
    lines.push(`## \`${top}\``, "", "| key | type | default | meaning |", "|---|---|---|---|");
    for (const row of section) {
      // Said only of a key that some of the forms have, not all.
      const only = row.variants.length > 0 && row.variants.length < row.all.length ? ` (${row.variants.join(", ")})` : "";
      lines.push(`| \`${row.path}\`${only} | ${row.type} | ${row.default} | ${cell(row.meaning)} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

function cell(text) {
  return text.replace(/\s*\n\s*/g, " ").replaceAll("|", "\\|");
}

// ---- the schema's source: the doc comment of every key, by path ------------------------------

/** Every schema file's top-level variables are visible by name (the files import each other's); `root` is the schema's variable. */
function commentsByPath(dir, root) {
  const variables = new Map();
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".ts"))) {
    const source = ts.createSourceFile(name, readFileSync(join(dir, name), "utf8"), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) variables.set(declaration.name.text, { node: declaration.initializer, source });
      }
    }
  }
  const found = new Map();
  const visitVariable = (name, prefix) => {
    const variable = variables.get(name);
    if (variable !== undefined) visit(variable.node, prefix, variable.source);
  };
  const visit = (expression, prefix, source) => {
    if (expression === undefined) return;
    if (ts.isIdentifier(expression)) return visitVariable(expression.text, prefix);
    if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression)) return visit(expression.expression, prefix, source);
    if (ts.isObjectLiteralExpression(expression)) return visitShape(expression, prefix, source);
    if (!ts.isCallExpression(expression) || !ts.isPropertyAccessExpression(expression.expression)) return;
    const callee = expression.expression;
    // A method on a schema (.optional(), .default(), .transform(), ...): the schema is its receiver.
    if (!(ts.isIdentifier(callee.expression) && callee.expression.text === "z")) return visit(callee.expression, prefix, source);
    const [first, second] = expression.arguments;
    switch (callee.name.text) {
      case "object":
      case "strictObject":
        return visit(first, prefix, source);
      case "array":
        return visit(first, `${prefix}[]`, source);
      case "union":
      case "discriminatedUnion": {
        const options = callee.name.text === "union" ? first : second;
        if (options !== undefined && ts.isArrayLiteralExpression(options)) for (const option of options.elements) visit(option, prefix, source);
        return;
      }
      case "record":
      case "partialRecord":
        return visit(second, `${prefix}.${callee.name.text === "partialRecord" ? "<point>" : "<name>"}`, source);
      default:
        return;
    }
  };
  const visitShape = (shape, prefix, source) => {
    for (const property of shape.properties) {
      if (ts.isSpreadAssignment(property)) {
        visit(property.expression, prefix, source);
        continue;
      }
      if (!ts.isPropertyAssignment(property)) continue;
      const key = property.name.getText(source);
      const path = prefix === "" ? key : `${prefix}.${key}`;
      const comment = docComment(property, source);
      if (comment !== undefined && !found.has(path)) found.set(path, comment);
      visit(property.initializer, path, source);
    }
  };
  visitVariable(root, "");
  return found;
}

function docComment(node, source) {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const doc = ranges.map((range) => source.text.slice(range.pos, range.end)).filter((text) => text.startsWith("/**")).at(-1);
  if (doc === undefined) return undefined;
  return doc
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, "").trim())
    .join("\n")
    .trim();
}
