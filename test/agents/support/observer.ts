// A second in-process plugin for startPolicyDaemon({ plugins }): it writes every agent-event it
// is given (the agent's event name and whole payload) and every turn-end to the policy's log, so a
// test can tell which of an agent's untyped events reached hookd and how a turn ended; and it
// refuses the approval of a command carrying its mark. It runs before agent-policy at approval
// (same priority; its name sorts first), so its refusal is the waterfall's answer there.
import type { PolicyEntry } from "./policy.js";

export const OBSERVER_MARK = {
  refuseApproval: "REFUSE-APPROVAL-2c7",
  refuseReason: "hookd-observer: this approval is refused",
} as const;

const SOURCE = `
import { appendFileSync } from "node:fs";
import { definePlugin, pass, reject } from "@hookd/sdk";
const MARK = ${JSON.stringify(OBSERVER_MARK)};
const log = (point, e, extra) =>
  appendFileSync(process.env.HOOKD_AGENT_LOG, JSON.stringify({ point, session: e.session, ...extra }) + "\\n");
export default definePlugin({
  name: "agent-observer",
  points: {
    "agent-event": (e) => log("agent-event", e, { eventName: e.eventName, dialect: e.dialect, payload: e.payload }),
    "turn-end": (e) => log("turn-end", e, { outcome: e.outcome, detail: e.detail }),
    approval: (e) => {
      const command = String(e.call.arguments.command ?? e.call.arguments.cmd ?? "");
      if (!command.includes(MARK.refuseApproval)) return pass();
      log("approval-refused", e, { tool: e.call.toolName, command });
      return reject(MARK.refuseReason);
    },
  },
});
`;

export const OBSERVER_PLUGIN = { name: "agent-observer", source: SOURCE } as const;

/** A policy-log line, with what the observer adds. */
export interface ObservedEntry extends PolicyEntry {
  readonly eventName?: string;
  readonly dialect?: string;
  readonly payload?: { readonly [key: string]: unknown };
  readonly outcome?: string;
  readonly detail?: string;
}

/** The agent-event entries for one event name, in order. */
export function observed(entries: readonly PolicyEntry[], eventName: string): ObservedEntry[] {
  return (entries as readonly ObservedEntry[]).filter((e) => e.point === "agent-event" && e.eventName === eventName);
}
