import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

// Lint and format are part of `npm test`, so CI (which runs exactly `npm test`) holds every commit to them.
describe("code style", () => {
  it("passes `biome ci` (format, lint, import order; `npm run format` fixes most of it)", () => {
    const run = spawnSync(path.join(root, "node_modules", ".bin", "biome"), ["ci", ".", "--error-on-warnings", "--colors=off"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(run.error).toBeUndefined();
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
