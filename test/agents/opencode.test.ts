// OpenCode (pinned, installed by scripts/setup-agents.sh) with hookd's plugin installed from its
// packed tarball, when hookd cannot answer (support/unreachable.ts). The plugin answering is the
// shared scenarios' part (scenarios.test.ts).
import { runOpenCode } from "./support/opencode.js";
import { describeUnreachable } from "./support/unreachable.js";

describeUnreachable("OpenCode's hookd plugin", runOpenCode);
