// Claude Code scenarios with anthropics/claude-plugins-official's hooks (ralph-loop, hookify, the
// output styles, plugin-dev's examples), each in a hooks file as its authors document it, with the
// project files it reads (a loop's state file, rule files) and the fake model's side scripted.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { scripted } from "../fake-model/server.js";
import type { Conversation } from "../fake-model/server.js";
import { corpusFile } from "./corpus.js";
import { command, cwdOf, shell, steps, text, write } from "./scenario-kit.js";
import type { Scenario } from "./run.js";

const SOURCE = "claude-plugins-official";
const file = (path: string): string => corpusFile(SOURCE, path);
// ---- ralph-loop: the "keep going until done" Stop hook (plugins/ralph-loop/hooks/stop-hook.sh).

const RALPH_PROMPT = "Keep polishing the file.";
const ralphHooks = (): Record<string, unknown> => ({ Stop: [{ hooks: [command(`bash "${file("plugins/ralph-loop/hooks/stop-hook.sh")}"`)] }] });

/** The state file /ralph-loop writes (plugins/ralph-loop/scripts/setup-ralph-loop.sh's format). */
function ralphState(fields: { iteration: string; maxIterations: string; promise?: string; sessionId?: string }) {
  return (cwd: string): void => {
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    const lines = ["---", "active: true", `iteration: ${fields.iteration}`, ...(fields.sessionId === undefined ? [] : [`session_id: ${fields.sessionId}`]), `max_iterations: ${fields.maxIterations}`, `completion_promise: ${fields.promise === undefined ? "null" : `"${fields.promise}"`}`, "started_at: \"2026-01-01T00:00:00Z\"", "---", "", RALPH_PROMPT, ""];
    writeFileSync(join(cwd, ".claude/ralph-loop.local.md"), lines.join("\n"));
  };
}

const steersSoFar = (conversation: Conversation): number => conversation.userTexts.filter((t) => t.includes(RALPH_PROMPT)).length;

const ralph: Scenario[] = [
  { name: "ralph-loop: three iterations, no completion promise", agent: "Claude Code", source: SOURCE, hooks: ralphHooks, prepare: ralphState({ iteration: "1", maxIterations: "3" }), script: scripted([{ kind: "shell", command: "echo draft > notes.txt" }]), prompt: "Write notes.txt, then say DONE." },
  { name: "ralph-loop: twelve iterations (--max-iterations 12)", agent: "Claude Code", source: SOURCE, hooks: ralphHooks, prepare: ralphState({ iteration: "1", maxIterations: "12" }), script: scripted([]), prompt: "Polish the plan, then say DONE." },
  {
    name: "ralph-loop: twelve iterations, each running a tool",
    agent: "Claude Code",
    source: SOURCE,
    hooks: ralphHooks,
    prepare: ralphState({ iteration: "1", maxIterations: "12" }),
    // One shell call per iteration, then the answer: every continuation is progress.
    script: (c) => (c.tools.length === 0 ? text("ok") : c.toolResults.length <= steersSoFar(c) ? shell("echo polished >> progress.txt") : text("DONE")),
    prompt: "Polish progress.txt, then say DONE.",
  },
  {
    name: "ralph-loop: ends on its completion promise",
    agent: "Claude Code",
    source: SOURCE,
    hooks: ralphHooks,
    prepare: ralphState({ iteration: "1", maxIterations: "20", promise: "ALL DONE" }),
    script: (c) => (c.tools.length === 0 ? text("ok") : steersSoFar(c) >= 2 ? text("<promise>ALL DONE</promise>") : text("not yet")),
    prompt: "Finish the work; say <promise>ALL DONE</promise> when it is.",
  },
  { name: "ralph-loop: another session's loop is left alone", agent: "Claude Code", source: SOURCE, hooks: ralphHooks, prepare: ralphState({ iteration: "1", maxIterations: "5", sessionId: "some-other-session" }), script: scripted([]), prompt: "Say DONE." },
  { name: "ralph-loop: a corrupted state file ends the loop", agent: "Claude Code", source: SOURCE, hooks: ralphHooks, prepare: ralphState({ iteration: "one", maxIterations: "5" }), script: scripted([]), prompt: "Say DONE." },
  { name: "ralph-loop: no loop active", agent: "Claude Code", source: SOURCE, hooks: ralphHooks, script: scripted([{ kind: "shell", command: "echo ran > ran.txt" }]), prompt: "Write ran.txt, then say DONE." },
];

// ---- hookify: a rule-file guard (plugins/hookify), rules in .claude/hookify.*.local.md.

