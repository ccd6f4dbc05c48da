// Which code an in-process or worker plugin runs. ESM caches a module by its URL for the life of
// the thread, so importing the same file again returns the first code forever. Plugin modules are
// imported at `file://<path>?v=<hash of its content>`: a changed file is a new URL, hence a new
// module; an unchanged one keeps its instance. Limit: only the plugin's own file is versioned;
// modules it imports are cached by their own URLs, so a change in one of them alone needs a
// restart (README, "Writing plugins").
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** What moduleVersion answers for a file that cannot be read: never equal to a loaded version. */
export const UNREADABLE = "unreadable";

/** A short hash of the file's content (sha256, 16 hex digits); UNREADABLE when it cannot be read. */
export function moduleVersion(path: string): string {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);
  } catch {
    return UNREADABLE;
  }
}

/** The URL a plugin module is imported at: its file URL, with the version as its query. */
export function moduleURL(path: string, version: string | undefined): string {
  const url = pathToFileURL(path);
  if (version !== undefined) url.search = `v=${version}`;
  return url.href;
}
