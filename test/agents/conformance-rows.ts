// The agent conformance table: for every agent in the registry and every scenario, the agent's
// own hook JSON in, the hookd events the plugins see (point and what they read), and the agent's
// JSON out (and what a forwarder prints and exits with). The plugins' decisions are the same for
// every agent (conformance.test.ts's guard); only the agents' words differ.
export type Scenario =
  | "deny"
  | "no-opinion"
  | "ask"
  | "rewrite"
  | "prompt-context"
  | "prompt-reject"
  | "post-tool-context"
  | "post-tool-block"
  | "stop-steer"
  | "stop-done"
  | "session-start"
  | "observed"
  | "user-message"
  | "stop-agent";

export const SCENARIOS: readonly Scenario[] = ["deny", "no-opinion", "ask", "rewrite", "prompt-context", "prompt-reject", "post-tool-context", "post-tool-block", "stop-steer", "stop-done", "session-start", "observed", "user-message", "stop-agent"];

export interface Row {
  readonly agent: string;
  readonly scenario: Scenario;
  /** The event the URL (/hooks/<event>) and the forwarder (`--event`) name, for an agent whose payload carries no event name. */
  readonly event?: string;
  /** The agent's hook JSON. */
  readonly in: Record<string, unknown>;
  /** What the plugins saw, in order: "point" or "point:detail" (conformance.test.ts's guard writes them). */
  readonly events: readonly string[];
  /** The agent's JSON answer. */
  readonly out: Record<string, unknown>;
  /** What a forwarder exits with and prints (default: 0 and the JSON). */
  readonly forwarded?: { readonly exitCode: 0 | 2; readonly text: string };
}

const RM = "rm -rf /tmp/victim";
const PUSH = "git push origin main";
const ORIG = "echo orig > x.txt";
const NOTE = "echo notify me";
/** What the guard tells the user (conformance.test.ts), and why it stops the agent. */
export const USER_NOTE = "hookd: this command is logged";
export const STOP_REASON = "the session was stopped by policy";

