// Cline's tools by kind (3.0.65's names as its hooks see them, and their arguments). run_commands
// takes a list (`commands`) or one command (`command`); only the single form is read as the command.
import type { ToolTable } from "../tool-kinds.js";

export const CLINE_TOOLS: ToolTable = {
  run_commands: { kind: "shell", command: ["command", "cmd"] },
  read_files: { kind: "read" },
  editor: { kind: "edit", path: ["path"] },
  apply_patch: { kind: "edit", patch: ["input"] },
  search_codebase: { kind: "search" },
  fetch_web_content: { kind: "fetch" },
};
