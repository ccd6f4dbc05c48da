// The hook settings the docs tell users to paste (hooks-examples/claude-code/README.md), read
// from the README itself so the real-agent tests run exactly what is documented: the snippet's
// `hookd-hook` becomes the built C forwarder (or the node one) and its URL the test daemon's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";
import { C_FORWARDER, NODE_FORWARDER } from "./agents.js";
import type { HookPath } from "./agents.js";

const README = join(REPO, "hooks-examples/claude-code/README.md");
const DOC_URL = "http://127.0.0.1:8787";

type Hooks = Record<string, unknown>;

function blocks(): Hooks[] {
  const text = readFileSync(README, "utf8");
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].flatMap((match) => {
    try {
      const parsed = JSON.parse(match[1] ?? "") as { hooks?: Hooks };
      return parsed.hooks === undefined ? [] : [parsed.hooks];
    } catch {
      return [];
    }
  });
}

/** The documented snippet: Claude Code's http hooks, or Codex's hooks.json. */
export function documentedHooks(which: "claude-code-http" | "codex"): Hooks {
  const found = blocks().find((hooks) => {
    const text = JSON.stringify(hooks);
    return which === "codex" ? text.includes("--dialect codex") : text.includes('"type":"http"') && "UserPromptSubmit" in hooks;
  });
  if (found === undefined) throw new Error(`${README} has no ${which} snippet`);
  return found;
}

/** The snippet with its forwarder and URL made concrete for a test run. */
export function concrete(hooks: Hooks, forwarder: Exclude<HookPath, "http">, hookdUrl: string): Hooks {
  const exe = forwarder === "c-forwarder" ? C_FORWARDER : `${process.execPath} ${NODE_FORWARDER}`;
  const text = JSON.stringify(hooks).replaceAll("hookd-hook ", `${exe} `).replaceAll(DOC_URL, hookdUrl);
  return JSON.parse(text) as Hooks;
}
