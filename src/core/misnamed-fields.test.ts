import { describe, expect, it } from "vitest";
import { misnamedField } from "./misnamed-fields.ts";

describe("a field that reads as one of docent's own", () => {
  it("is found by its words, whatever the case or separator", () => {
    for (const name of ["source", "Sources", "knowledge_sources", "sourceIds", "source-ids", "data_sources"])
      expect(misnamedField(name)?.field, name).toBe("sources");
    for (const name of ["include_reference", "includeReferences", "refs"]) expect(misnamedField(name)?.field, name).toBe("include_references");
  });

  it("is not any name that merely holds the letters", () => {
    for (const name of ["resource", "preferences", "resources_hint", "top_k", "sourcemap", "referrer"]) expect(misnamedField(name), name).toBeNull();
  });
});
