// A real `hookd serve` whose one in-process plugin observes the agent-event point (subscribed to
// the event names a test gives, so the subscription's matchers are exercised too) and turn-end,
// writing every call as a JSON line to HOOKD_OBSERVER_LOG: what a real agent's events looked like
// once they reached a hookd plugin (event name, dialect, payload, session; a turn's outcome).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startDaemon, writePluginModule } from "../../support/daemon-process.js";
import type { DaemonProcess } from "../../support/daemon-process.js";
import { freePort } from "./agents.js";

const source = (events: readonly string[]): string => `
import { appendFileSync } from "node:fs";
import { definePlugin } from "@hookd/sdk";
const log = (entry) => appendFileSync(process.env.HOOKD_OBSERVER_LOG, JSON.stringify(entry) + "\\n");
export default definePlugin({
  name: "event-observer",
  points: {
    "agent-event": {
      tools: ${JSON.stringify(events)},
      handler: (e) => log({ point: "agent-event", eventName: e.eventName, dialect: e.dialect, payload: e.payload, session: e.session }),
    },
    "turn-end": (e) => log({ point: "turn-end", outcome: e.outcome, detail: e.detail, session: e.session }),
  },
});
`;

export interface ObservedEntry {
  readonly point: "agent-event" | "turn-end";
  readonly session: { readonly sessionId: string; readonly agentId: string; readonly cwd: string };
  readonly eventName?: string;
  readonly dialect?: string;
  readonly payload?: Record<string, unknown>;
  readonly outcome?: string;
  readonly detail?: string;
}

export interface ObserverDaemon {
  readonly daemon: DaemonProcess;
  /** http://127.0.0.1:PORT, hookd's hook endpoint (http hooks and the forwarders). */
  readonly hookUrl: string;
  /** What the plugin observed so far, in order. */
  entries(): Promise<ObservedEntry[]>;
  stop(): Promise<void>;
}

/** `events`: the agent-event subscription's matchers (event names, whole-name globs). */
export async function startObserverDaemon(events: readonly string[]): Promise<ObserverDaemon> {
  const port = await freePort();
  const module = await writePluginModule("event-observer", source(events));
  const logPath = join(module, "..", "observer.jsonl");
  const daemon = await startDaemon({
    config: { http: { listen: `127.0.0.1:${port}` }, plugins: [{ name: "event-observer", kind: "in-process", module }] },
    env: { HOOKD_OBSERVER_LOG: logPath },
  });
  return {
    daemon,
    hookUrl: `http://127.0.0.1:${port}`,
    entries: async () =>
      (await readFile(logPath, "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as ObservedEntry),
    stop: async () => void (await daemon.stop()),
  };
}
