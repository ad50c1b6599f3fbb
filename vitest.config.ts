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
    // Test files share one module registry: each file re-importing the service's modules cost
    // about a minute of CPU per hundred files (import 123 s of a 701 s run; isolated, 420 s).
    // No module keeps per-test state; a test that needs fresh modules resets them (warm-up.test.ts).
    isolate: false,
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
