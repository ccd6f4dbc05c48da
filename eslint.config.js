// Type-aware lint that catches real bugs: floating promises, misused promises, `any` leaks, switches that miss a case.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "sdk/src/gen/**", "**/*.js", "**/*.mjs", "hooks-examples/python/**", "hooks-examples/go/**", "daemon/templates/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: "./tsconfig.check.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/require-await": "off",
      // A switch over a union names every member or has a default. The defaults that remain handle
      // open sets on purpose (proto enums from the wire, grpc status codes, zod's issue codes,
      // typeof); closed unions of our own end in a `never` check or list every case.
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: true, allowDefaultCaseForExhaustiveSwitch: true },
      ],
    },
  },
  // The console page runs in a browser: its own project (DOM types, bundler resolution).
  {
    files: ["daemon/console-ui/src/**/*.ts"],
    languageOptions: { parserOptions: { project: "./daemon/console-ui/tsconfig.json", tsconfigRootDir: import.meta.dirname } },
  },
);
