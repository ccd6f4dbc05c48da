// An in-process integration (hookd's OpenCode plugin, its pi extension) when hookd cannot answer:
// the gate events fail closed by default (the prompt is refused before the model sees it, nothing
// runs), fail open when configured, a setting it cannot read refuses rather than loading nothing,
// and each is said once on the agent's own output. One agent run per case, all at once. And a
// hookd that holds a call past the integration's deadline: the call is refused, the turn goes on.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLDING_PLUGIN, startDaemon, writePluginModule } from "../../support/daemon-process.js";
import type { DaemonProcess } from "../../support/daemon-process.js";
import { startFakeModel, scripted } from "../fake-model/server.js";
import type { FakeModel } from "../fake-model/server.js";
import { tempDir } from "./agents.js";
import type { AgentRun } from "./agents.js";

const HARMLESS = "echo harmless-ran > harmless.txt";

/** Runs the agent headless on `prompt`, its integration's settings in `env`. */
export type IntegrationRun = (options: { home: string; cwd: string; modelUrl: string; prompt: string; env: NodeJS.ProcessEnv }) => Promise<AgentRun>;

interface Unanswered {
  readonly run: AgentRun;
  readonly ran: boolean;
  readonly model: FakeModel;
}

const said = (run: AgentRun, text: string): number => run.stderr.split("\n").filter((line) => line.includes(text)).length;

export function describeUnreachable(title: string, runAgent: IntegrationRun): void {
  /** The agent asked to run one harmless command, its integration's hookd a socket nobody listens on. */
  const withoutHookd = async (env: NodeJS.ProcessEnv): Promise<Unanswered> => {
    const model = await startFakeModel(scripted([{ kind: "shell", command: HARMLESS }]));
    const home = await tempDir("unreachable-home");
    const cwd = await tempDir("unreachable-cwd");
    const run = await runAgent({ home, cwd, modelUrl: model.url, prompt: "Run the harmless command, then tell me DONE.", env: { HOOKD_TARGET: `unix://${join(home, "no-hookd.sock")}`, ...env } });
    return { run, ran: existsSync(join(cwd, "harmless.txt")), model };
  };

  describe(`${title} when hookd is unreachable`, () => {
    const runs: Partial<Record<"closed" | "open" | "misconfigured", Unanswered>> = {};

    beforeAll(async () => {
      const [closed, open, misconfigured] = await Promise.all([withoutHookd({}), withoutHookd({ HOOKD_FAIL_OPEN: "1" }), withoutHookd({ HOOKD_FAIL_OPEN: "yes" })]);
      Object.assign(runs, { closed, open, misconfigured });
    }, 180_000);

    afterAll(async () => {
      await Promise.all(Object.values(runs).map((r) => r.model.close()));
    });

    const get = (name: keyof typeof runs): Unanswered => {
      const found = runs[name];
      if (found === undefined) throw new Error(`no ${name} run`);
      return found;
    };

    it("fails closed by default: the prompt is refused before the model sees it, nothing runs, and it says why once", () => {
      const { run, ran, model } = get("closed");
      expect(ran).toBe(false);
      expect(said(run, "tool calls and prompts are refused until it answers (set HOOKD_FAIL_OPEN=1 to let them through)"), run.stderr.slice(-2000)).toBe(1);
      expect(model.conversations()).toEqual([]);
    });

    it("fails open with HOOKD_FAIL_OPEN=1: the command runs, and it says so once", () => {
      const { run, ran } = get("open");
      expect(ran, run.stderr.slice(-2000)).toBe(true);
      expect(said(run, "tools run without hookd's checks (HOOKD_FAIL_OPEN is set)")).toBe(1);
    });

    it("refuses on a setting it cannot read instead of running unguarded, naming the variable", () => {
      const { run, ran, model } = get("misconfigured");
      expect(ran).toBe(false);
      expect(model.conversations()).toEqual([]);
      expect(said(run, 'HOOKD_FAIL_OPEN must be 1, true, 0 or false, got "yes"')).toBeGreaterThanOrEqual(1);
    });
  });
}

/** The agent's tool call held by a hookd plugin that never answers it, the integration's deadline short. */
export function describeDeadline(title: string, runAgent: IntegrationRun): void {
  describe(`${title} when hookd holds a call past the deadline`, () => {
    let daemon: DaemonProcess | undefined;
    let model: FakeModel | undefined;
    let run: AgentRun;
    let log = "";

    beforeAll(async () => {
      const module = await writePluginModule("holding", HOLDING_PLUGIN);
      log = join(module, "..", "held.log");
      // The release file is never written: the plugin holds the call until the daemon stops.
      daemon = await startDaemon({ config: { plugins: [{ name: "holding", kind: "in-process", module }] }, env: { HOOKD_TEST_LOG: log, HOOKD_TEST_RELEASE: join(module, "..", "never") } });
      model = await startFakeModel(scripted([{ kind: "shell", command: "hold" }]));
      const home = await tempDir("held-home");
      run = await runAgent({ home, cwd: await tempDir("held-cwd"), modelUrl: model.url, prompt: "Run hold, then tell me DONE.", env: { HOOKD_TARGET: daemon.target, HOOKD_DEADLINE_MS: "2000" } });
    }, 180_000);

    afterAll(async () => {
      await model?.close();
      await daemon?.stop();
    });

    it("refuses the held call once its deadline passes, the model gets why, and the turn goes on", () => {
      expect(existsSync(log) && readFileSync(log, "utf8").includes("started")).toBe(true);
      const results = model?.conversations().flatMap((c) => c.toolResults) ?? [];
      expect(results.some((text) => text.includes("hookd did not answer") && text.includes("(fail-closed)")), run.stderr.slice(-2000)).toBe(true);
      expect(run.code).toBe(0);
    });
  });
}
