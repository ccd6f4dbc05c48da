// The agents the real-agent lane runs the shared scenarios for (support/scenarios.ts): one entry
// per agent. An agent joins by its driver, once hookd speaks its dialect.
import { claudeCodeDriver } from "./claude.js";
import { codexDriver } from "./codex.js";
import { geminiDriver } from "./gemini.js";
import type { AgentDriver } from "./scenarios.js";

export const AGENT_DRIVERS: readonly AgentDriver[] = [
  claudeCodeDriver,
  codexDriver,
  geminiDriver,
  // qwenCodeDriver (support/qwen.ts) joins here once hookd accepts the dialect `qwen-code`
  // (issue #31): its forwarders then run `--dialect qwen-code`.
];
