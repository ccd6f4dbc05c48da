// pi 1.6's built-in tools by kind, as its extensions see them (tool_call's toolName and input).
import type { ToolTable } from "../tool-kinds.js";

export const PI_TOOLS: ToolTable = {
  bash: { kind: "shell", command: ["command"] },
  powershell: { kind: "shell", command: ["command"] },
  read: { kind: "read", path: ["path"] },
  write: { kind: "write", path: ["path"] },
  edit: { kind: "edit", path: ["path"] },
  grep: { kind: "search", path: ["path"] },
  find: { kind: "search", path: ["path"] },
  ls: { kind: "search", path: ["path"] },
};
