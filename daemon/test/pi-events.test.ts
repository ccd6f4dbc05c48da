// pi's event table in the daemon (agents/pi/) and what hookd's pi extension (integrations/pi)
// forwards must be the same list, as for OpenCode (opencode-events.test.ts).
import { describe, expect, it } from "vitest";
import { ANSWERED_EVENTS, OBSERVED_EVENTS } from "../../integrations/pi/src/forwarded.js";
import { PI_EVENTS } from "../src/agents/pi/index.js";

describe("pi's event table", () => {
  it("lists exactly the events hookd's pi extension answers and forwards", () => {
    expect(Object.keys(PI_EVENTS).sort()).toEqual([...ANSWERED_EVENTS, ...OBSERVED_EVENTS].sort());
  });
});
