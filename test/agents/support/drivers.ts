// The agents the real-agent lane runs the shared scenarios for (support/scenarios.ts): one entry
// per agent. An agent joins by its driver, once hookd speaks its dialect (docs/agents.md).
import { claudeCodeDriver } from "./claude.js";
import { codexDriver } from "./codex.js";
import { droidDriver } from "./droid.js";
import { geminiDriver } from "./gemini.js";
import { qwenCodeDriver } from "./qwen.js";
import type { AgentDriver } from "./scenarios.js";

export const AGENT_DRIVERS: readonly AgentDriver[] = [
  claudeCodeDriver,
  codexDriver,
  geminiDriver,
  qwenCodeDriver,
  droidDriver,
];
