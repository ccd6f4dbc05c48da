// OpenCode (pinned, installed by scripts/setup-agents.sh) with hookd's plugin installed from its
// packed tarball, when hookd cannot answer or holds a call past the deadline
// (support/unreachable.ts). The plugin answering is the shared scenarios' part.
import { runOpenCode } from "./support/opencode.js";
import { describeDeadline, describeUnreachable } from "./support/unreachable.js";

describeUnreachable("OpenCode's hookd plugin", runOpenCode);
describeDeadline("OpenCode's hookd plugin", runOpenCode);
