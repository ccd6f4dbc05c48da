// Gemini CLI's tools by kind (0.61's built-in tool names and their argument names).
import type { ToolTable } from "../tool-kinds.js";

export const GEMINI_TOOLS: ToolTable = {
  tools: {
    run_shell_command: { kind: "shell", command: "command" },
    read_file: { kind: "read", path: "file_path" },
    read_many_files: { kind: "read" },
    write_file: { kind: "write", path: "file_path" },
    replace: { kind: "edit", path: "file_path" },
    web_fetch: { kind: "fetch" },
    google_web_search: { kind: "search" },
    search_file_content: { kind: "search", path: "dir_path" },
    glob: { kind: "search", path: "dir_path" },
    list_directory: { kind: "read", path: "dir_path" },
  },
};
