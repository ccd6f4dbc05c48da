// Cline: one executable per event in a hooks directory, reached through hookd's forwarder in
// Cline's dialect (`hookd hook --dialect cline --event <Event>`). Its events (events.ts), its
// stdin (request.ts), its answers and the fields each event reads (answer.ts), its tools
// (tools.ts). Cline has no hooks file, so the command kind has none to run: a `dialect: cline`
// command plugin is refused with a clear error.
import { HookdError } from "@hookd/sdk";
import { claudeCode } from "../claude-code/index.js";
import { jsonOnStdout } from "../claude-code/answer.js";
import type { AgentDialect } from "../contract.js";
import { fitAnswer } from "../fit-answer.js";
import { CLINE_ANSWERS, CLINE_FIELDS } from "./answer.js";
import { CLINE_EVENTS, CLINE_EVENTS_AT_POINT } from "./events.js";
import { readClineRequest } from "./request.js";
import { CLINE_TOOLS } from "./tools.js";

export const cline: AgentDialect = {
  name: "cline",
  title: "Cline",
  readRequest: readClineRequest,
  answers: CLINE_ANSWERS,
  fit: (answer, event) => fitAnswer(answer, event, CLINE_FIELDS),
  // Cline ignores the exit code and reads the JSON on stdout.
  forwarded: jsonOnStdout,
  observedWarning: () => undefined,
  commandHooks: {
    ...claudeCode.commandHooks,
    parse: (_value, source) => {
      throw new HookdError("invalid_plugin", `${source}: Cline has no hooks file (its hooks are one executable per event in a hooks directory); point those at \`hookd hook --dialect cline --event <Event>\` instead of a command plugin`);
    },
    events: CLINE_EVENTS,
    eventsAtPoint: CLINE_EVENTS_AT_POINT,
  },
  tools: CLINE_TOOLS,
};
