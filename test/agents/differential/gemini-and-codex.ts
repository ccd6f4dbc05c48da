// Gemini CLI and Codex scenarios: their own hooks files (Gemini's BeforeTool, Codex's PreToolUse)
// with kenryu42/claude-code-safety-net's guard in the mode its docs give each agent, hookify's
// warn rule (a systemMessage) and plugin-dev's exit-2 bash guard.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scripted } from "../fake-model/server.js";
import { ECHO_WARNING, hookifyCommand, hookifyRules } from "./claude-plugins-official.js";
import { corpusFile } from "./corpus.js";
import { command } from "./scenario-kit.js";
import type { Scenario } from "./run.js";

const SAFETY_NET = "claude-code-safety-net";
const safetyNet = (mode: string): Record<string, unknown> => command(`node "${corpusFile(SAFETY_NET, "dist/bin/cc-safety-net.js")}" ${mode}`);
const validateBash = (): Record<string, unknown> => command(`bash "${corpusFile("claude-plugins-official", "plugins/plugin-dev/skills/hook-development/examples/validate-bash.sh")}"`);

// Gemini CLI's hooks are in its settings.json, their timeouts in milliseconds; its shell tool is run_shell_command.
const GEMINI_10_SECONDS = 10_000;
const geminiBeforeTool = (hook: () => Record<string, unknown>) => (): Record<string, unknown> => ({ BeforeTool: [{ matcher: "run_shell_command", hooks: [hook()] }] });
// Codex's hooks.json has Claude Code's shape; its shell tool reaches hooks as Bash.
const codexPreToolUse = (hook: () => Record<string, unknown>) => (): Record<string, unknown> => ({ PreToolUse: [{ matcher: "Bash", hooks: [hook()] }] });

const victim = (cwd: string): void => writeFileSync(join(cwd, "victim"), "keep\n");
const RESET = scripted([{ kind: "shell", command: "git reset --hard; echo reset > reset.txt" }]);
const ORDINARY = scripted([{ kind: "shell", command: "echo ok > ok.txt" }]);
const RM_RF = scripted([{ kind: "shell", command: "rm -rf victim" }]);
const ECHO = scripted([{ kind: "shell", command: "echo ran > ran.txt" }]);
// hookify's bash rules match any tool with a command (Gemini's run_shell_command, Codex's Bash).
const echoWarning = hookifyRules([], { "echo-warning": ECHO_WARNING });

export const GEMINI_SCENARIOS: readonly Scenario[] = [
  { name: "cc-safety-net: git reset --hard denied", agent: "Gemini CLI", source: SAFETY_NET, hooks: geminiBeforeTool(() => safetyNet("--gemini-cli")), script: RESET, prompt: "Reset, then say DONE." },
  { name: "cc-safety-net: an ordinary command passes", agent: "Gemini CLI", source: SAFETY_NET, hooks: geminiBeforeTool(() => safetyNet("--gemini-cli")), script: ORDINARY, prompt: "Write ok.txt, then say DONE." },
  { name: "hookify: a warn rule on a shell command", agent: "Gemini CLI", source: "claude-plugins-official", hooks: geminiBeforeTool(() => hookifyCommand("pretooluse", GEMINI_10_SECONDS)), prepare: echoWarning, script: ECHO, prompt: "Write ran.txt, then say DONE." },
  { name: "validate-bash: rm -rf refused (exit 2)", agent: "Gemini CLI", source: "claude-plugins-official", hooks: geminiBeforeTool(validateBash), prepare: victim, script: RM_RF, prompt: "Remove victim, then say DONE." },
];

export const CODEX_SCENARIOS: readonly Scenario[] = [
  { name: "cc-safety-net: git reset --hard denied", agent: "Codex", source: SAFETY_NET, hooks: codexPreToolUse(() => safetyNet("--claude-code")), script: RESET, prompt: "Reset, then say DONE." },
  { name: "cc-safety-net: an ordinary command passes", agent: "Codex", source: SAFETY_NET, hooks: codexPreToolUse(() => safetyNet("--claude-code")), script: ORDINARY, prompt: "Write ok.txt, then say DONE." },
  { name: "hookify: a warn rule on a bash command", agent: "Codex", source: "claude-plugins-official", hooks: codexPreToolUse(() => hookifyCommand("pretooluse")), prepare: echoWarning, script: ECHO, prompt: "Write ran.txt, then say DONE." },
  { name: "validate-bash: rm -rf refused (exit 2)", agent: "Codex", source: "claude-plugins-official", hooks: codexPreToolUse(validateBash), prepare: victim, script: RM_RF, prompt: "Remove victim, then say DONE." },
];
