import { describe, expect, it } from "vitest";
import { englishAnalyzer } from "../text/english-analyzer.ts";
import { retrievalQuery } from "./conversation-query.ts";

describe("retrievalQuery", () => {
  it("uses the last question alone when it stands on its own", () => {
    expect(
      retrievalQuery(
        [
          { role: "user", content: "How do I create a table?" },
          { role: "assistant", content: "Use CREATE TABLE." },
          { role: "user", content: "How do I rank full text search results by relevance?" },
        ],
        englishAnalyzer,
      ),
    ).toBe("How do I rank full text search results by relevance?");
  });
  it("carries the subject over into a short follow-up", () => {
    const query = retrievalQuery(
      [
        { role: "user", content: "How do I create an index on a table?" },
        { role: "assistant", content: "Use CREATE INDEX." },
        { role: "user", content: "and how do I drop it?" },
      ],
      englishAnalyzer,
    );
    expect(query).toContain("drop");
    expect(query).toContain("index");
  });
});
