// pi (pinned, installed by scripts/setup-agents.sh) with hookd's extension installed from its
// packed tarball, when hookd cannot answer or holds a call past the deadline
// (support/unreachable.ts). The extension answering is the shared scenarios' part.
import { runPi } from "./support/pi.js";
import { describeDeadline, describeUnreachable } from "./support/unreachable.js";

describeUnreachable("pi's hookd extension", runPi);
describeDeadline("pi's hookd extension", runPi);
