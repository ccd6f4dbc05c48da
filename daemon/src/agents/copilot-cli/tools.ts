// GitHub Copilot CLI's tools by kind: the names its camelCase hooks report in toolName (1.0), and
// Claude Code's names, which it reports to hooks whose event is named in PascalCase.
import { CLAUDE_TOOLS } from "../claude-code/tools.js";
import type { ToolTable } from "../tool-kinds.js";

export const COPILOT_TOOLS: ToolTable = {
  ...CLAUDE_TOOLS,
  bash: { kind: "shell", command: ["command"] },
  view: { kind: "read", path: ["path"] },
  create: { kind: "write", path: ["path"] },
  edit: { kind: "edit", path: ["path"] },
  grep: { kind: "search", path: ["path"] },
  glob: { kind: "search", path: ["path"] },
  web_fetch: { kind: "fetch" },
};
