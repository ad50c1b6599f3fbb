import { describe, expect, it } from "vitest";
import { isChangeLog, preferReferencePages } from "./page-kinds.ts";
import type { RankedPage } from "./rank-pages.ts";

const page = (url: string, score: number, title = ""): RankedPage => ({
  url,
  anchor: "",
  title,
  sourceId: "s",
  score,
  coverage: 1,
  similarity: 0,
  chunks: [],
  links: [],
});

describe("changelog pages", () => {
  it("knows changelogs, release notes and news by their usual names", () => {
    for (const url of [
      "https://flask.palletsprojects.com/en/2.2.x/changes.html",
      "https://requests.readthedocs.io/en/latest/community/updates.html",
      "https://docs.python.org/3.11/whatsnew/3.3.html",
      "https://www.sqlite.org/releaselog/3_22_0.html",
      "https://www.postgresql.org/docs/15/release-15-20.html",
    ])
      expect(isChangeLog(page(url, 1))).toBe(true);
    expect(isChangeLog(page("https://x/guide.html", 1, "Release Notes"))).toBe(true);
    for (const url of [
      "https://www.postgresql.org/docs/15/sql-altertable.html",
      "https://git-scm.com/docs/git-log.html",
      "https://docs.python.org/3.11/library/datetime.html",
    ])
      expect(isChangeLog(page(url, 1))).toBe(false);
  });

  it("ranks reference pages before them unless the question asks about versions or changes", () => {
    const pages = [page("https://x/changes.html", 1.0), page("https://x/api.html", 0.8), page("https://x/other.html", 0.3)];
    expect(preferReferencePages(pages, "How do I stream a response?").map((p) => p.url)).toEqual([
      "https://x/api.html",
      "https://x/changes.html",
      "https://x/other.html",
    ]);
    for (const q of ["What changed in version 2.2?", "Which release added streaming?", "Is this deprecated?", "What's new in 3.11?"])
      expect(preferReferencePages(pages, q)[0]!.url).toBe("https://x/changes.html");
  });
});
