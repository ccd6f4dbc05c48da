// Gemini CLI's tools by kind: its built-in tools' names and parameters (0.61).
import type { ToolTable } from "../tool-kinds.js";

export const GEMINI_TOOLS: ToolTable = {
  run_shell_command: { kind: "shell", command: ["command"] },
  read_file: { kind: "read", path: ["file_path", "absolute_path", "path"] },
  read_many_files: { kind: "read" },
  write_file: { kind: "write", path: ["file_path", "path"] },
  replace: { kind: "edit", path: ["file_path", "path"] },
  list_directory: { kind: "search", path: ["dir_path", "path"] },
  glob: { kind: "search", path: ["dir_path", "path"] },
  search_file_content: { kind: "search", path: ["dir_path", "path"] },
  grep_search: { kind: "search", path: ["dir_path", "path"] },
  web_fetch: { kind: "fetch" },
  google_web_search: { kind: "fetch" },
};
