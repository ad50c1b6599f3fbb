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

  it("keeps a page that holds only one other page (a newer version) and a passage with a sentence of its own", () => {
    const nine = Array.from({ length: 9 }, (_, i) => sentence("intro", i + 1));
    const v1 = page("v1", [nine.slice(0, 5).join(" "), nine.slice(5).join(" ")]);
    // The newer version cuts its text elsewhere and says one thing more: it gathers only v1, so it is no compilation.
    const v2 = page("v2", [nine.slice(0, 3).join(" "), nine.slice(3, 8).join(" "), `${nine[8]} ${sentence("new", 1)}`]);
    expect(textsOf(dropDuplicates([v1, v2]).pages, "v2")).toHaveLength(3);
    // A compilation of two pages (10 copied sentences, 1 of its own): the passage holding its own sentence stays.
    const five = (topic: string) => [1, 2, 3, 4, 5].map((n) => sentence(topic, n));
    const crypto = page("crypto", [five("crypto").join(" ")]);
    const fs = page("fs", [five("fs").join(" ")]);
    // Five copied sentences and one of its own: most of it is copied, yet it is the only place that sentence stands.
    const own = `${five("crypto").join("\n")}\n${sentence("only here", 1)}`;
    const all = page("all", [own, five("fs").join("\n"), `${sentence("fs", 1)}\n${sentence("crypto", 2)}`]);
    expect(textsOf(dropDuplicates([all, crypto, fs]).pages, "all")).toEqual([own]);
  });

  it("reads the source's unchanged pages as stored when only the all-in-one page changed", () => {
    const crypto = page("crypto", [`${sentence("crypto", 1)} ${sentence("crypto", 2)}`]);
    const fs = page("fs", [`${sentence("fs", 1)} ${sentence("fs", 2)}`]);
    const all = page("all", [`${sentence("crypto", 1)}\n${sentence("crypto", 2)}\n${sentence("fs", 1)}`, `${sentence("fs", 2)}\n${sentence("crypto", 1)}`]);
    expect(dropDuplicates([all]).pages.map((p) => p.url)).toEqual(["all"]);
    expect(dropDuplicates([all], [crypto, fs]).pages).toEqual([]);
  });

  it("leaves pages that share only part of their text whole (commands that include the same option lists)", () => {
    // git log is nearly all option lists that smaller commands include too, each of which also says something of its own:
    // nearly every sentence of it stands on a smaller page, yet it gathers none of them.
    const lists = ["diff", "pretty", "revs"].map((topic) => [1, 2, 3].map((n) => sentence(`${topic} option`, n)));
    const log = page("git-log", [
      `${sentence("log", 1)}\n${lists[0]!.join("\n")}`,
      lists[1]!.join("\n"),
      lists[2]!.join("\n"),
      `${lists[0]![0]}\n${lists[1]![0]}`,
    ]);
    const siblings = ["diff", "show", "rev-list"].map((name, i) => page(`git-${name}`, [`${sentence(name, 1)}\n${lists[i]!.join("\n")}`, sentence(name, 2)]));
    const { pages } = dropDuplicates([log, ...siblings]);
    expect(textsOf(pages, "git-log")).toEqual(log.chunks.map((c) => c.text));
    for (const sibling of siblings) expect(textsOf(pages, sibling.url)).toEqual(sibling.chunks.map((c) => c.text));
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
