import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress } from "../src/ingest/address-guard.ts";
import { crawl } from "../src/ingest/crawl.ts";
import { parseRobots } from "../src/ingest/robots.ts";
import { tempDir } from "./support/test-server.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const page = (title: string, body: string) => `<html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** A local static documentation site: never the internet. */
function site(files: Record<string, string>, { failFirst = new Set<string>() } = {}) {
  const hits: string[] = [];
  const failed = new Set<string>();
  const server = http.createServer((req, res) => {
    const p = req.url!.split("?")[0]!;
    hits.push(p);
    if (failFirst.has(p) && !failed.has(p)) {
      failed.add(p);
      res.writeHead(503).end();
      return;
    }
    const body = files[p];
    if (body === undefined) {
      res.writeHead(404).end("not found");
      return;
    }
    const type = p.endsWith(".txt") ? "text/plain" : p.endsWith(".xml") ? "application/xml" : p.endsWith(".md") ? "text/markdown" : "text/html";
    res.writeHead(200, { "content-type": type }).end(body);
  });
  return {
    server,
    hits,
    listen: () => new Promise<string>((r) => server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
  };
}

const docsSite = {
  "/robots.txt": "User-agent: *\nDisallow: /docs/private/\n",
  "/docs/": page(
    "Home",
    `<p>Welcome.</p><a href="guide.html">Guide</a> <a href="api/ref.html#x">Ref</a> <a href="private/secret.html">Secret</a> <a href="../outside.html">Out</a> <a href="genindex.html">Index</a> <a href="flaky.html">Flaky</a>`,
  ),
  "/docs/guide.html": page("Guide", `<p>The guide explains configuration in detail.</p><a href="/docs/">Home</a>`),
  "/docs/api/ref.html": page("Reference", "<p>The reference lists every function.</p>"),
  "/docs/private/secret.html": page("Secret", "<p>Robots say no.</p>"),
  "/docs/genindex.html": page("Index", "<p>index page</p>"),
  "/docs/flaky.html": page("Flaky", "<p>Answers on the second try.</p>"),
  "/outside.html": page("Outside", "<p>Out of scope.</p>"),
};

describe("crawler", () => {
  let base: string;
  let s: ReturnType<typeof site>;
  beforeAll(async () => {
    s = site(docsSite, { failFirst: new Set(["/docs/flaky.html"]) });
    base = await s.listen();
  });
  afterAll(() => new Promise<void>((r) => s.server.close(() => r())));

  it("follows links within the folder, honours robots.txt, skips non-content pages and retries failures", async () => {
    const docs = [];
    for await (const doc of crawl({ url: `${base}/docs/`, concurrency: 2, retries: 2 })) docs.push(doc);
    expect(docs.map((d) => d.url).sort()).toEqual([`${base}/docs/`, `${base}/docs/api/ref.html`, `${base}/docs/flaky.html`, `${base}/docs/guide.html`].sort());
    expect(s.hits).not.toContain("/docs/private/secret.html");
    expect(s.hits).not.toContain("/outside.html");
    expect(s.hits.filter((h) => h === "/docs/flaky.html")).toHaveLength(2);
    expect((await docs.find((d) => d.url!.endsWith("guide.html"))!.read()).toString()).toContain("configuration in detail");
  });

  it("connects only to public addresses unless the site is written as internal or the operator allows it: DNS, the site's, never decides", async () => {
    const port = new URL(base).port;
    const answering = (addresses: string[]) =>
      ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        options.all
          ? callback(
              null,
              addresses.map((address) => ({ address, family: 4 })),
            )
          : callback(null, addresses[0], 4)) as unknown as NonNullable<Parameters<typeof crawl>[0]["lookup"]>;
    const crawlAll = async (lookup: ReturnType<typeof answering>, allowInternal?: boolean) => {
      const urls = [];
      for await (const doc of crawl({ url: `http://docs.example:${port}/docs/`, lookup, retries: 2, allowInternal })) urls.push(doc.url);
      return urls;
    };
    const before = s.hits.length;
    // A public name that resolves to this machine (rebound before a sync, or a public and a private answer together) is refused, not retried.
    for (const addresses of [["127.0.0.1"], ["93.184.215.14", "127.0.0.1"]]) {
      await expect(crawlAll(answering(addresses))).rejects.toThrow(
        `Could not reach http://docs.example:${port}/docs/: docs.example resolves to 127.0.0.1, an internal address, which the crawler does not reach unless CRAWL_ALLOW_INTERNAL=1.`,
      );
    }
    expect(s.hits.length).toBe(before);
    // CRAWL_ALLOW_INTERNAL (an intranet's docs): the operator's choice, crawled through the same lookup.
    expect(await crawlAll(answering(["127.0.0.1"]), true)).toContain(`http://docs.example:${port}/docs/guide.html`);
  });

  it("tells public addresses from internal ones, IPv4 and IPv6, mapped or not", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"]) expect([address, isPublicAddress(address)]).toEqual([address, true]);
    const internal = [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      "not an address",
    ];
    for (const address of internal) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });

  it("stops at the page limit", async () => {
    const docs = [];
    for await (const doc of crawl({ url: `${base}/docs/`, maxPages: 2 })) docs.push(doc);
    expect(docs).toHaveLength(2);
  });

  it("uses the sitemap when there is one, finding pages no link reaches", async () => {
    const files: Record<string, string> = {
      "/docs/index.html": page("Home", "<p>home</p>"),
      "/docs/only-in-sitemap.html": page("Hidden", "<p>Linked from nowhere.</p>"),
    };
    const mapped = site(files);
    const url = await mapped.listen();
    files["/docs/sitemap.xml"] =
      `<?xml version="1.0"?><urlset><url><loc>${url}/docs/only-in-sitemap.html</loc></url><url><loc>${url}/docs/index.html</loc></url></urlset>`;
    const docs = [];
    for await (const doc of crawl({ url: `${url}/docs/index.html` })) docs.push(doc.url);
    await new Promise<void>((r) => mapped.server.close(() => r()));
    expect(docs.sort()).toEqual([`${url}/docs/index.html`, `${url}/docs/only-in-sitemap.html`]);
  });

  it("starts from a folder named without its slash, as servers redirect it (/guide → /guide/)", async () => {
    const guide = http.createServer((req, res) => {
      if (req.url === "/guide") return void res.writeHead(301, { location: "/guide/" }).end();
      // Both pages also link to the folder without its slash: still one page.
      const body = {
        "/guide/": page("Guide", `<p>Start here.</p><a href="install.html">Install</a> <a href="/guide">Home</a>`),
        "/guide/install.html": page("Install", `<p>Run the installer.</p><a href="/guide">Home</a>`),
      }[req.url!];
      if (body) res.writeHead(200, { "content-type": "text/html" }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => guide.listen(0, "127.0.0.1", () => r()));
    const root = `http://127.0.0.1:${(guide.address() as AddressInfo).port}`;
    const docs = [];
    for await (const doc of crawl({ url: `${root}/guide` })) docs.push(doc);
    await new Promise<void>((r) => guide.close(() => r()));
    expect(docs.map((d) => [d.url, d.relPath]).sort()).toEqual([
      [`${root}/guide/`, "index.html"],
      [`${root}/guide/install.html`, "install.html"],
    ]);
  });

  it("sources add --url ingests the site, and an unreachable URL fails with no source left", async () => {
    const dataDir = tempDir();
    const env = { ...process.env, DATA_DIR: dataDir };
    const { stdout } = await run("npm", ["run", "-s", "cli", "--", "sources", "add", "--name", "Site", "--url", `${base}/docs/`, "--json"], { cwd: ROOT, env });
    expect(JSON.parse(stdout)).toMatchObject({ name: "Site", pages: 4, base_url: `${base}/docs/` });
    // The page limit it was added with holds for its syncs too (it was forgotten: a sync took the default 5,000).
    const small = JSON.parse(
      (
        await run("npm", ["run", "-s", "cli", "--", "sources", "add", "--name", "Small", "--url", `${base}/docs/`, "--max-pages", "2", "--json"], {
          cwd: ROOT,
          env,
        })
      ).stdout,
    );
    expect(small.pages).toBe(2);
    const synced = JSON.parse((await run("npm", ["run", "-s", "cli", "--", "sources", "sync", small.id, "--json"], { cwd: ROOT, env })).stdout);
    expect(synced.pages).toBe(2);
    // Added again without it, the source keeps its limit.
    const again = JSON.parse(
      (await run("npm", ["run", "-s", "cli", "--", "sources", "add", "--name", "Small", "--url", `${base}/docs/`, "--json"], { cwd: ROOT, env })).stdout,
    );
    expect(again.pages).toBe(2);
    const failed = await run("npm", ["run", "-s", "cli", "--", "sources", "add", "--name", "Gone", "--url", "http://127.0.0.1:9/docs/"], {
      cwd: ROOT,
      env,
    }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9\/docs\//);
    const list = JSON.parse((await run("npm", ["run", "-s", "cli", "--", "sources", "list", "--json"], { cwd: ROOT, env })).stdout);
    expect(list.map((x: { name: string }) => x.name)).toEqual(["Site", "Small"]);
  }, 120_000);
});

describe("a hostile site", () => {
  /** A server answering each path with `handlers[path]`, counting hits. */
  async function server(handlers: Record<string, (res: http.ServerResponse, root: string) => void>) {
    const hits: string[] = [];
    let root = "";
    const s = http.createServer((req, res) => {
      hits.push(req.url!);
      const handle = handlers[req.url!.split("?")[0]!];
      if (handle) handle(res, root);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    root = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    return {
      root,
      hits,
      close: () =>
        new Promise<void>((r) => {
          s.closeAllConnections();
          s.close(() => r());
        }),
    };
  }
  const html = (res: http.ServerResponse, body: string) => res.writeHead(200, { "content-type": "text/html" }).end(body);

  it("never fetches another host: not through a redirect, robots.txt's Sitemap line or a sitemap index", async () => {
    const internal = await server({ "/admin.txt": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("The admin password is hunter2.") });
    const docs = await server({
      "/robots.txt": (res) => res.writeHead(200, { "content-type": "text/plain" }).end(`Sitemap: ${internal.root}/robots-sitemap.xml\n`),
      "/docs/sitemap.xml": (res, root) =>
        res
          .writeHead(200, { "content-type": "application/xml" })
          .end(`<sitemapindex><sitemap><loc>${internal.root}/child.xml</loc></sitemap><sitemap><loc>${root}/docs/pages.xml</loc></sitemap></sitemapindex>`),
      "/docs/pages.xml": (res, root) =>
        res
          .writeHead(200, { "content-type": "application/xml" })
          .end(`<urlset><url><loc>${root}/docs/</loc></url><url><loc>${root}/docs/leak.html</loc></url><url><loc>not a url</loc></url></urlset>`),
      "/docs/": (res) => html(res, page("Home", "<p>Welcome to the docs.</p>")),
      "/docs/leak.html": (res) => res.writeHead(302, { location: `${internal.root}/admin.txt` }).end(),
    });
    const found = [];
    for await (const doc of crawl({ url: `${docs.root}/docs/`, retries: 0 })) found.push(doc.url);
    await Promise.all([docs.close(), internal.close()]);
    expect(found).toEqual([`${docs.root}/docs/`]);
    expect(internal.hits).toEqual([]);
  });

  it("follows redirects only to what it would crawl, honours a redirected robots.txt, and reads only pages of page types, each once", async () => {
    const docs = await server({
      "/robots.txt": (res) => res.writeHead(301, { location: "/robots-real.txt" }).end(),
      "/robots-real.txt": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /docs/private/\n"),
      "/docs/": (res) =>
        html(res, page("Home", `<p>Hi.</p>${["moved", "away", "secret", "big", "png", "deep"].map((p) => `<a href="${p}.html">${p}</a>`).join(" ")}`)),
      "/docs/moved.html": (res) => res.writeHead(301, { location: "/docs/new.html" }).end(),
      "/docs/new.html": (res) => html(res, page("New", "<p>The page that moved.</p>")),
      "/docs/away.html": (res) => res.writeHead(302, { location: "/elsewhere.html" }).end(),
      "/elsewhere.html": (res) => html(res, page("Elsewhere", "<p>Outside the folder.</p>")),
      "/docs/secret.html": (res) => res.writeHead(302, { location: "/docs/private/s.html" }).end(),
      "/docs/private/s.html": (res) => html(res, page("Private", "<p>Robots say no.</p>")),
      "/docs/big.html": (res) => html(res, page("Big", `<p>${"word ".repeat(300_000)}</p>`)),
      "/docs/png.html": (res) => res.writeHead(200, { "content-type": "image/png; x=text/html" }).end("not a page"),
      "/docs/deep.html": (res) => html(res, page("Deep", `${"<div>a ".repeat(32_000)}`)),
    });
    const started = Date.now();
    const found: Array<string | undefined> = [];
    const unavailable: Array<string | undefined> = [];
    for await (const doc of crawl({ url: `${docs.root}/docs/`, retries: 2, maxBytes: 1024 * 1024 })) (doc.unavailable ? unavailable : found).push(doc.url);
    await docs.close();
    expect(found.sort()).toEqual([`${docs.root}/docs/`, `${docs.root}/docs/moved.html`]);
    // Too large now: reported as not downloaded, so a sync keeps what it had indexed of it.
    expect(unavailable).toEqual([`${docs.root}/docs/big.html`]);
    for (const path of ["/elsewhere.html", "/docs/private/s.html"]) expect(docs.hits).not.toContain(path);
    // Too large is not a failure to retry.
    expect(docs.hits.filter((h) => h === "/docs/big.html")).toHaveLength(1);
    // 32,000 unclosed divs are refused before the parser (which took 18 s over them) reads the page for links.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("names where a start URL redirects to when it leaves the folder, and says when it redirects too often", async () => {
    const docs = await server({
      "/docs/": (res) => res.writeHead(302, { location: "/other/" }).end(),
      "/loop/": (res) => res.writeHead(302, { location: "/loop/a" }).end(),
      "/loop/a": (res) => res.writeHead(302, { location: "/loop/" }).end(),
    });
    const first = async (url: string) => {
      for await (const _ of crawl({ url, retries: 0 })) break;
    };
    await expect(first(`${docs.root}/docs/`)).rejects.toThrow(`redirects to ${docs.root}/other/, outside ${docs.root}/docs/: add that URL instead`);
    await expect(first(`${docs.root}/loop/`)).rejects.toThrow(/redirects more than 5 times/);
    await docs.close();
  });

  it("leaves out a page whose body never ends or drips, and a gzip bomb, within the size and time limits", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 32));
    const docs = await server({
      "/docs/": (res) =>
        html(res, page("Home", `<p>Welcome.</p><a href="endless.html">E</a> <a href="drip.html">D</a> <a href="bomb.html">B</a> <a href="ok.html">OK</a>`)),
      "/docs/ok.html": (res) => html(res, page("OK", "<p>A page of sane size.</p>")),
      "/docs/endless.html": (res) => {
        res.writeHead(200, { "content-type": "text/html" });
        const chunk = Buffer.alloc(64 * 1024, 97);
        const pump = () => {
          while (res.write(chunk));
          res.once("drain", pump);
        };
        pump();
        res.on("close", () => res.removeAllListeners("drain"));
      },
      "/docs/drip.html": (res) => {
        res.writeHead(200, { "content-type": "text/html" });
        const timer = setInterval(() => res.write("<p>"), 100);
        res.on("close", () => clearInterval(timer));
      },
      "/docs/bomb.html": (res) => res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(bomb),
    });
    const caller = new AbortController();
    const started = Date.now();
    const found: Array<string | undefined> = [];
    const unavailable: Array<string | undefined> = [];
    for await (const doc of crawl({ url: `${docs.root}/docs/`, retries: 0, timeoutMs: 1000, maxBytes: 1024 * 1024, signal: caller.signal }))
      (doc.unavailable ? unavailable : found).push(doc.url);
    await docs.close();
    expect(found.sort()).toEqual([`${docs.root}/docs/`, `${docs.root}/docs/ok.html`]);
    expect(unavailable.sort()).toEqual(["bomb", "drip", "endless"].map((name) => `${docs.root}/docs/${name}.html`));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("a hostile page's links", () => {
  it("keeps a bounded share of them, follows none longer than 2,048 characters, and queues past the page limit none", async () => {
    const many = Array.from({ length: 8000 }, (_, i) => `<a href="${"n".repeat(120)}${i}.html">x</a>`).join("");
    const long = `<a href="${"L".repeat(3000)}/start.html">too long</a>`;
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === "/docs/") res.writeHead(200, { "content-type": "text/html", etag: '"v1"' }).end(page("Home", long + many));
      else if (req.url === "/robots.txt") res.writeHead(404).end();
      else res.writeHead(200, { "content-type": "text/html" }).end(page("Leaf", "<p>leaf</p>"));
    });
    const root = await new Promise<string>((r) => server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    try {
      const docs = [];
      for await (const doc of crawl({ url: `${root}/docs/`, maxPages: 3, basis: "b" })) docs.push(doc);
      const links = docs.find((d) => d.url === `${root}/docs/`)!.validator!.links!;
      expect(links.length).toBeGreaterThan(3000);
      expect(links.join("").length).toBeLessThanOrEqual(512 * 1024);
      expect(hits.some((h) => h.includes("LLL"))).toBe(false);
      expect(docs).toHaveLength(3);
    } finally {
      server.close();
    }
  });
});

describe("a hostile site's sitemaps", () => {
  it("reads at most 100 sitemaps in one crawl, however many robots.txt and its indexes name", async () => {
    let sitemaps = 0;
    const server = http.createServer((req, res) => {
      const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const url = req.url!;
      if (url === "/robots.txt") return void res.end(Array.from({ length: 60 }, (_, i) => `Sitemap: ${root}/index-${i}.xml`).join("\n"));
      if (url.endsWith(".xml")) sitemaps++;
      if (url.startsWith("/index-")) {
        const i = url.slice(7, -4);
        return void res.end(
          `<sitemapindex>${Array.from({ length: 60 }, (_, j) => `<sitemap><loc>${root}/child-${i}-${j}.xml</loc></sitemap>`).join("")}</sitemapindex>`,
        );
      }
      if (url.startsWith("/child-")) return void res.end(`<urlset><url><loc>${root}/elsewhere${url}.html</loc></url></urlset>`);
      res.writeHead(200, { "content-type": "text/html" }).end(page("Home", "<p>The only page.</p>"));
    });
    const root = await new Promise<string>((r) => server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    try {
      const docs = [];
      for await (const doc of crawl({ url: `${root}/docs/` })) docs.push(doc.url);
      expect(docs).toEqual([`${root}/docs/`]);
      expect(sitemaps).toBeLessThanOrEqual(100);
    } finally {
      server.close();
    }
  });
});

describe("robots.txt", () => {
  const UA = "docent-crawler/0.1";
  it("applies the longest matching rule of the right group", () => {
    const rules = parseRobots(
      "https://x/robots.txt",
      "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nSitemap: https://x/sitemap.xml",
      UA,
    );
    expect(rules.allowed("https://x/docs/a.html")).toBe(false);
    expect(rules.allowed("https://x/docs/public/a.html")).toBe(true);
    expect(rules.allowed("https://x/blog/")).toBe(true);
    expect(rules.sitemaps).toEqual(["https://x/sitemap.xml"]);
  });

  it("obeys the group named by the crawler's product token, and compares non-ASCII paths percent-encoded", () => {
    const ours = parseRobots("https://x/robots.txt", "User-agent: *\nAllow: /\n\nUser-agent: docent-crawler\nDisallow: /private/\n", UA);
    expect(ours.allowed("https://x/private/a.html")).toBe(false);
    expect(ours.allowed("https://x/docs/a.html")).toBe(true);
    const encoded = parseRobots("https://x/robots.txt", "User-agent: *\nDisallow: /café/\n", UA);
    expect(encoded.allowed(new URL("https://x/café/menu.html").toString())).toBe(false);
  });

  it("cannot hold the server's thread: wildcard runs read as one, each check's work bounded, and the file read to 500 KiB", () => {
    const path = `https://x/docs/${"p".repeat(2000)}`;
    const started = performance.now();
    // A million `*` meant one: matched as `/*b`, at once (4.8 s a check before).
    const runs = parseRobots("https://x/robots.txt", `User-agent: *\nDisallow: /${"*".repeat(1_000_000)}b\n`, UA);
    expect(runs.allowed(path)).toBe(true);
    expect(runs.allowed(`${path}b`)).toBe(false);
    // Wildcard rules past any ordinary file's work are not matched: the URL is not fetched (never fetching is always polite).
    const alternating = parseRobots("https://x/robots.txt", `User-agent: *\nDisallow: /${"*a".repeat(200_000)}\n`, UA);
    expect(alternating.allowed(path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1500);
    // Rules past 500 KiB are not read.
    const long = parseRobots("https://x/robots.txt", `User-agent: *\n${"# padding\n".repeat(60_000)}Disallow: /docs/\n`, UA);
    expect(long.allowed("https://x/docs/a.html")).toBe(true);
    // Only the group that applies weighs: other bots' many wildcard rules do not block our pages.
    const others = Array.from(
      { length: 30 },
      (_, g) => `User-agent: bot${g}\n${Array.from({ length: 40 }, (_, r) => `Disallow: /*${"x".repeat(20)}${r}*.html`).join("\n")}`,
    );
    const many = parseRobots("https://x/robots.txt", `${others.join("\n\n")}\n\nUser-agent: *\nDisallow: /private/\n`, UA);
    expect(many.allowed(`https://x/docs/${"a".repeat(190)}.html`)).toBe(true);
    expect(many.allowed("https://x/private/a.html")).toBe(false);
    // An ordinary file's wildcards are matched as written.
    const ordinary = parseRobots("https://x/robots.txt", "User-agent: *\nDisallow: /*?sort=\nDisallow: /*.pdf$\n", UA);
    expect(ordinary.allowed("https://x/docs/a.html?sort=asc")).toBe(false);
    expect(ordinary.allowed("https://x/docs/a.pdf")).toBe(false);
    expect(ordinary.allowed(`https://x/docs/${"a".repeat(1500)}.html`)).toBe(true);
  });
});
