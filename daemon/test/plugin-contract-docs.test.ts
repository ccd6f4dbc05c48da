// The plugin docs against proto/hookd/v1/plugin.proto: every RPC of HookPlugin and every message
// and enum the file declares is named, in backticks, in docs/conformance.md or docs/streams.md, so
// an author writing a plugin from the proto and the docs alone finds each one explained. Reads the
// compiled file descriptor (the generated code) and the two docs; nothing is built or started.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DescEnum, DescMessage } from "@bufbuild/protobuf";
import { pb } from "@hookd/sdk/internal";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCS = ["docs/conformance.md", "docs/streams.md"] as const;

/**
 * The names the docs put in backticks. A qualified name counts for each of its parts, so
 * `HookPlugin.Attach` names both HookPlugin and Attach, and `DescribeRequest.plugin_name` names
 * DescribeRequest.
 */
function backticked(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const [, span = ""] of markdown.matchAll(/`([^`\n]+)`/g)) {
    names.add(span);
    for (const part of span.split(/[./]/)) names.add(part);
  }
  return names;
}

/** Every message and enum the file declares, nested ones included. */
function declaredTypes(messages: readonly DescMessage[], enums: readonly DescEnum[]): string[] {
  const nested = messages.flatMap((message) => declaredTypes(message.nestedMessages, message.nestedEnums));
  return [...messages.map((message) => message.name), ...enums.map((e) => e.name), ...nested];
}

const documented = new Set(DOCS.flatMap((doc) => [...backticked(readFileSync(join(ROOT, doc), "utf8"))]));
const file = pb.file_hookd_v1_plugin;

describe("the plugin contract's docs", () => {
  it("name every RPC of HookPlugin", () => {
    const service = file.services.find((s) => s.name === "HookPlugin");
    const rpcs = service?.methods.map((method) => method.name) ?? [];
    expect(rpcs.length, "plugin.proto declares HookPlugin with its RPCs").toBeGreaterThan(0);
    const missing = rpcs.filter((name) => !documented.has(name));
    expect(missing, `RPCs of HookPlugin named in neither ${DOCS.join(" nor ")}`).toEqual([]);
  });

  it("name every message and enum plugin.proto declares", () => {
    const types = declaredTypes(file.messages, file.enums);
    expect(types.length, "plugin.proto declares messages").toBeGreaterThan(0);
    const missing = types.filter((name) => !documented.has(name));
    expect(missing, `types of plugin.proto named in neither ${DOCS.join(" nor ")}`).toEqual([]);
  });
});