const HOOKIFY = "plugins/hookify";
/** One of hookify's hook scripts as the plugin's hooks.json runs it (timeout 10 s), CLAUDE_PLUGIN_ROOT (which Claude Code sets for a plugin) given inline. */
export function hookifyCommand(script: "pretooluse" | "posttooluse" | "stop" | "userpromptsubmit", timeout = 10): Record<string, unknown> {
  const root = dirname(dirname(file(`${HOOKIFY}/hooks/pretooluse.py`)));
  // The modules the scripts import must be pinned too (corpusFile refuses a path the source lacks).
  for (const module of ["hooks/__init__.py", "core/__init__.py", "core/config_loader.py", "core/rule_engine.py", "utils/__init__.py", "matchers/__init__.py"]) file(`${HOOKIFY}/${module}`);
  return command(`CLAUDE_PLUGIN_ROOT="${root}" python3 "${root}/hooks/${script}.py"`, timeout);
}
const hookifyHooks = (): Record<string, unknown> => {
  const hook = (script: Parameters<typeof hookifyCommand>[0]) => [{ hooks: [hookifyCommand(script)] }];
  return { PreToolUse: hook("pretooluse"), PostToolUse: hook("posttooluse"), Stop: hook("stop"), UserPromptSubmit: hook("userpromptsubmit") };
};

/** Copies the plugin's example rule files (unchanged) and writes the scenario's own into .claude/. */
export function hookifyRules(examples: readonly string[], own: Record<string, string> = {}) {
  return (cwd: string): void => {
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    for (const example of examples) writeFileSync(join(cwd, ".claude", `hookify.${example}`), readFileSync(file(`${HOOKIFY}/examples/${example}`)));
    for (const [name, rule] of Object.entries(own)) writeFileSync(join(cwd, ".claude", `hookify.${name}.local.md`), rule);
  };
}

export const ECHO_WARNING = "---\nname: warn-echo-redirect\nenabled: true\nevent: bash\npattern: echo .*>\naction: warn\n---\n\nWriting files with echo: prefer the Write tool.\n";
const REQUIRE_CHECKS = "---\nname: require-checks\nenabled: true\nevent: stop\naction: block\nconditions:\n  - field: transcript\n    operator: not_contains\n    pattern: checks-passed\n---\n\n**Checks not run!** Run the checks before stopping.\n";
const PROMPT_RULE = "---\nname: no-deploy-prompts\nenabled: true\nevent: prompt\naction: block\nconditions:\n  - field: user_prompt\n    operator: contains\n    pattern: deploy\n---\n\nDeploys go through the release process.\n";

const hookify: Scenario[] = [
  { name: "hookify: a block rule denies rm -rf", agent: "Claude Code", source: SOURCE, hooks: hookifyHooks, prepare: (cwd) => (hookifyRules(["dangerous-rm.local.md"])(cwd), writeFileSync(join(cwd, "victim"), "keep\n")), script: scripted([{ kind: "shell", command: "rm -rf victim" }]), prompt: "Remove victim, then say DONE." },
  { name: "hookify: a warn rule on a bash command", agent: "Claude Code", source: SOURCE, hooks: hookifyHooks, prepare: hookifyRules([], { "echo-warning": ECHO_WARNING }), script: scripted([{ kind: "shell", command: "echo ran > ran.txt" }]), prompt: "Write ran.txt, then say DONE." },
  {
    // The example rule reads new_text, which an Edit has (a Write has content): read, then edit.
    name: "hookify: the console.log warning on an Edit",
    agent: "Claude Code",
    source: SOURCE,
    hooks: hookifyHooks,
    prepare: (cwd) => (hookifyRules(["console-log-warning.local.md"])(cwd), writeFileSync(join(cwd, "app.js"), "run();\n")),
    script: steps(
      (c) => ({ kind: "tool", name: "Read", input: { file_path: join(cwdOf(c), "app.js") } }),
      (c) => ({ kind: "tool", name: "Edit", input: { file_path: join(cwdOf(c), "app.js"), old_string: "run();", new_string: "console.log('start');\nrun();" } }),
    ),
    prompt: "Log the start in app.js, then say DONE.",
    allowedTools: ["Bash", "Read", "Edit"],
  },
  { name: "hookify: the sensitive-file warning on writing .env", agent: "Claude Code", source: SOURCE, hooks: hookifyHooks, prepare: hookifyRules(["sensitive-files-warning.local.md"]), script: steps(write(".env", "TOKEN=x\n")), prompt: "Write .env, then say DONE.", allowedTools: ["Bash", "Write"] },
  {
    name: "hookify: a stop rule asks for the checks, then lets the turn end",
    agent: "Claude Code",
    source: SOURCE,
    hooks: hookifyHooks,
    prepare: hookifyRules([], { "require-checks": REQUIRE_CHECKS }),
    script: (c) => (c.tools.length === 0 ? text("ok") : c.userTexts.some((t) => t.includes("Checks not run")) && c.toolResults.length === 0 ? shell("echo checks-passed > checks.txt") : text("DONE")),
    prompt: "Say DONE.",
  },
  { name: "hookify: no rules, nothing changes", agent: "Claude Code", source: SOURCE, hooks: hookifyHooks, script: scripted([{ kind: "shell", command: "rm -rf scratch; echo ran > ran.txt" }]), prompt: "Clean up, then say DONE." },
  { name: "hookify: a prompt rule (it reads user_prompt, which Claude Code does not send)", agent: "Claude Code", source: SOURCE, hooks: hookifyHooks, prepare: hookifyRules([], { "no-deploy": PROMPT_RULE }), script: scripted([]), prompt: "Please deploy the site, then say DONE." },
];

