// Loads the plugin kinds that live outside the engine: remote and managed gRPC plugins, and
// command hooks. Each kind's runtime is in daemon/src/plugins.
import { HookdError } from "@hookd/sdk";
import type { Logger } from "../ops/log.js";
import type { OtherKindLoader } from "./load-plugins.js";

export function loadOtherPlugin(_log: Logger): OtherKindLoader {
  return async (plugin) => {
    throw new HookdError("invalid_plugin", `plugin ${plugin.name}: kind "${plugin.kind}" is not wired in yet`);
  };
}