/** A Claude-Code-style agent's rows; `shell` is its shell tool, `base` its common fields. */
function claudeStyle(agent: string, shell: string, base: Record<string, unknown>, extra: Partial<Record<Scenario, Partial<Row>>> = {}): Row[] {
  const tool = (command: string, id: string) => ({ ...base, hook_event_name: "PreToolUse", tool_name: shell, tool_input: { command }, tool_use_id: id });
  const rows: Row[] = [
    {
      agent,
      scenario: "deny",
      in: tool(RM, "t1"),
      events: [`rewrite:${shell}:${RM}`, `pre-tool:${shell}:${RM}`],
      out: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "destructive command refused by hookd" } },
    },
    { agent, scenario: "no-opinion", in: tool("ls", "t2"), events: [`rewrite:${shell}:ls`, `pre-tool:${shell}:ls`], out: {} },
    {
      agent,
      scenario: "ask",
      in: tool(PUSH, "t3"),
      events: [`rewrite:${shell}:${PUSH}`, `pre-tool:${shell}:${PUSH}`],
      out: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "pushing needs a human" } },
    },
    {
      agent,
      scenario: "rewrite",
      in: tool(ORIG, "t4"),
      events: [`rewrite:${shell}:${ORIG}`, `pre-tool:${shell}:echo rewritten > x.txt`],
      out: { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo rewritten > x.txt" } } },
    },
    {
      agent,
      scenario: "prompt-context",
      in: { ...base, hook_event_name: "UserPromptSubmit", prompt: "hello" },
      events: ["pre-step:hello"],
      out: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "prompt context from hookd" } },
    },
    {
      agent,
      scenario: "prompt-reject",
      in: { ...base, hook_event_name: "UserPromptSubmit", prompt: "do the forbidden thing" },
      events: ["pre-step:do the forbidden thing", "turn-end:blocked"],
      // A block only: continue:false would make Claude Code say "Operation stopped by hook" and drop the user's prompt.
      out: { decision: "block", reason: "that prompt is not allowed" },
    },
    {
      agent,
      scenario: "post-tool-context",
      in: { ...base, hook_event_name: "PostToolUse", tool_name: shell, tool_input: { command: "ls" }, tool_use_id: "t5", tool_response: "a.txt" },
      events: [`post-tool:${shell}:a.txt`],
      out: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "post-tool context from hookd" } },
    },
    {
      agent,
      scenario: "post-tool-block",
      in: { ...base, hook_event_name: "PostToolUse", tool_name: shell, tool_input: { command: "cat .env" }, tool_use_id: "t6", tool_response: "SECRET=1" },
      events: [`post-tool:${shell}:SECRET=1`],
      out: { decision: "block", reason: "the output holds a secret" },
    },
    {
      agent,
      scenario: "stop-steer",
      in: { ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "STEER ME" },
      events: ["turn-stopping:STEER ME"],
      out: { decision: "block", reason: "keep going" },
    },
    {
      agent,
      scenario: "stop-done",
      in: { ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "All done." },
      events: ["turn-stopping:All done.", "turn-end:completed"],
      out: {},
    },
    {
      agent,
      scenario: "session-start",
      in: { ...base, hook_event_name: "SessionStart", source: "startup" },
      events: ["session-start:startup"],
      out: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hookd policy v1 is active" } },
    },
    { agent, scenario: "observed", in: { ...base, hook_event_name: "PreCompact", trigger: "auto" }, events: [`agent-event:${agent}:PreCompact`], out: {} },
    // A plugin that passes and speaks to the user: the message only, nothing for the model, no verdict.
    { agent, scenario: "user-message", in: tool(NOTE, "t7"), events: [`rewrite:${shell}:${NOTE}`, `pre-tool:${shell}:${NOTE}`], out: { systemMessage: USER_NOTE } },
    {
      agent,
      scenario: "stop-agent",
      in: { ...base, hook_event_name: "UserPromptSubmit", prompt: "halt everything" },
      events: ["pre-step:halt everything", "turn-end:blocked"],
      out: { decision: "block", reason: "that prompt ends the session", continue: false, stopReason: STOP_REASON },
    },
  ];
  return rows.map((row) => ({ ...row, ...extra[row.scenario] }));
}

const CLAUDE_BASE = { session_id: "s-claude", transcript_path: "/t.jsonl", cwd: "/repo", permission_mode: "default" };
const CODEX_BASE = { session_id: "s-codex", turn_id: "1", transcript_path: null, cwd: "/repo", permission_mode: "default", model: "gpt-fake" };
const QWEN_BASE = { session_id: "s-qwen", transcript_path: "/t.jsonl", cwd: "/repo", permission_mode: "yolo", timestamp: "2026-12-07T22:40:46.412Z", prompt_id: "p#0" };
const DROID_BASE = { session_id: "s-droid", transcript_path: "/t.jsonl", cwd: "/repo", permission_mode: "auto-high" };
const CLINE_BASE = { clineVersion: "3.0.65", timestamp: "2026-12-08T01:40:00.000Z", taskId: "t-cline", sessionContext: { rootSessionId: "t-cline" }, workspaceRoots: ["/repo"], userId: "u", agent_id: "a1", parent_agent_id: null };
const GEMINI_BASE = { session_id: "s-gemini", transcript_path: "/t.json", cwd: "/repo", timestamp: "2026-12-07T22:40:46.412Z" };

const COPILOT_BASE = { sessionId: "s-copilot", timestamp: 1796692758832, cwd: "/repo" };

