// pi (pinned, installed by scripts/setup-agents.sh) with hookd's extension installed from its
// packed tarball, when hookd cannot answer (support/unreachable.ts). The extension answering is
// the shared scenarios' part (scenarios.test.ts).
import { runPi } from "./support/pi.js";
import { describeUnreachable } from "./support/unreachable.js";

describeUnreachable("pi's hookd extension", runPi);
