// Plugin modules may live anywhere (/etc/hookd/plugins/, with no node_modules beside them), yet
// they import "@hookd/sdk". A module resolve hook (node:module register) resolves that specifier
// and its subpaths as if the daemon itself imported them, so every plugin gets the daemon's own
// copy: the same HookdError and definePlugin the daemon checks against. Other specifiers resolve
// as usual. Registered once per thread that imports plugins: the main thread and each worker.
import { register } from "node:module";

/** The hook, as a data: URL so it needs no file of its own (and loads the same from src and dist). */
const HOOK = `
let daemonURL;
export function initialize(data) { daemonURL = data.daemonURL; }
export function resolve(specifier, context, nextResolve) {
  if (specifier === "@hookd/sdk" || specifier.startsWith("@hookd/sdk/")) return nextResolve(specifier, { ...context, parentURL: daemonURL });
  return nextResolve(specifier, context);
}
`;

let registered = false;

/** Makes "@hookd/sdk" in plugin modules resolve to the daemon's copy, from now on in this thread. Idempotent. */
export function resolveSdkForPlugins(): void {
  if (registered) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { daemonURL: import.meta.url } });
}
