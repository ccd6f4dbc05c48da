// /etc/hookd/plugins/policy.mjs: the example policy deploy/hookd.yaml loads in-process. It denies
// a recursive remove of the root directory and has no opinion on anything else (pass: the next
// plugin, or the agent's own rules, decide). Plain JavaScript, loaded as is; `@hookd/sdk` resolves
// to the daemon's own copy wherever this file lives. Edit it, then `systemctl reload hookd`.
import { definePlugin, deny, pass } from "@hookd/sdk";

const RECURSIVE_REMOVE_OF_ROOT = /(^|[;&|]\s*)(sudo\s+)?rm\s+(-\w*[rR]\w*\s+|--recursive\s+)+(-\S+\s+)*\/(\s|$|\*)/;

export default definePlugin({
  name: "policy",
  version: "1.0.0",
  points: {
    "pre-tool": {
      tools: ["Bash", "shell", "run_shell_command"],
      handler: (event) => {
        const command = event.call.arguments?.command;
        const text = Array.isArray(command) ? command.join(" ") : String(command ?? "");
        return RECURSIVE_REMOVE_OF_ROOT.test(text) ? deny("policy: a recursive remove of / is never run") : pass();
      },
    },
  },
});
