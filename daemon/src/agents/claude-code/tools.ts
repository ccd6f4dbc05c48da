// Claude Code's tools by kind: the names its hooks report in tool_name (2.1), and their arguments.
import type { ToolTable } from "../tool-kinds.js";

export const CLAUDE_TOOLS: ToolTable = {
  Bash: { kind: "shell", command: ["command"] },
  Read: { kind: "read", path: ["file_path"] },
  NotebookRead: { kind: "read", path: ["notebook_path"] },
  Write: { kind: "write", path: ["file_path"] },
  Edit: { kind: "edit", path: ["file_path"] },
  MultiEdit: { kind: "edit", path: ["file_path"] },
  NotebookEdit: { kind: "edit", path: ["notebook_path"] },
  Glob: { kind: "search", path: ["path"] },
  Grep: { kind: "search", path: ["path"] },
  LS: { kind: "search", path: ["path"] },
  WebFetch: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
};
