// The differential lane's normalization: what differs between any two runs by chance or by the
// user's settings reads the same, so a comparison finds only what hookd changed.
import { describe, expect, it } from "vitest";
import { normalize } from "./differential/observation.js";

describe("differential lane: normalizing an observation", () => {
  it("reads sensitive-canary's randomly picked bird the same", () => {
    const birds = ["🐦", "🐧", "🐤", "🐔"].map((bird) => normalize(`PreToolUse:Bash hook error: ${bird} sensitive-canary blocked: .env`, {}));
    expect(new Set(birds).size).toBe(1);
  });

  it("reads Codex's hook run id the same whatever the entry's index in the hooks file", () => {
    const native = normalize('<hook_prompt hook_run_id="stop:3:/h/.codex/hooks.json">sent back</hook_prompt>', { home: "/h" });
    const hookd = normalize('<hook_prompt hook_run_id="stop:8:/h/.codex/hooks.json">sent back</hook_prompt>', { home: "/h" });
    expect(hookd).toBe(native);
  });

  it("keeps what a hook wrote around them", () => {
    expect(normalize('🐧 sensitive-canary blocked; hook_run_id="stop:3:x"', {})).toBe('<bird> sensitive-canary blocked; hook_run_id="stop:<n>:x"');
  });
});
