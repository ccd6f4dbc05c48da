// Codex's tools by kind (0.169): its hooks see its shell as Bash and apply_patch as Edit/Write;
// the native names are kept for agents that report them (the gRPC host, older releases).
import type { ToolTable } from "../tool-kinds.js";

const PATCH = { path: ["file_path", "path"], patch: ["input", "patch", "command"] };

export const CODEX_TOOLS: ToolTable = {
  Bash: { kind: "shell", command: ["command", "cmd"] },
  shell: { kind: "shell", command: ["command", "cmd"] },
  exec_command: { kind: "shell", command: ["cmd", "command"] },
  local_shell: { kind: "shell", command: ["command"] },
  apply_patch: { kind: "edit", ...PATCH },
  Edit: { kind: "edit", ...PATCH },
  Write: { kind: "write", ...PATCH },
  read_file: { kind: "read", path: ["file_path", "path"] },
  view_image: { kind: "read", path: ["path"] },
  web_search: { kind: "fetch" },
};
