// The console page: the files `npm run build` bundles into daemon/dist/console-ui (vite, from
// daemon/console-ui), read into memory once at start. Only those files are served, by exact
// path: nothing the request names reaches the file system. Owns the bundle's location and types.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the build puts the bundle: resolved the same from daemon/src/console and daemon/dist/console. */
export const DEFAULT_ASSET_DIR = fileURLToPath(new URL("../../dist/console-ui/", import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
};

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/** URL path ("/", "/assets/main-x.js") → file. Throws, naming the build step, when the bundle is missing. */
export function loadAssets(dir: string = DEFAULT_ASSET_DIR): ReadonlyMap<string, Asset> {
  if (!existsSync(join(dir, "index.html"))) {
    throw new Error(`console: the page is not built (no ${join(dir, "index.html")}); run \`npm run build\``);
  }
  const assets = new Map<string, Asset>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else assets.set(`/${relative(dir, path).split(sep).join("/")}`, { body: readFileSync(path), type: TYPES[extname(name)] ?? "application/octet-stream" });
    }
  };
  walk(dir);
  const index = assets.get("/index.html");
  if (index !== undefined) assets.set("/", index);
  return assets;
}
