// OpenCode 1.18's tools by kind, as its plugins see them (tool.execute.before's `tool` and
// `args`): camelCase argument names; apply_patch takes Codex's patch format in patchText.
import type { ToolTable } from "../tool-kinds.js";

export const OPENCODE_TOOLS: ToolTable = {
  bash: { kind: "shell", command: ["command"] },
  read: { kind: "read", path: ["filePath"] },
  write: { kind: "write", path: ["filePath"] },
  edit: { kind: "edit", path: ["filePath"] },
  multiedit: { kind: "edit", path: ["filePath"] },
  apply_patch: { kind: "edit", patch: ["patchText"] },
  glob: { kind: "search", path: ["path"] },
  grep: { kind: "search", path: ["path"] },
  list: { kind: "search", path: ["path"] },
  webfetch: { kind: "fetch" },
  websearch: { kind: "fetch" },
  codesearch: { kind: "fetch" },
};
