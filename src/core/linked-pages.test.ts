import { describe, expect, it } from "vitest";
import { withLinkedPages } from "./linked-pages.ts";
import type { RankedPage } from "./rank-pages.ts";
import type { PageLink } from "./retriever.ts";

const page = (url: string, score: number, links: PageLink[] = []): RankedPage => ({
  url,
  anchor: "",
  title: url,
  sourceId: "s",
  score,
  coverage: 1,
  similarity: 0,
  chunks: [],
  links,
});
/** Links' words are the question's terms they hold, upper-cased; other words are lower-case. */
const link = (url: string, matched: string[]): PageLink => ({ url, text: matched.length ? matched.join(" ").toUpperCase() : "see also" });
const matches = (text: string) => text.split(" ").filter((w) => w && w === w.toUpperCase());
const order = (pages: RankedPage[]) => pages.map((p) => p.url);

describe("withLinkedPages", () => {
  it("raises a found page that a best page links to in the question's words, by a share of the linking page's score", () => {
    const pages = [page("a", 1.0, [link("f", ["partial"])]), page("b", 0.9), page("c", 0.85), page("d", 0.8), page("e", 0.75), page("f", 0.7)];
    const ranked = withLinkedPages(pages, matches);
    expect(order(ranked)).toEqual(["a", "f", "b", "c", "d", "e"]);
    expect(ranked[1]!.score).toBeCloseTo(0.95);
    expect(order(pages)).toEqual(["a", "b", "c", "d", "e", "f"]); // the input is left as it was
    expect(order(withLinkedPages(pages, undefined))).toEqual(order(pages)); // a retriever that cannot read links moves nothing
  });

  it("ignores links that name none of the question's words, to pages not found, to the page itself, and from pages below the best five", () => {
    const pages = [
      page("a", 1.0, [link("f", []), link("zz", ["partial"]), link("a", ["partial"])]),
      page("b", 0.9),
      page("c", 0.85),
      page("d", 0.8),
      page("e", 0.75),
      page("f", 0.7),
      page("g", 0.65, [link("f", ["partial"])]),
    ];
    expect(order(withLinkedPages(pages, matches))).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
  });

  it("counts the best vouching page, not how many link: a page many pages link to is not raised by numbers", () => {
    const linked = [link("f", ["plan"])];
    const pages = [page("a", 0.4, linked), page("b", 0.4, linked), page("c", 0.4, linked), page("d", 0.4, linked), page("e", 0.39), page("f", 0.3)];
    const ranked = withLinkedPages(pages, matches);
    expect(ranked.find((p) => p.url === "f")!.score).toBeCloseTo(0.4);
    expect(order(ranked).at(-1)).toBe("e");
  });
});
