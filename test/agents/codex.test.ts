// What only Codex needs beyond the shared scenarios (scenarios.test.ts): its hook trust. Headless
// Codex skips untrusted hooks without a word; hookd's trust script finds and trusts them. The real
// Codex binary (pinned, installed by scripts/setup-agents.sh), the project's fake model server
// (Responses API) and the policy inside a real `hookd serve`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../support/daemon-process.js";
import { startFakeModel } from "./fake-model/server.js";
import { agentBin, runAgent, tempDir } from "./support/agents.js";
import { codexEnv, codexHooks, runCodex } from "./support/codex.js";
import { startPolicyDaemon } from "./support/policy.js";
import { SCENARIO_PROMPT, prepareCwd, scenarioScript } from "./support/scenario.js";

describe("Codex hook trust", () => {
  const TRUST = join(REPO, "hooks-examples/codex/trust-hookd-hooks.mjs");

  // Codex 0.171 headless: an untrusted hook is skipped without a word in `codex exec --json`.
  // The script asks Codex's own app-server which of hookd's hooks are untrusted (--check warns)
  // and records Codex's own hash for them; then `codex exec` runs them without the bypass flag.
  it("headless Codex skips hookd's untrusted hooks without a word; the trust script warns about them, and once it trusted them they run", async () => {
    const policy = await startPolicyDaemon();
    const model = await startFakeModel(scenarioScript);
    try {
      const home = await tempDir("codex-home");
      const cwd = await tempDir("codex-cwd");
      prepareCwd(cwd);
      const untrusted = await runCodex({ home, cwd, modelUrl: model.url, hooks: codexHooks("c-forwarder", policy.hookUrl), prompt: SCENARIO_PROMPT, trust: false });
      expect(untrusted.code, untrusted.stderr).toBe(0);
      expect(await policy.entries()).toEqual([]);
      expect(existsSync(join(cwd, "victim"))).toBe(false); // no hook ran: the rm -r did
      expect(untrusted.events.length).toBeGreaterThan(0);
      expect(untrusted.events.filter((e) => JSON.stringify(e).match(/hook|trust/i) !== null)).toEqual([]);

      const env = codexEnv(home);
      const script = (args: readonly string[]) => runAgent(process.execPath, [TRUST, "--codex", agentBin("codex"), "--cwd", cwd, ...args], { cwd, env });
      const check = await script(["--check"]);
      expect(check.code, check.stderr).toBe(1);
      expect(check.stderr).toContain("will not run 6 of hookd's hooks headless");
      expect(check.stdout.match(/^untrusted /gm)).toHaveLength(6);
      const trusted = await script([]);
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(trusted.stdout.match(/^trusted {3}/gm)).toHaveLength(6);
      const after = await script(["--check"]);
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout.match(/^trusted {3}/gm)).toHaveLength(6);
      expect(readFileSync(join(home, ".codex/config.toml"), "utf8")).toMatch(/\[hooks\.state\."[^"]+hooks\.json:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/);

      // Trusted, the same hooks run headless without the bypass flag.
      const next = await tempDir("codex-cwd");
      prepareCwd(next);
      const run = await runCodex({ home, cwd: next, modelUrl: model.url, hooks: codexHooks("c-forwarder", policy.hookUrl), prompt: SCENARIO_PROMPT, trust: false });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(next, "victim"))).toBe(true);
      expect((await policy.entries()).some((e) => e.point === "pre-tool" && e.command === "rm -r victim")).toBe(true);
    } finally {
      await model.close();
      await policy.stop();
    }
  }, 120_000);
});
