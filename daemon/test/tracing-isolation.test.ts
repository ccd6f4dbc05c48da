// Zero cost when tracing is off: the OpenTelemetry packages are imported only by ops/tracing/,
// and ops/tracing/ only by a dynamic import (runtime/telemetry.ts, when `tracing.otlp` is set)
// or for types, which compile away. Checked on the sources as text, so a static import that
// would load the SDK into every daemon fails here.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Static value imports and re-exports (not `import type`, not `import(...)`) of each file, with their specifiers. */
function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)";?/gms)) {
    if (match[2] === undefined) found.push(match[3] ?? "");
  }
  for (const match of text.matchAll(/^import\s+"([^"]+)";/gm)) found.push(match[1] ?? "");
  return found;
}

describe("tracing isolation", () => {
  const files = sources(SRC).map((path) => ({ file: relative(SRC, path), imports: valueImports(readFileSync(path, "utf8")) }));

  it("imports @opentelemetry/* only under ops/tracing/", () => {
    const outside = files.filter(({ file, imports }) => !file.startsWith("ops/tracing/") && imports.some((s) => s.startsWith("@opentelemetry/")));
    expect(outside).toEqual([]);
    // The checker sees the imports it guards.
    expect(files.find(({ file }) => file === "ops/tracing/otlp.ts")?.imports).toContain("@opentelemetry/sdk-trace-base");
  });

  it("reaches ops/tracing/ only through a dynamic import", () => {
    const statically = files.filter(({ file, imports }) => !file.startsWith("ops/tracing/") && imports.some((s) => s.includes("/tracing/otlp")));
    expect(statically).toEqual([]);
    expect(readFileSync(join(SRC, "runtime/telemetry.ts"), "utf8")).toContain('await import("../ops/tracing/otlp.js")');
  });
});
