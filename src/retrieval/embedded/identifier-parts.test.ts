import { describe, expect, it } from "vitest";
import { identifierParts } from "./identifier-parts.ts";

describe("identifierParts", () => {
  it("splits camelCase and PascalCase identifiers into words", () => {
    expect(identifierParts("Use ThreadPoolExecutor or fs.readFileSync, not HTTPServer.").split(" ").sort()).toEqual(
      ["executor", "file", "http", "pool", "read", "server", "sync", "thread"].sort(),
    );
    expect(identifierParts("plain words only")).toBe("");
  });
});
