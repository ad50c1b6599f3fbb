import { afterEach, describe, expect, it } from "vitest";
import { createPageParser, type PageParser } from "./page-parser.ts";

const section = (i: number) =>
  `<h2 id="s${i}">Section ${i}</h2><p>${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(8)}</p><ul><li>one</li><li><a href="p${i}.html">two</a></li></ul>`;
/** A page of `n` sections: 10,000 make 5.5 MB, about a second to parse on this machine. */
const bigPage = (n: number) =>
  Buffer.from(`<html><head><title>Big</title></head><body><h1>Big</h1>${Array.from({ length: n }, (_, i) => section(i)).join("\n")}</body></html>`);
const smallPage = Buffer.from(
  `<html><head><title>Small</title></head><body><h1 id="top">Small</h1><p>Vacuum reclaims storage occupied by dead tuples.</p></body></html>`,
);
const doc = { relPath: "page.html" };
const base = "https://docs.example/";

let parser: PageParser | undefined;
afterEach(() => parser?.close());

describe("page parser", () => {
  it("parses pages on its own thread: the event loop keeps turning while a large page is read", async () => {
    parser = createPageParser();
    await parser.parsePage(smallPage, doc, "s", base); // thread started
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const result = await parser.parsePage(bigPage(10_000), doc, "s", base);
    const took = performance.now() - started;
    clearInterval(ticker);
    longestGap = Math.max(longestGap, performance.now() - last); // a loop held to the end never ticked again
    expect("page" in result && result.page.chunks.length).toBeGreaterThan(1000);
    // On the server's thread the loop would stand still for the whole parse (about a second).
    expect(took).toBeGreaterThan(400);
    expect(longestGap).toBeLessThan(took / 2);
  });

  it("leaves out a page over the time limit and parses the next page on a fresh thread", async () => {
    parser = createPageParser({ timeLimitMs: 150 });
    await parser.parsePage(smallPage, doc, "s", base);
    const started = performance.now();
    // Over a limit, not unreadable: on a less busy machine it may pass, so a sync keeps what is indexed of it.
    expect(await parser.parsePage(bigPage(10_000), doc, "s", base)).toEqual({ skipped: "over-limit" });
    expect(performance.now() - started).toBeLessThan(1000);
    const next = await parser.parsePage(smallPage, doc, "s", base);
    expect("page" in next && next.page.chunks[0]?.text).toContain("dead tuples");
    expect(await parser.pageHrefs('<p><a href="a.html#x">a</a> <a href="../b.html">b</a> <a href="a.html">a</a></p>', "https://docs.example/guide/")).toEqual([
      "https://docs.example/guide/a.html",
      "https://docs.example/b.html",
    ]);
  });

  it("leaves out a page over the memory limit, and a page no parser can read, and goes on", async () => {
    parser = createPageParser({ memoryLimitMb: 64 });
    expect(await parser.parsePage(bigPage(20_000), doc, "s", base)).toEqual({ skipped: "over-limit" });
    expect(await parser.pageHrefs(`${"<div>".repeat(10_000)}<a href="x.html">x</a>`, base)).toBeNull();
    const next = await parser.parsePage(smallPage, doc, "s", base);
    expect("page" in next && next.page.url).toBe("https://docs.example/page.html");
  });

  it("resolves a page's links on its own thread, at most 10,000 of them", async () => {
    parser = createPageParser();
    const links = Array.from({ length: 50_000 }, (_, i) => `<a href="p${i}.html">${i}</a>`).join(" ");
    const hrefs = await parser.pageHrefs(`<html><body>${links}</body></html>`, base);
    expect(hrefs).toHaveLength(10_000);
    expect(hrefs?.[9_999]).toBe("https://docs.example/p9999.html");
  });

  it("answers queued pages in order, and close settles what is still waiting", async () => {
    parser = createPageParser();
    const pages = [smallPage, bigPage(50), smallPage].map((bytes, i) => parser!.parsePage(bytes, { relPath: `p${i}.html` }, "s", base));
    const urls = (await Promise.all(pages)).map((r) => ("page" in r ? r.page.url : r.skipped));
    expect(urls).toEqual(["https://docs.example/p0.html", "https://docs.example/p1.html", "https://docs.example/p2.html"]);
    const waiting = parser.parsePage(bigPage(10_000), doc, "s", base);
    await parser.close();
    expect(await waiting).toEqual({ skipped: "over-limit" });
  });
});
