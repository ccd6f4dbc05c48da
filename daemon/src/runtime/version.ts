// The daemon's version: read once from its own package.json (beside src/ and dist/, and shipped by
// deploy/install.sh's npm install), so Describe, status and logs never drift from the release.
import { readFileSync } from "node:fs";

function packageVersion(): string {
  const url = new URL("../../package.json", import.meta.url);
  const parsed: unknown = JSON.parse(readFileSync(url, "utf8"));
  const version = typeof parsed === "object" && parsed !== null && "version" in parsed ? parsed.version : undefined;
  if (typeof version !== "string" || version === "") throw new Error(`${url.pathname}: no "version" string`);
  return version;
}

export const DAEMON_VERSION: string = packageVersion();
