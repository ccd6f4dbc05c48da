// The user-facing docs speak to users: no line cites what only the project's own history explains
// (an internal issue number, a planning item, a work round, "since commit ..."), which a reader
// cannot follow. History belongs to CHANGELOG.md, by release, so it is not scanned. Reads files only.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Top-level docs read as they are; under these folders, every README at any depth. */
const TOP_LEVEL_DOCS = ["README.md", "CONTRIBUTING.md", "bench/README.md"];
const README_FOLDERS = ["sdk", "sdk-python", "sdk-go", "hooks-examples", "deploy", "daemon/templates"];
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "bin", "gen", ".venv"]);

function readmesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) found.push(...readmesUnder(path));
    else if (entry.isFile() && /^README(\.md)?$/.test(entry.name)) found.push(path);
  }
  return found;
}

function userFacingDocs(): string[] {
  const docs = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`);
  return [...docs, ...TOP_LEVEL_DOCS, ...README_FOLDERS.flatMap(readmesUnder)].sort();
}

// A public issue of another project is fine when the project is named: `owner/repo#N`, or
// "<project> issue #N" for the upstreams hookd works with.
const PUBLIC_ISSUE =
  /\b[\w.-]+\/[\w.-]+#\d+|\b(?:claude[ -]code|codex|gemini[ -]cli|grpc-js|grpc|node(?:\.js)?|nginx|envoy|haproxy|protobuf-es|buf|vitest|opentelemetry)(?:'s)? issues? #\d+/gi;

/** What a reader outside the project cannot follow, each with the reason a finding gives. */
const INTERNAL_REFERENCES: Array<{ reason: string; pattern: RegExp }> = [
  { reason: "an internal issue number", pattern: /#\d+|\bissues? #?\d+\b|\bissue-\d+\b/i },
  { reason: "a work-round label", pattern: /\b(?:sessions?|stops?)\s+\d+\b/i },
  // P50, P90, P95, P99 and P999 are percentiles, not planning items.
  { reason: "an internal planning item", pattern: /\bP(?!(?:50|90|95|99|999)\b)\d+\b/ },
  { reason: "history by commit or work round", pattern: /\bsince\s+(?:commit\s+`?[0-9a-f]{7,40}\b|`[0-9a-f]{7,40}`|session\b|stop\b)/i },
  { reason: "an internal design document", pattern: /\bthe seed\b|\bseed's\b|\/work\/shared\b|\bDESIGN\.md\b/i },
];

/** Every line of the text that cites an internal reference, as "line: reason: text". */
function internalReferences(text: string): string[] {
  const findings: string[] = [];
  text.split("\n").forEach((line, index) => {
    const withoutPublic = line.replace(PUBLIC_ISSUE, "");
    for (const { reason, pattern } of INTERNAL_REFERENCES) {
      if (pattern.test(withoutPublic)) findings.push(`${index + 1}: ${reason}: ${line.trim()}`);
    }
  });
  return findings;
}

describe("the rules for user-facing docs", () => {
  it("flag internal issue numbers, planning items, work rounds, history by commit and internal documents", () => {
    const lines = [
      "The HTTP endpoint (P2, P3, P4 of issue #15) routes every event.",
      "Answers honoured (issue #15 item 2).",
      "after #15's HTTP mapping landed",
      "[why](agent-events.md#why-agent-event-cannot-block-the-decision-asked-for-in-issue-15)",
      "## Session 26: the HTTP endpoint",
      "on another machine than sessions 25–27; since session 27 the daemon listens",
      "measured at stop 28",
      "What the merged work (since `7fcc94d`) costs",
      "Events with the seed's semantics drive a typed point.",
      "Not in `/work/shared/AGENTS.md`'s list",
    ];
    expect(lines.map((line) => internalReferences(line).length > 0)).toEqual(lines.map(() => true));
  });

  it("spare named upstream issues, measured commits and ordinary words", () => {
    const text = [
      "Claude Code drops the answer (claude-code issue #26521; github/copilot-cli#2893).",
      "Full run (`npm run bench -- --json`, 606 s, commit `601ff4d`, load 0.4 at the start).",
      "| scenario | round 1: ops/s, p50, p99 |",
      "VmRSS growth per open idle hosted session (1,000 quick, 5,000 full)",
      "the session's first request; a Stop hook; p99 under 100 ms",
    ].join("\n");
    expect(internalReferences(text)).toEqual([]);
  });
});

describe("user-facing docs", () => {
  const docs = userFacingDocs();

  it("include every doc page and README users read", () => {
    for (const expected of ["README.md", "CONTRIBUTING.md", "bench/README.md", "docs/agent-events.md", "sdk/README.md", "sdk-python/README.md", "sdk-go/README.md", "hooks-examples/claude-code/README.md"]) {
      expect(docs).toContain(expected);
    }
    expect(docs.every((doc) => !doc.startsWith("CHANGELOG"))).toBe(true);
  });

  it("cite no internal issue, planning item, work round or internal document", () => {
    const findings = docs.flatMap((doc) =>
      internalReferences(readFileSync(join(ROOT, doc), "utf8")).map((finding) => `${doc}:${finding}`),
    );
    expect(findings).toEqual([]);
  });
});