/** GitHub Copilot CLI's camelCase rows: its payloads carry no event name, the URL names it. */
function copilotRows(): Row[] {
  const agent = "copilot-cli";
  const tool = (command: string, extra: Record<string, unknown> = {}) => ({ ...COPILOT_BASE, toolName: "bash", toolArgs: { command, ...extra } });
  const post = (text: string) => ({ ...COPILOT_BASE, toolName: "bash", toolArgs: { command: "x" }, toolResult: { resultType: "success", textResultForLlm: text } });
  return [
    { agent, scenario: "deny", event: "preToolUse", in: tool(RM), events: [`rewrite:bash:${RM}`, `pre-tool:bash:${RM}`], out: { permissionDecision: "deny", permissionDecisionReason: deniedRm } },
    { agent, scenario: "no-opinion", event: "preToolUse", in: tool("ls"), events: ["rewrite:bash:ls", "pre-tool:bash:ls"], out: {} },
    { agent, scenario: "ask", event: "preToolUse", in: tool(PUSH), events: [`rewrite:bash:${PUSH}`, `pre-tool:bash:${PUSH}`], out: { permissionDecision: "ask", permissionDecisionReason: "pushing needs a human" } },
    {
      agent,
      scenario: "rewrite",
      event: "preToolUse",
      in: tool(ORIG, { description: "keep me" }),
      events: [`rewrite:bash:${ORIG}`, "pre-tool:bash:echo rewritten > x.txt"],
      out: { modifiedArgs: { command: "echo rewritten > x.txt", description: "keep me" } },
    },
    { agent, scenario: "prompt-context", event: "userPromptSubmitted", in: { ...COPILOT_BASE, prompt: "hello" }, events: ["pre-step:hello"], out: { additionalContext: "prompt context from hookd" } },
    {
      agent,
      scenario: "prompt-reject",
      event: "userPromptSubmitted",
      in: { ...COPILOT_BASE, prompt: "do the forbidden thing" },
      events: ["pre-step:do the forbidden thing", "turn-end:blocked"],
      out: { decision: "block", reason: "that prompt is not allowed" },
    },
    // Copilot reads no message for the user and no stop request from a hook: neither is written.
    { agent, scenario: "user-message", event: "preToolUse", in: tool(NOTE), events: [`rewrite:bash:${NOTE}`, `pre-tool:bash:${NOTE}`], out: {} },
    {
      agent,
      scenario: "stop-agent",
      event: "userPromptSubmitted",
      in: { ...COPILOT_BASE, prompt: "halt everything" },
      events: ["pre-step:halt everything", "turn-end:blocked"],
      out: { decision: "block", reason: "that prompt ends the session" },
    },
    { agent, scenario: "post-tool-context", event: "postToolUse", in: post("a.txt"), events: ["post-tool:bash:a.txt"], out: { additionalContext: "post-tool context from hookd" } },
    // Copilot has no post-tool block: the model gets the feedback in place of the output.
    { agent, scenario: "post-tool-block", event: "postToolUse", in: post("SECRET=1"), events: ["post-tool:bash:SECRET=1"], out: { modifiedResult: { resultType: "failure", textResultForLlm: "the output holds a secret" } } },
    // agentStop carries no last message: the guard steers a session named so.
    {
      agent,
      scenario: "stop-steer",
      event: "agentStop",
      in: { ...COPILOT_BASE, sessionId: "s-copilot-STEER", transcriptPath: "/t.jsonl", stopReason: "end_turn", stop_hook_active: false },
      events: ["turn-stopping:"],
      out: { decision: "block", reason: "keep going" },
    },
    {
      agent,
      scenario: "stop-done",
      event: "agentStop",
      in: { ...COPILOT_BASE, transcriptPath: "/t.jsonl", stopReason: "end_turn", stop_hook_active: false },
      events: ["turn-stopping:", "turn-end:completed"],
      out: {},
    },
    { agent, scenario: "session-start", event: "sessionStart", in: { ...COPILOT_BASE, source: "new", initialPrompt: "go" }, events: ["session-start:startup"], out: { additionalContext: "hookd policy v1 is active" } },
    { agent, scenario: "observed", event: "preCompact", in: { ...COPILOT_BASE, trigger: "auto" }, events: ["agent-event:copilot-cli:preCompact"], out: {} },
  ];
}

