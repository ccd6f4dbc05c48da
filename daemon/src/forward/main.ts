#!/usr/bin/env node
// The standalone entry of `hookd hook` (dist/forward/main.js): what an agent's command hook
// runs when start-up time matters. Loads only ./hook.js (node:http); sets the exit code instead
// of calling process.exit so stdout is flushed.
import { runHookForwarder } from "./hook.js";

void runHookForwarder(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
