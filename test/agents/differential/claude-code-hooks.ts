// Claude Code scenarios with karanb192/claude-code-hooks' Node guards: a dangerous-command blocker,
// a secrets guard, an instruction-file audit that locks the session (blocking its prompts), and a
// PR provenance stamp that rewrites `gh pr create` and allows it.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scripted } from "../fake-model/server.js";
import { corpusFile } from "./corpus.js";
import { command, cwdOf, steps } from "./scenario-kit.js";
import type { Scenario } from "./run.js";

const SOURCE = "claude-code-hooks";
const script = (plugin: string): string => corpusFile(SOURCE, `plugins/${plugin}/${plugin}.js`);
// The plugins' hooks.json run `node "${CLAUDE_PLUGIN_ROOT}/<plugin>.js"`; a settings file names the path.
const node = (plugin: string, prefix = ""): Record<string, unknown> => command(`${prefix}node "${script(plugin)}"`);

const blockDangerous = (prefix = "") => (): Record<string, unknown> => ({ PreToolUse: [{ matcher: "Bash", hooks: [node("block-dangerous-commands", prefix)] }] });
const protectSecrets = (): Record<string, unknown> => ({ PreToolUse: [{ matcher: "Read|Edit|Write|Bash", hooks: [node("protect-secrets")] }] });
const instructionsAudit = (): Record<string, unknown> => {
  const hook = [{ hooks: [node("instructions-audit")] }];
  return { InstructionsLoaded: hook, UserPromptSubmit: hook, PreToolUse: hook };
};
const provenance = (): Record<string, unknown> => ({
  PostToolUse: [{ matcher: "Edit|MultiEdit|Write|Bash", hooks: [{ ...node("pr-provenance-stamp"), async: true }] }],
  PreToolUse: [{ matcher: "Bash", hooks: [node("pr-provenance-stamp")] }],
});

const file = (name: string, content: string) => (cwd: string): void => writeFileSync(join(cwd, name), content);

/** A `gh` on PATH that records the arguments it was given: what the rewritten command really ran. */
function fakeGh(cwd: string): void {
  mkdirSync(join(cwd, "bin"));
  writeFileSync(join(cwd, "bin/gh"), '#!/bin/sh\nprintf "%s\\n" "$@" > "$(dirname "$0")/../gh-args.txt"\n');
  chmodSync(join(cwd, "bin/gh"), 0o755);
}
const ghOnPath = (cwd: string): NodeJS.ProcessEnv => ({ PATH: `${join(cwd, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}` });
// The lock the script's InstructionsLoaded arm writes when it flags a CLAUDE.md (writeFlag), as an
// earlier load in this session left it: the UserPromptSubmit arm then blocks every prompt.
const LOCKED_SESSION = "5f0c2a8e-3d1b-4c6f-9e7a-1b2c3d4e5f60";
function lockedByAnEarlierLoad(cwd: string, home: string): void {
  const state = join(home, ".claude/hooks-state/instructions-audit");
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, `${LOCKED_SESSION}.json`), JSON.stringify({ ts: "2026-01-01T00:00:00.000Z", file: join(cwd, "CLAUDE.md"), count: 1, first: "curl-pipe-shell line 3" }));
}

const PR_CREATE = 'gh pr create --title "Fix the parser" --body "Fixes the parser."';

export const CLAUDE_CODE_HOOKS_SCENARIOS: readonly Scenario[] = [
  { name: "block-dangerous-commands: chmod 777 denied with its reason", agent: "Claude Code", source: SOURCE, hooks: blockDangerous(), prepare: file("shared.txt", "x\n"), script: scripted([{ kind: "shell", command: "chmod 777 shared.txt && echo changed > changed.txt" }]), prompt: "Open up shared.txt, then say DONE." },
  { name: "block-dangerous-commands: ask mode (HOOK_ASK_HIGH=true)", agent: "Claude Code", source: SOURCE, hooks: blockDangerous("HOOK_ASK_HIGH=true "), script: scripted([{ kind: "shell", command: "git reset --hard; echo reset > reset.txt" }]), prompt: "Reset, then say DONE." },
  { name: "block-dangerous-commands: an ordinary command passes", agent: "Claude Code", source: SOURCE, hooks: blockDangerous(), script: scripted([{ kind: "shell", command: "echo ok > ok.txt" }]), prompt: "Write ok.txt, then say DONE." },
  { name: "protect-secrets: reading .env with Read denied", agent: "Claude Code", source: SOURCE, hooks: protectSecrets, prepare: file(".env", "TOKEN=secret\n"), script: steps((c) => ({ kind: "tool", name: "Read", input: { file_path: join(cwdOf(c), ".env") } })), prompt: "Show me .env, then say DONE.", allowedTools: ["Bash", "Read"] },
  { name: "protect-secrets: cat .env in Bash denied", agent: "Claude Code", source: SOURCE, hooks: protectSecrets, prepare: file(".env", "TOKEN=secret\n"), script: scripted([{ kind: "shell", command: "cat .env > copy.txt" }]), prompt: "Copy .env, then say DONE." },
  { name: "protect-secrets: an ordinary file passes", agent: "Claude Code", source: SOURCE, hooks: protectSecrets, prepare: file("notes.txt", "notes\n"), script: scripted([{ kind: "shell", command: "cat notes.txt > copy.txt" }]), prompt: "Copy notes.txt, then say DONE." },
  {
    name: "instructions-audit: a locked session's prompt is blocked",
    agent: "Claude Code",
    source: SOURCE,
    hooks: instructionsAudit,
    sessionId: LOCKED_SESSION,
    prepare: lockedByAnEarlierLoad,
    script: scripted([{ kind: "shell", command: "echo ran > ran.txt" }]),
    prompt: "Write ran.txt, then say DONE.",
  },
  { name: "instructions-audit: a clean CLAUDE.md changes nothing", agent: "Claude Code", source: SOURCE, hooks: instructionsAudit, prepare: file("CLAUDE.md", "# Project\n\nUse two spaces.\n"), script: scripted([{ kind: "shell", command: "echo ran > ran.txt" }]), prompt: "Write ran.txt, then say DONE." },
  { name: "pr-provenance-stamp: rewrites gh pr create (Bash allowed)", agent: "Claude Code", source: SOURCE, hooks: provenance, prepare: fakeGh, env: ghOnPath, script: scripted([{ kind: "shell", command: PR_CREATE }]), prompt: "Open the PR, then say DONE." },
  { name: "pr-provenance-stamp: its allow runs gh pr create (Bash not pre-allowed)", agent: "Claude Code", source: SOURCE, hooks: provenance, prepare: fakeGh, env: ghOnPath, script: scripted([{ kind: "shell", command: PR_CREATE }]), prompt: "Open the PR, then say DONE.", allowedTools: [] },
];
