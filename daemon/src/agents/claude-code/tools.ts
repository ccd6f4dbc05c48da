// Claude Code's tools by kind (its built-in tool names and their argument names).
import type { ToolTable } from "../tool-kinds.js";

export const CLAUDE_TOOLS: ToolTable = {
  tools: {
    Bash: { kind: "shell", command: "command" },
    Read: { kind: "read", path: "file_path" },
    Write: { kind: "write", path: "file_path" },
    Edit: { kind: "edit", path: "file_path" },
    MultiEdit: { kind: "edit", path: "file_path" },
    NotebookEdit: { kind: "edit", path: "notebook_path" },
    WebFetch: { kind: "fetch" },
    WebSearch: { kind: "search" },
    Grep: { kind: "search", path: "path" },
    Glob: { kind: "search", path: "path" },
  },
  mcpPrefix: "mcp__",
};
