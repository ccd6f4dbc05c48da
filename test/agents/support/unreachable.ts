// An in-process integration (hookd's OpenCode plugin, its pi extension) when hookd cannot answer:
// the gate events fail closed by default (the prompt is refused before the model sees it, nothing
// runs), fail open when configured, a setting it cannot read refuses rather than loading nothing,
// and each is said once on the agent's own output. One agent run per case, all at once.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
