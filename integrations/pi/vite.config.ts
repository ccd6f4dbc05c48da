// Builds the extension to one ES module with the hookd SDK and its dependencies inside, so the
// packed tarball installs with no registry and pi loads it with no node_modules beside it.
// The SDK is bundled from its TypeScript sources ("source" condition), so no SDK build is needed first.
import { defineConfig } from "vite";

const conditions = ["source", "node", "import", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { noExternal: true, target: "node", resolve: { conditions, externalConditions: conditions } },
  build: {
    ssr: "src/index.ts",
    outDir: "dist",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: false,
    rollupOptions: { output: { format: "es", entryFileNames: "index.js" } },
  },
});
