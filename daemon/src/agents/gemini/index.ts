// Gemini CLI: its own event names and payloads, answers with `decision: "deny" | "ask"`, hooks
// files with millisecond timeouts and sequential groups whose hooks see each other's changes,
// and a forwarder that always prints JSON with exit 0 (Gemini honours a deny there).
import { parseHooksFile } from "../hooks-file.js";
import { jsonOnStdout } from "../claude-code/answer.js";
import type { SessionEndReason } from "@hookd/sdk";
import type { AgentDialect } from "../contract.js";
import { GEMINI_ANSWERS } from "./answer.js";
import { GEMINI_EVENTS, GEMINI_EVENTS_AT_POINT, GEMINI_FORMAT } from "./hooks-file.js";
import { GEMINI_NO_REASON, interpretGeminiRun } from "./output.js";
import { firingOf } from "../firing.js";
import { GEMINI_END_REASON, buildGeminiPayload, geminiObservedPayload } from "./payload.js";
import { readGeminiRequest } from "./request.js";
import { GEMINI_TOOLS } from "./tools.js";

// A failed call fires AfterTool too; Gemini has no approval, subagent or turn-end events.
const GEMINI_FIRING = {
  sessionStart: "SessionStart",
  prompt: "BeforeAgent",
  tool: "BeforeTool",
  postTool: "AfterTool",
  postToolFailure: "AfterTool",
  stop: "AfterAgent",
  sessionEnd: "SessionEnd",
  endReason: (reason: SessionEndReason) => GEMINI_END_REASON[reason],
};

export const gemini: AgentDialect = {
  name: "gemini",
  title: "Gemini CLI",
  readRequest: readGeminiRequest,
  answers: GEMINI_ANSWERS,
  // Gemini ignores fields it does not know: its answers are written with its own fields only.
  fit: (answer) => ({ answer, dropped: [] }),
  forwarded: jsonOnStdout,
  commandHooks: {
    parse: (value, source) => parseHooksFile(GEMINI_FORMAT, value, source),
    events: GEMINI_EVENTS,
    eventsAtPoint: GEMINI_EVENTS_AT_POINT,
    firing: (point, data) => firingOf(GEMINI_FIRING, point, data),
    payload: (firing, extras) => buildGeminiPayload(firing, extras),
    observedPayload: (event, extras) => geminiObservedPayload(event, extras),
    env: (cwd, session) => ({ GEMINI_PROJECT_DIR: cwd, GEMINI_CWD: cwd, GEMINI_SESSION_ID: session.sessionId, CLAUDE_PROJECT_DIR: cwd }),
    interpret: interpretGeminiRun,
    // Gemini merges a hook's tool_input over the arguments (top-level keys replaced).
    applyInput: (args, input) => ({ ...args, ...input }),
    reasonSeparator: "\n",
    defaultFailurePolicy: "fail-open",
    blockedWithoutReason: GEMINI_NO_REASON,
  },
  tools: GEMINI_TOOLS,
};
