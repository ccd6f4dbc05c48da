// Qwen Code: a Gemini CLI fork whose hooks follow Claude Code's contract. Its events, request
// and answers start from Claude Code's; where Qwen differs: its own events, matchers, timeouts
// and sequential groups (events.ts), a tool response written as {llmContent, returnDisplay}, a
// timestamp in every payload, three project-dir variables, and two answers (answer.ts).
import type { JsonValue } from "@hookd/sdk";
import { contentText } from "../answer-text.js";
import { isObject } from "../body.js";
import { claudeCode, claudeStyleHooks } from "../claude-code/index.js";
import { CLAUDE_PAYLOAD } from "../claude-code/payload.js";
import { readClaudeRequest } from "../claude-code/request.js";
import type { AgentDialect } from "../contract.js";
import { QWEN_ANSWERS } from "./answer.js";
import { QWEN_FORMAT } from "./events.js";
import { QWEN_TOOLS } from "./tools.js";

export const qwenCode: AgentDialect = {
  ...claudeCode,
  name: "qwen-code",
  title: "Qwen Code",
  // A tool's response is {llmContent, returnDisplay}: the model sees llmContent.
  readRequest: (event, body, context) => {
    const response = body.tool_response;
    const seen = event === "PostToolUse" && isObject(response) && response.llmContent !== undefined ? { ...body, tool_response: response.llmContent } : body;
    return readClaudeRequest(event, seen, context, "qwen-code");
  },
  answers: QWEN_ANSWERS,
  observedWarning: () => undefined,
  commandHooks: claudeStyleHooks({
    format: QWEN_FORMAT,
    payload: {
      ...CLAUDE_PAYLOAD,
      timestamp: true,
      toolResponse: (result): JsonValue => {
        const shown = contentText(result.content);
        return { llmContent: typeof result.value === "string" ? result.value : shown, returnDisplay: shown };
      },
    },
    interruptOnCancel: false,
    blockNeedsReason: false,
    // Its core scheduler: `blockReason || "Tool execution blocked by hook"`.
    blockedWithoutReason: "Tool execution blocked by hook",
    projectDirVars: ["QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"],
  }),
  tools: QWEN_TOOLS,
};
