import { describe, expect, it } from "vitest";
import type { PageChunks } from "../core/retriever.ts";
import { dropDuplicates } from "./drop-duplicates.ts";

const page = (url: string, texts: string[]): PageChunks => ({
  url,
  hash: url,
  chunks: texts.map((text) => ({ sourceId: "s", url, anchor: "", title: url, section: "", text })),
});
const sentence = (topic: string, n: number) => `The ${topic} module documents behaviour number ${n} at some length here.`;
const textsOf = (pages: PageChunks[], url: string) => pages.find((p) => p.url === url)?.chunks.map((c) => c.text) ?? [];

describe("dropDuplicates", () => {
  it("keeps a passage that stands on two pages only on the one with fewer passages", () => {
    const shared = sentence("crypto", 1);
    const { pages } = dropDuplicates([page("all", [shared, sentence("x", 1), sentence("x", 2)]), page("crypto", [shared])]);
    expect(textsOf(pages, "crypto")).toEqual([shared]);
    expect(textsOf(pages, "all")).toEqual([sentence("x", 1), sentence("x", 2)]);
  });

  it("drops the passages of an all-in-one page cut at other places than the pages it gathers", () => {
    const crypto = [`${sentence("crypto", 1)} ${sentence("crypto", 2)}`, `${sentence("crypto", 3)} ${sentence("crypto", 4)}`];
    const fs = [`${sentence("fs", 1)} ${sentence("fs", 2)}`, `${sentence("fs", 3)} ${sentence("fs", 4)}`];
    // The compilation's passages straddle the modules' seams: none is identical to a module's passage.
    const all = [
      `${sentence("crypto", 1)}\n${sentence("crypto", 2)}\n${sentence("crypto", 3)}`,
      `${sentence("crypto", 4)}\n${sentence("fs", 1)}`,
      `${sentence("fs", 2)}\n${sentence("fs", 3)}\n${sentence("fs", 4)}`,
      `${sentence("crypto", 1)}\n${sentence("fs", 1)}\n${sentence("crypto", 2)}\n${sentence("fs", 2)}`,
    ];
    const { pages, duplicates } = dropDuplicates([page("all", all), page("crypto", crypto), page("fs", fs)]);
    expect(pages.map((p) => p.url)).toEqual(["crypto", "fs"]);
    expect(duplicates).toBe(1);
    // A passage of its own keeps a compilation's page in the index, with only that passage.
    const os = [`${sentence("os", 1)} ${sentence("os", 2)}`];
    const withOwn = dropDuplicates([
      page("all", [...all, `${sentence("os", 1)}\n${sentence("os", 2)}`, sentence("about", 1)]),
      page("crypto", crypto),
      page("fs", fs),
      page("os", os),
    ]);
    expect(textsOf(withOwn.pages, "all")).toEqual([sentence("about", 1)]);
  });

  it("leaves pages that share only part of their text whole (commands that include the same option list)", () => {
    const options = [sentence("options", 1), sentence("options", 2)].join(" ");
    const log = page("git-log", [`${sentence("log", 1)} ${sentence("log", 2)}`, `${sentence("log", 3)}\n${options}`, sentence("log", 4)]);
    const show = page("git-show", [sentence("show", 1), `${options}\n${sentence("show", 2)}`]);
    const { pages } = dropDuplicates([log, show]);
    expect(textsOf(pages, "git-log")).toEqual(log.chunks.map((c) => c.text));
    expect(textsOf(pages, "git-show")).toEqual(show.chunks.map((c) => c.text));
  });

  it("reads a footer every page repeats as boilerplate, in time linear in the pages", () => {
    const footer = "If you see anything in the documentation that is not correct, please tell us.";
    // Pages of one and of two passages: every larger page would be compared with every smaller one through the footer.
    const many = Array.from({ length: 8_000 }, (_, i) =>
      page(`p${i}`, i % 2 ? [`${sentence(`topic${i}`, 1)}\n${footer}`, sentence(`topic${i}`, 2)] : [`${sentence(`topic${i}`, 1)}\n${footer}`]),
    );
    const started = performance.now();
    const { pages } = dropDuplicates(many);
    expect(pages).toHaveLength(8_000);
    // 16 million pairs took seconds; a generous bound for a slow machine.
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