/** Cline's rows: its stdin names the runtime hook, the forwarder's --event names the event. */
function clineRows(): Row[] {
  const call = (command: string, id: string) => ({ ...CLINE_BASE, hookName: "tool_call", iteration: 1, tool_call: { id, name: "run_commands", input: { command } }, preToolUse: { toolName: "run_commands", parameters: { command } } });
  const result = (command: string, id: string, output: string) => ({
    ...CLINE_BASE,
    hookName: "tool_result",
    iteration: 1,
    tool_result: { id, name: "run_commands", input: { command }, output, durationMs: 3 },
    postToolUse: { toolName: "run_commands", parameters: { command }, result: output, success: true, executionTimeMs: 3 },
  });
  const row = (scenario: Scenario, event: string, body: Record<string, unknown>, events: readonly string[], out: Record<string, unknown>): Row => ({ agent: "cline", scenario, event, in: body, events, out });
  const prompt = (text: string) => ({ ...CLINE_BASE, hookName: "prompt_submit", userPromptSubmit: { prompt: text, attachments: [] } });
  const complete = { ...CLINE_BASE, hookName: "agent_end", iteration: 2, turn: { outputText: "All done.", status: "completed" }, taskComplete: { taskMetadata: {} } };
  return [
    // Cline has no per-call deny: a deny (and an ask) cancels the task, the call never runs.
    row("deny", "PreToolUse", call(RM, "t1"), [`rewrite:run_commands:${RM}`, `pre-tool:run_commands:${RM}`], { cancel: true, errorMessage: `hookd denied run_commands: ${deniedRm} (Cline hooks cannot deny one call, so the task is cancelled)` }),
    row("no-opinion", "PreToolUse", call("ls", "t2"), ["rewrite:run_commands:ls", "pre-tool:run_commands:ls"], {}),
    row("ask", "PreToolUse", call(PUSH, "t3"), [`rewrite:run_commands:${PUSH}`, `pre-tool:run_commands:${PUSH}`], { cancel: true, errorMessage: "approval required (Cline hooks cannot ask): pushing needs a human; the task is cancelled" }),
    row("rewrite", "PreToolUse", call(ORIG, "t4"), [`rewrite:run_commands:${ORIG}`, "pre-tool:run_commands:echo rewritten > x.txt"], { overrideInput: { command: "echo rewritten > x.txt" } }),
    // Cline runs UserPromptSubmit fire-and-forget: hookd observes it, nothing can block the prompt.
    row("prompt-context", "UserPromptSubmit", prompt("hello"), [], {}),
    row("prompt-reject", "UserPromptSubmit", prompt("do the forbidden thing"), [], {}),
    row("post-tool-context", "PostToolUse", result("ls", "t5", "a.txt"), ["post-tool:run_commands:a.txt"], { contextModification: "post-tool context from hookd" }),
    row("post-tool-block", "PostToolUse", result("cat .env", "t6", "SECRET=1"), ["post-tool:run_commands:SECRET=1"], { contextModification: "the output holds a secret" }),
    // Cline has no stop event: its TaskComplete (fire-and-forget) is the turn's end.
    row("stop-steer", "TaskComplete", complete, ["turn-end:completed"], {}),
    row("stop-done", "TaskComplete", complete, ["turn-end:completed"], {}),
    row("session-start", "TaskStart", { ...CLINE_BASE, hookName: "agent_start", taskStart: { taskMetadata: {} } }, ["session-start:startup"], { contextModification: "hookd policy v1 is active" }),
    row("observed", "PreCompact", { ...CLINE_BASE, hookName: "pre_compact" }, ["agent-event:cline:PreCompact"], {}),
    // Cline shows no hook message to the user; a stop request would be its cancel, but its prompt event is only observed.
    row("user-message", "PreToolUse", call(NOTE, "t7"), [`rewrite:run_commands:${NOTE}`, `pre-tool:run_commands:${NOTE}`], {}),
    row("stop-agent", "UserPromptSubmit", prompt("halt everything"), [], {}),
  ];
}

