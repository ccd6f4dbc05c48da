// Factory Droid: Claude Code's original nine events and contract, so its folder starts from
// Claude Code's and overrides what its binary does differently: events, timeouts and hooks file
// (events.ts, hooks-file.ts), no tool_use_id, updatedInput merged, exit 3 aborting the agent
// (output.ts), a PostToolUse without block or new output (answer.ts), its tools (tools.ts).
import { claudeCode, claudeStyleHooks } from "../claude-code/index.js";
import { CLAUDE_PAYLOAD } from "../claude-code/payload.js";
import { readClaudeRequest } from "../claude-code/request.js";
import type { AgentDialect } from "../contract.js";
import { fitAnswer } from "../fit-answer.js";
import { DROID_ANSWERS } from "./answer.js";
import { DROID_FORMAT } from "./events.js";
import { DROID_FIELDS } from "./fields.js";
import { parseDroidHooks } from "./hooks-file.js";
import { interpretDroidRun } from "./output.js";
import { DROID_TOOLS } from "./tools.js";

// Droid keeps Claude Code's original contract, its wording for a reasonless block included.
const OUTPUT_FACTS = { blockNeedsReason: false, blockedWithoutReason: "Blocked by hook" };

const hooks = claudeStyleHooks({
  format: DROID_FORMAT,
  payload: { ...CLAUDE_PAYLOAD, noToolUseId: true },
  interruptOnCancel: false,
  ...OUTPUT_FACTS,
  projectDirVars: ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
});

export const droid: AgentDialect = {
  ...claudeCode,
  name: "droid",
  title: "Factory Droid",
  readRequest: (event, body, context) => readClaudeRequest(event, body, context, "droid"),
  answers: DROID_ANSWERS,
  fit: (answer, event) => fitAnswer(answer, event, DROID_FIELDS),
  observedWarning: () => undefined,
  commandHooks: {
    ...hooks,
    parse: parseDroidHooks,
    interpret: (run, hook) => interpretDroidRun(OUTPUT_FACTS, run, hook),
    // Droid spreads updatedInput over the call's input.
    applyInput: (args, input) => ({ ...args, ...input }),
  },
  tools: DROID_TOOLS,
};
