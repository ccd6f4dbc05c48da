// Codex: Claude Code's hook contract with Codex's differences: regex matchers, a bare JSON
// payload with turn_id and model, exit 2 or a block only with a reason, updatedInput only beside
// an allow, no ask, a strict answer schema, Interrupt when a turn is cancelled, and a forwarder
// that blocks with exit 2.
import { claudeStyleAgent } from "../claude-code/index.js";
import { CLAUDE_TIMEOUTS, EVENTS, claudeStyleFormat } from "../claude-code/events.js";
import { CODEX_ANSWERS, codexForwarded } from "./answer.js";
import { CODEX_FIELDS } from "./fields.js";
import { CODEX_TOOLS } from "./tools.js";

export const codex = claudeStyleAgent({
  name: "codex",
  title: "Codex",
  answers: CODEX_ANSWERS,
  fields: CODEX_FIELDS,
  forwarded: codexForwarded,
  hooks: {
    format: claudeStyleFormat("codex", EVENTS, "regex", { ...CLAUDE_TIMEOUTS, eventSec: {}, maxSec: {}, sharedMinSec: {} }),
    // Codex sends only "other" as a SessionEnd reason.
    payload: { trailingNewline: false, unknownTranscript: null, turnAndModel: true, endReason: () => "other" },
    interruptOnCancel: true,
    blockNeedsReason: true,
    // A block needs a reason in Codex; a deny without one reads as its PreToolUse wording.
    blockedWithoutReason: "Tool call blocked by PreToolUse hook",
    updatedInputNeedsAllow: true,
    projectDirVars: ["CLAUDE_PROJECT_DIR"],
  },
  tools: CODEX_TOOLS,
});
