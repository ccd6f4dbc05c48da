// The HTTP endpoint's agents as `hookd status` counts them: each once, while its hooks arrive and
// for the window after its last one, leaving out agents already counted by a hosted session.
import { describe, expect, it } from "vitest";
import { ActiveAgents } from "../src/http/active-agents.js";

describe("ActiveAgents", () => {
  it("counts each agent once, until the window after its last hook has passed", () => {
    const agents = new ActiveAgents(1_000);
    agents.seen("a", 0);
    agents.seen("b", 500);
    agents.seen("a", 900);
    expect(agents.count(1_000)).toBe(2);
    // b's window is over at 1501; a, seen again at 900, stays until 1900.
    expect(agents.count(1_600)).toBe(1);
    expect(agents.count(1_901)).toBe(0);
    agents.seen("b", 2_000);
    expect(agents.count(2_000)).toBe(1);
  });

  it("leaves out agents counted elsewhere (a hosted session of the same agent)", () => {
    const agents = new ActiveAgents(1_000);
    agents.seen("a", 0);
    agents.seen("b", 0);
    expect(agents.count(10, (id) => id === "a")).toBe(1);
  });

  it("keeps the order of last sight when the same agent repeats and after it was pruned", () => {
    const agents = new ActiveAgents(1_000);
    agents.seen("a", 0);
    agents.seen("a", 100);
    agents.seen("b", 200);
    // a, pruned at 1101, comes back: it is the youngest again, b the oldest.
    expect(agents.count(1_150)).toBe(1);
    agents.seen("a", 1_150);
    agents.seen("a", 1_190);
    expect(agents.count(1_201)).toBe(1);
    expect(agents.count(2_100)).toBe(1);
    expect(agents.count(2_191)).toBe(0);
  });
});
