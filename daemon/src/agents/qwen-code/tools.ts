// Qwen Code's tools by kind (0.24's names as its hooks see them): Gemini CLI's, with its own edit.
import { GEMINI_TOOLS } from "../gemini/tools.js";
import type { ToolTable } from "../tool-kinds.js";

export const QWEN_TOOLS: ToolTable = { ...GEMINI_TOOLS, edit: { kind: "edit", path: ["file_path"] } };
