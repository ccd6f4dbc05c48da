// GitHub Copilot CLI (`@github/copilot`): its 15 camelCase events and payloads (Claude Code's
// when an event is named in PascalCase), flat camelCase answers (permissionDecision,
// modifiedArgs, modifiedResult, additionalContext, decision block, behavior), its
// `{version: 1, hooks}` files, and a forwarder that prints JSON with exit 0 (Copilot honours a
// deny there). Its http hooks can POST straight to hookd's /hooks/<event> (docs/agents/copilot-cli.md).
import { jsonOnStdout } from "../claude-code/answer.js";
import type { AgentDialect } from "../contract.js";
import { COPILOT_ANSWERS } from "./answer.js";
import { COPILOT_EVENTS, COPILOT_EVENTS_AT_POINT } from "./events.js";
import { parseCopilotHooksFile } from "./hooks-file.js";
import { COPILOT_NO_REASON, interpretCopilotRun } from "./output.js";
import { buildCopilotPayload, copilotFiring, copilotObservedPayload } from "./payload.js";
import { COPILOT_DIALECT, readCopilotRequest } from "./request.js";
import { COPILOT_TOOLS } from "./tools.js";

export const copilotCli: AgentDialect = {
  name: COPILOT_DIALECT,
  title: "GitHub Copilot CLI",
  // Its payloads name no event; notification's says "Notification", which /hooks/notification overrules.
  eventFromUrl: true,
  readRequest: readCopilotRequest,
  answers: COPILOT_ANSWERS,
  // Copilot ignores fields it does not know: its answers are written with its own fields only.
  fit: (answer) => ({ answer, dropped: [] }),
  forwarded: jsonOnStdout,
  commandHooks: {
    parse: parseCopilotHooksFile,
    events: COPILOT_EVENTS,
    eventsAtPoint: COPILOT_EVENTS_AT_POINT,
    firing: copilotFiring,
    payload: (firing, extras) => buildCopilotPayload(firing, extras),
    observedPayload: (event, extras) => copilotObservedPayload(event, extras),
    env: () => ({}),
    interpret: interpretCopilotRun,
    // modifiedArgs is the whole new argument object.
    applyInput: (_args, input) => input,
    reasonSeparator: "\n",
    // Copilot lets an event go on when its hook fails or times out.
    defaultFailurePolicy: "fail-open",
    blockedWithoutReason: COPILOT_NO_REASON,
  },
  tools: COPILOT_TOOLS,
};
