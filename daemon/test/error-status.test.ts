// The one error table (ERROR_STATUS): docs/errors.md states each code's gRPC and HTTP status as
// the table has them; the HTTP hook endpoint answers a failed evaluation by that table, for a
// HookdError's code and for a gRPC StatusError alike; and HookdError and StatusError are the
// only error classes the sources declare.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, HookdError } from "@hookd/sdk";
import { ERROR_STATUS, StatusError, statusName } from "@hookd/sdk/internal";
import type { HookEvaluator } from "../src/http/lifecycle.js";
import type { HookHttpServer } from "../src/http/index.js";
import { startHookHttpServer } from "../src/http/index.js";
import { createLogger } from "../src/log.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The cells after the code of each row under "## Error codes", by code. */
function documentedStatuses(): Map<string, readonly string[]> {
  const doc = readFileSync(join(ROOT, "docs/errors.md"), "utf8");
  const section = doc.slice(doc.indexOf("\n## Error codes\n"), doc.indexOf("\n## Plugin fault causes\n"));
  const rows = new Map<string, readonly string[]>();
  for (const line of section.split("\n")) {
    const row = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (row !== null) rows.set(row[1] ?? "", (row[2] ?? "").split("|").map((cell) => cell.trim()));
  }
  return rows;
}

describe("ERROR_STATUS in docs/errors.md", () => {
  it("gives every code the gRPC and the HTTP status the table has", () => {
    const rows = documentedStatuses();
    const documented = Object.keys(ERROR_CODES).map((code) => [code, ...(rows.get(code) ?? []).slice(0, 2)]);
    const table = Object.entries(ERROR_STATUS).map(([code, { grpc, http }]) => [code, statusName(grpc), String(http)]);
    expect(documented).toEqual(table);
  });
});

describe("the HTTP hook endpoint answers a failed evaluation by the error table", () => {
  let failure = new Error("no failure set");
  let server: HookHttpServer;
  // Every evaluation fails with `failure`: what is under test is the endpoint's answer to it.
  const failing = new Proxy({}, { get: () => () => Promise.reject(failure) }) as HookEvaluator;

  beforeAll(async () => {
    server = await startHookHttpServer({ listen: "127.0.0.1:0", evaluate: failing, log: createLogger({ write: () => {} }) });
  });
  afterAll(() => server.close());

  async function answerTo(error: Error): Promise<{ status: number; json: unknown }> {
    failure = error;
    const body = { session_id: "s-1", transcript_path: "/t.jsonl", cwd: "/", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
    const response = await fetch(`${server.address}/hooks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  }

  it.each([
    ["invalid_argument", 400],
    ["cancelled", 499],
    ["unavailable", 503],
    ["resource_exhausted", 429],
    ["deadline_exceeded", 500],
    ["internal", 500],
  ] as const)("a HookdError of code %s is answered %i with its message", async (code, httpStatus) => {
    expect(await answerTo(new HookdError(code, `failed with ${code}`))).toEqual({ status: httpStatus, json: { error: `failed with ${code}` } });
  });

  it.each([
    [status.UNAUTHENTICATED, 401],
    [status.PERMISSION_DENIED, 403],
    [status.RESOURCE_EXHAUSTED, 429],
    [status.INVALID_ARGUMENT, 400],
    [status.CANCELLED, 499],
    [status.FAILED_PRECONDITION, 500],
  ])("a StatusError of gRPC status %i is answered %i", async (grpcStatus, httpStatus) => {
    expect((await answerTo(new StatusError(grpcStatus, "refused"))).status).toBe(httpStatus);
  });

  it("anything else thrown is answered 500", async () => {
    expect(await answerTo(new Error("a bug"))).toEqual({ status: 500, json: { error: "a bug" } });
  });
});

describe("error classes in the sources", () => {
  /** The hand-written .ts files under `dir`. */
  function sourceFiles(dir: string): string[] {
    if (relative(ROOT, dir) === join("sdk", "src", "gen")) return [];
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.isFile() && entry.name.endsWith(".ts") ? [path] : [];
    });
  }

  it("are HookdError and StatusError only: every other failure is a code", () => {
    const declared = ["sdk/src", "daemon/src"]
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/\bclass (\w+)(?:<[^>]*>)? extends (\w*Error\w*)\b/g)].map((match) => `${match[1] ?? ""} extends ${match[2] ?? ""}`));
    expect(declared.sort()).toEqual(["HookdError extends Error", "StatusError extends Error"]);
  });

  it("make a code with typed details in its helper only, so the code says the details are there", () => {
    const HELPERS: Readonly<Record<string, string>> = {
      plugin_fault: "daemon/src/engine/faults.ts",
      listener_error: "daemon/src/engine/faults.ts",
      rpc_failure: "daemon/src/plugins/remote/answers.ts",
      invalid_config: "daemon/src/config/load.ts",
      usage: "daemon/src/commands/usage.ts",
      unknown_tool: "daemon/src/engine/pipeline/spec.ts",
    };
    const made = ["sdk/src", "daemon/src"]
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/new HookdError(?:<[^>]*>)?\(\s*"(\w+)"/g)].map((match) => ({ code: match[1] ?? "", file: relative(ROOT, file) })))
      .filter(({ code }) => Object.hasOwn(HELPERS, code));
    expect(made.map(({ code }) => code).sort()).toEqual(Object.keys(HELPERS).sort());
    expect(made.filter(({ code, file }) => HELPERS[code] !== file)).toEqual([]);
  });
});
