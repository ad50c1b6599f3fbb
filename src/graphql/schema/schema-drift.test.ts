import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SCHEMA_FILE } from "../print-schema.ts";
import { printedSchema } from "./index.ts";

describe("schema.graphql", () => {
  it("matches the schema built from the code (run `npm run schema` after changing it)", () => {
    expect(fs.readFileSync(SCHEMA_FILE, "utf8")).toBe(printedSchema());
  });
});
