import { defineConfig } from "vitest/config";

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module): Node picks the CJS build for
  // Pothos and Yoga, so tests must too, or two copies of graphql meet.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
