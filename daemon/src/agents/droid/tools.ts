// Factory Droid's tools by kind (0.225's names as its hooks see them, and their arguments).
import type { ToolTable } from "../tool-kinds.js";

export const DROID_TOOLS: ToolTable = {
  Execute: { kind: "shell", command: ["command"] },
  Read: { kind: "read", path: ["file_path"] },
  Create: { kind: "write", path: ["file_path"] },
  Edit: { kind: "edit", path: ["file_path"] },
  MultiEdit: { kind: "edit", path: ["file_path"] },
  ApplyPatch: { kind: "edit" },
  LS: { kind: "search", path: ["directory_path"] },
  Grep: { kind: "search", path: ["path"] },
  Glob: { kind: "search", path: ["folder"] },
  FetchUrl: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
};
