// The shared scenarios (support/scenarios.ts) for every agent in the lane's list
// (support/drivers.ts), through each of its hook paths: the real agent binaries (pinned,
// installed by scripts/setup-agents.sh) with hookd as their hook backend inside a real
// `hookd serve`, the model the project's fake model server.
import { AGENT_DRIVERS } from "./support/drivers.js";
import { describeScenarios } from "./support/scenarios.js";

for (const driver of AGENT_DRIVERS) describeScenarios(driver);
