// Qwen Code: a Gemini CLI fork whose hooks follow Claude Code's contract. Its events, request
// and answers start from Claude Code's; where Qwen differs: its own events, matchers, timeouts
// and sequential groups (events.ts), a tool response written as {llmContent, returnDisplay}, a
// timestamp in every payload, three project-dir variables, and two answers (answer.ts).
import type { JsonValue } from "@hookd/sdk";
import { contentText } from "../answer-text.js";
import { isObject } from "../body.js";
import { jsonOnStdout } from "../claude-code/answer.js";
import { CLAUDE_FIELDS } from "../claude-code/fields.js";
import { claudeStyleAgent } from "../claude-code/index.js";
import { CLAUDE_PAYLOAD } from "../claude-code/payload.js";
import { QWEN_ANSWERS } from "./answer.js";
import { QWEN_FORMAT } from "./events.js";
import { QWEN_TOOLS } from "./tools.js";

export const qwenCode = claudeStyleAgent({
  name: "qwen-code",
  title: "Qwen Code",
  answers: QWEN_ANSWERS,
  fields: CLAUDE_FIELDS,
  forwarded: jsonOnStdout,
  // A tool's response is {llmContent, returnDisplay}: the model sees llmContent.
  asClaude: (event, body) => {
    const response = body.tool_response;
    return event === "PostToolUse" && isObject(response) && response.llmContent !== undefined ? { ...body, tool_response: response.llmContent } : body;
  },
  hooks: {
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
  },
  tools: QWEN_TOOLS,
});