// ---- output styles: SessionStart context (plugins/*-output-style/hooks-handlers/session-start.sh).

const sessionStart = (plugin: string) => (): Record<string, unknown> => ({ SessionStart: [{ hooks: [command(`bash "${file(`plugins/${plugin}/hooks-handlers/session-start.sh`)}"`)] }] });

const styles: Scenario[] = [
  { name: "explanatory-output-style: session-start context", agent: "Claude Code", source: SOURCE, hooks: sessionStart("explanatory-output-style"), script: scripted([]), prompt: "Explain this project, then say DONE." },
  { name: "learning-output-style: session-start context", agent: "Claude Code", source: SOURCE, hooks: sessionStart("learning-output-style"), script: scripted([]), prompt: "Teach me this project, then say DONE." },
];

// ---- plugin-dev's hook examples: a bash guard, a write guard, a project-context loader.

const EXAMPLES = "plugins/plugin-dev/skills/hook-development/examples";
const validateBash = (): Record<string, unknown> => ({ PreToolUse: [{ matcher: "Bash", hooks: [command(`bash "${file(`${EXAMPLES}/validate-bash.sh`)}"`)] }] });
const validateWrite = (): Record<string, unknown> => ({ PreToolUse: [{ matcher: "Write|Edit", hooks: [command(`bash "${file(`${EXAMPLES}/validate-write.sh`)}"`)] }] });
const victim = (cwd: string): void => writeFileSync(join(cwd, "victim"), "keep\n");

const examples: Scenario[] = [
  { name: "validate-bash: rm -rf refused (exit 2)", agent: "Claude Code", source: SOURCE, hooks: validateBash, prepare: victim, script: scripted([{ kind: "shell", command: "rm -rf victim" }]), prompt: "Remove victim, then say DONE." },
  { name: "validate-bash: sudo refused (exit 2)", agent: "Claude Code", source: SOURCE, hooks: validateBash, script: scripted([{ kind: "shell", command: "sudo touch made.txt" }]), prompt: "Make the file, then say DONE." },
  { name: "validate-bash: a safe ls passes", agent: "Claude Code", source: SOURCE, hooks: validateBash, prepare: victim, script: scripted([{ kind: "shell", command: "ls" }]), prompt: "List the files, then say DONE." },
  { name: "validate-bash: an ordinary command passes", agent: "Claude Code", source: SOURCE, hooks: validateBash, script: scripted([{ kind: "shell", command: "touch made.txt" }]), prompt: "Make the file, then say DONE." },
  { name: "validate-write: path traversal refused", agent: "Claude Code", source: SOURCE, hooks: validateWrite, script: steps((c) => ({ kind: "tool", name: "Write", input: { file_path: `${cwdOf(c)}/sub/../escaped.txt`, content: "x\n" } })), prompt: "Write the file, then say DONE.", allowedTools: ["Bash", "Write"] },
  { name: "validate-write: writing .env refused (exit 2)", agent: "Claude Code", source: SOURCE, hooks: validateWrite, script: steps(write("prod.env", "TOKEN=x\n")), prompt: "Write prod.env, then say DONE.", allowedTools: ["Bash", "Write"] },
  { name: "validate-write: an ordinary write passes", agent: "Claude Code", source: SOURCE, hooks: validateWrite, script: steps(write("notes.md", "notes\n")), prompt: "Write notes.md, then say DONE.", allowedTools: ["Bash", "Write"] },
  {
    name: "load-context: SessionStart exports the project type to Bash",
    agent: "Claude Code",
    source: SOURCE,
    hooks: () => ({ SessionStart: [{ hooks: [command(`bash "${file(`${EXAMPLES}/load-context.sh`)}"`)] }] }),
    prepare: (cwd) => writeFileSync(join(cwd, "package.json"), "{}\n"),
    script: scripted([{ kind: "shell", command: 'echo "type=${PROJECT_TYPE:-unset}" > type.txt' }]),
    prompt: "Record the project type, then say DONE.",
  },
];

export const CLAUDE_PLUGINS_OFFICIAL_SCENARIOS: readonly Scenario[] = [...ralph, ...hookify, ...styles, ...examples];
