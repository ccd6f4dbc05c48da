// The conformance table (suite.ts) against the Python and Go flavours: their SDKs over both
// transports and their raw stubs. Run once, on the Node running npm: these plugins are the same
// programs whatever Node runs the daemon, which typescript.test.ts covers on every Node.
import { FLAVOURS, runConformance } from "./suite.js";

runConformance(FLAVOURS.filter((flavour) => flavour.lang !== "typescript"));