/** Factory Droid's rows that differ: no tool_use_id, Execute's risk arguments, its PostToolUse. */
function droidRows(): Partial<Record<Scenario, Partial<Row>>> {
  const risk = { riskLevelReason: "one sentence", riskLevel: "low" };
  const execute = (command: string) => ({ ...DROID_BASE, hook_event_name: "PreToolUse", tool_name: "Execute", tool_input: { command, ...risk } });
  const posted = (command: string, response: string) => ({ ...DROID_BASE, hook_event_name: "PostToolUse", tool_name: "Execute", tool_input: { command, ...risk }, tool_response: response });
  return {
    deny: { in: execute(RM) },
    "no-opinion": { in: execute("ls") },
    ask: { in: execute(PUSH) },
    // Droid merges updatedInput over the input: the complete rewritten arguments.
    rewrite: { in: execute(ORIG), out: { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo rewritten > x.txt", ...risk } } } },
    "post-tool-context": { in: posted("ls", "a.txt") },
    // Droid ignores a PostToolUse block: the feedback reaches the model as context.
    "post-tool-block": { in: posted("cat .env", "SECRET=1"), out: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the output holds a secret" } } },
  };
}

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;
const deniedRm = "destructive command refused by hookd";

export const ROWS: readonly Row[] = [
  ...claudeStyle("claude-code", "Bash", CLAUDE_BASE),
  ...claudeStyle("codex", "Bash", CODEX_BASE, {
    deny: { forwarded: { exitCode: 2, text: `${deniedRm}\n` } },
    // Codex hooks cannot ask: the ask is a deny saying so.
    ask: {
      out: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "approval required (Codex hooks cannot ask): pushing needs a human" } },
      forwarded: { exitCode: 2, text: "approval required (Codex hooks cannot ask): pushing needs a human\n" },
    },
    // Codex takes updatedInput only beside an allow.
    rewrite: { out: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "rewritten by rewriter", updatedInput: { command: "echo rewritten > x.txt" } } } },
    "no-opinion": { forwarded: { exitCode: 0, text: "" } },
    "prompt-reject": { forwarded: { exitCode: 2, text: "that prompt is not allowed\n" } },
    "post-tool-block": { forwarded: { exitCode: 2, text: "the output holds a secret\n" } },
    "stop-steer": { forwarded: { exitCode: 2, text: "keep going\n" } },
    "stop-done": { forwarded: { exitCode: 0, text: "" } },
    observed: { forwarded: { exitCode: 0, text: "" } },
    // Codex's forwarder blocks with exit 2 and the reason: a stop request reaches Codex only over HTTP.
    "stop-agent": { forwarded: { exitCode: 2, text: "that prompt ends the session\n" } },
  }),
  ...claudeStyle("qwen-code", "run_shell_command", QWEN_BASE, {
    // Qwen applies no updatedInput at PreToolUse: a rewrite it cannot take is a deny.
    rewrite: {
      out: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "the rewrite of run_shell_command by rewriter cannot reach Qwen Code: it applies no updatedInput at PreToolUse",
        },
      },
    },
    // Qwen ignores a PostToolUse block; continue:false replaces the result with its stopReason.
    "post-tool-block": {
      in: { ...QWEN_BASE, hook_event_name: "PostToolUse", tool_name: "run_shell_command", tool_input: { command: "cat .env" }, tool_use_id: "t6", tool_response: { llmContent: "SECRET=1", returnDisplay: "SECRET=1" } },
      out: { continue: false, stopReason: "the output holds a secret" },
    },
    "post-tool-context": {
      in: { ...QWEN_BASE, hook_event_name: "PostToolUse", tool_name: "run_shell_command", tool_input: { command: "ls" }, tool_use_id: "t5", tool_response: { llmContent: "a.txt", returnDisplay: "a.txt" } },
    },
  }),
  ...claudeStyle("droid", "Execute", DROID_BASE, droidRows()),
  ...clineRows(),
  {
    agent: "gemini",
    scenario: "deny",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: RM } },
    events: [`rewrite:run_shell_command:${RM}`, `pre-tool:run_shell_command:${RM}`],
    out: { decision: "deny", reason: deniedRm },
  },
  { agent: "gemini", scenario: "no-opinion", in: { ...GEMINI_BASE, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "ls" } }, events: ["rewrite:run_shell_command:ls", "pre-tool:run_shell_command:ls"], out: {} },
  {
    agent: "gemini",
    scenario: "ask",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: PUSH } },
    events: [`rewrite:run_shell_command:${PUSH}`, `pre-tool:run_shell_command:${PUSH}`],
    out: { decision: "ask", reason: "pushing needs a human", systemMessage: "pushing needs a human" },
  },
  {
    agent: "gemini",
    scenario: "rewrite",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: ORIG, description: "keep me" } },
    events: [`rewrite:run_shell_command:${ORIG}`, "pre-tool:run_shell_command:echo rewritten > x.txt"],
    out: { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "echo rewritten > x.txt", description: "keep me" } } },
  },
  {
    agent: "gemini",
    scenario: "prompt-context",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeAgent", prompt: "hello" },
    events: ["pre-step:hello"],
    out: { hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "prompt context from hookd" } },
  },
  {
    agent: "gemini",
    scenario: "prompt-reject",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeAgent", prompt: "do the forbidden thing" },
    events: ["pre-step:do the forbidden thing", "turn-end:blocked"],
    out: { decision: "deny", reason: "that prompt is not allowed" },
  },
  {
    agent: "gemini",
    scenario: "post-tool-context",
    in: { ...GEMINI_BASE, hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "ls" }, tool_response: { llmContent: "a.txt", returnDisplay: "a.txt" } },
    events: ["post-tool:run_shell_command:a.txt"],
    out: { hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "post-tool context from hookd" } },
  },
  {
    agent: "gemini",
    scenario: "post-tool-block",
    in: { ...GEMINI_BASE, hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "cat .env" }, tool_response: { llmContent: "SECRET=1", returnDisplay: "SECRET=1" } },
    events: ["post-tool:run_shell_command:SECRET=1"],
    out: { decision: "deny", reason: "the output holds a secret" },
  },
  {
    agent: "gemini",
    scenario: "stop-steer",
    in: { ...GEMINI_BASE, hook_event_name: "AfterAgent", prompt: "p", prompt_response: "STEER ME", stop_hook_active: false },
    events: ["turn-stopping:STEER ME"],
    out: { decision: "deny", reason: "keep going" },
  },
  {
    agent: "gemini",
    scenario: "stop-done",
    in: { ...GEMINI_BASE, hook_event_name: "AfterAgent", prompt: "p", prompt_response: "All done.", stop_hook_active: false },
    events: ["turn-stopping:All done.", "turn-end:completed"],
    out: {},
  },
  {
    agent: "gemini",
    scenario: "session-start",
    in: { ...GEMINI_BASE, hook_event_name: "SessionStart", source: "startup" },
    events: ["session-start:startup"],
    out: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hookd policy v1 is active" } },
  },
  { agent: "gemini", scenario: "observed", in: { ...GEMINI_BASE, hook_event_name: "PreCompress", trigger: "auto" }, events: ["agent-event:gemini:PreCompress"], out: {} },
  ...copilotRows(),
  {
    agent: "gemini",
    scenario: "user-message",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: NOTE } },
    events: [`rewrite:run_shell_command:${NOTE}`, `pre-tool:run_shell_command:${NOTE}`],
    out: { systemMessage: USER_NOTE },
  },
  {
    agent: "gemini",
    scenario: "stop-agent",
    in: { ...GEMINI_BASE, hook_event_name: "BeforeAgent", prompt: "halt everything" },
    events: ["pre-step:halt everything", "turn-end:blocked"],
    out: { decision: "deny", reason: "that prompt ends the session", continue: false, stopReason: STOP_REASON },
  },
];

/** What the forwarder prints for a row: its own, or the JSON answer with exit 0. */
export const forwardedOf = (row: Row): { readonly exitCode: 0 | 2; readonly text: string } => row.forwarded ?? { exitCode: 0, text: json(row.out) };
