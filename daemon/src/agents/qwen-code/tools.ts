// Qwen Code's tools by kind (0.24's names as its hooks see them, and their arguments).
import { GEMINI_TOOLS } from "../gemini/tools.js";
import type { ToolTable } from "../tool-kinds.js";

export const QWEN_TOOLS: ToolTable = {
  tools: {
    ...GEMINI_TOOLS.tools,
    edit: { kind: "edit", path: "file_path" },
    grep_search: { kind: "search", path: "path" },
    glob: { kind: "search", path: "path" },
  },
  mcpPrefix: "mcp__",
};
