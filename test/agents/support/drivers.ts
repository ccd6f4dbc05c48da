// The agents the real-agent lane runs the shared scenarios for (support/scenarios.ts): one entry
// per agent. An agent joins by its driver, once hookd speaks its dialect (docs/agents.md).
import { claudeCodeDriver } from "./claude.js";
import { codexDriver } from "./codex.js";
import { copilotCliDriver } from "./copilot.js";
import { droidDriver } from "./droid.js";
import { geminiDriver } from "./gemini.js";
import { openCodeDriver } from "./opencode.js";
import { piDriver } from "./pi.js";
import { qwenCodeDriver } from "./qwen.js";
import type { AgentDriver, DriverPath } from "./scenarios.js";

export const AGENT_DRIVERS: readonly AgentDriver<DriverPath>[] = [
  claudeCodeDriver,
  codexDriver,
  geminiDriver,
  qwenCodeDriver,
  copilotCliDriver,
  droidDriver,
  openCodeDriver,
  piDriver,
];
