// The conformance table (suite.ts) against the TypeScript flavours: the SDK over the stream and
// unary, and the raw grpc-js plugin. They run on every Node the tests run on, since the daemon and
// the TypeScript SDK under test run on that Node.
import { FLAVOURS, runConformance } from "./suite.js";

runConformance(FLAVOURS.filter((flavour) => flavour.lang === "typescript"));
