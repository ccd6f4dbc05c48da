// Cline's tools by kind (3.0.65's names as its hooks see them, and their arguments). run_commands
// takes a list (`commands`, read as one command per line) or one command (`command`).
import type { ToolTable } from "../tool-kinds.js";

export const CLINE_TOOLS: ToolTable = {
  run_commands: { kind: "shell", command: ["command", "cmd"], commandList: ["commands"] },
  read_files: { kind: "read" },
  editor: { kind: "edit", path: ["path"] },
  apply_patch: { kind: "edit", patch: ["input"] },
  search_codebase: { kind: "search" },
  fetch_web_content: { kind: "fetch" },
};
