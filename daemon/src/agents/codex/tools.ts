// Codex's tools by kind, as its hooks name them: its shell as `Bash`, apply_patch (also under
// its Edit and Write aliases) as an edit, MCP tools as `mcp__server__tool`.
import type { ToolTable } from "../tool-kinds.js";

export const CODEX_TOOLS: ToolTable = {
  tools: {
    Bash: { kind: "shell", command: "command" },
    apply_patch: { kind: "edit" },
    Edit: { kind: "edit", path: "file_path" },
    Write: { kind: "write", path: "file_path" },
  },
  mcpPrefix: "mcp__",
};
