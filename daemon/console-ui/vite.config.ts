// Bundles the console page (daemon/console-ui) into daemon/dist/console-ui at build time, where
// the daemon's console server reads it (daemon/src/console/assets.ts): nothing is fetched when it runs.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("."),
  base: "/",
  logLevel: "warn",
  build: {
    outDir: here("../dist/console-ui"),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 1_000,
    rollupOptions: { input: { index: here("index.html"), login: here("login.html") } },
  },
});
