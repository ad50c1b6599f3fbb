import { describe, expect, it } from "vitest";
import { parsePage } from "./parse-page.ts";

/** MAX_HEADING_CHARS. */
const MAX_HEADING_CHARS = 300;

describe("parsePage", () => {
  it("cuts a hostile page's huge title and headings, which every passage repeats", () => {
    const huge = "T".repeat(200_000);
    const sections = Array.from({ length: 50 }, (_, i) => `<h2>${huge}${i}</h2><p>${`word${i} `.repeat(300)}</p>`).join("");
    const result = parsePage(
      Buffer.from(`<html><head><title>${huge}</title></head><body><h1>${huge}</h1>${sections}</body></html>`),
      { relPath: "p.html" },
      "s",
      "https://x/",
    );
    if (!("page" in result)) throw new Error("not parsed");
    const { chunks } = result.page;
    expect(chunks.length).toBeGreaterThanOrEqual(50);
    for (const chunk of chunks) {
      expect(chunk.title.length).toBeLessThanOrEqual(MAX_HEADING_CHARS);
      expect(chunk.title.endsWith("…")).toBe(true);
      // The path joins at most a few headings, each cut.
      expect(chunk.section.length).toBeLessThanOrEqual(4 * MAX_HEADING_CHARS);
    }
    expect(JSON.stringify(chunks).length).toBeLessThan(1_000_000);
  });
});
