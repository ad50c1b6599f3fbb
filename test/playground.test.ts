import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { createServices } from "../src/app-services.ts";
import { loadConfig } from "../src/config.ts";
import { citationMarkers } from "../src/core/citations.ts";
import { DocentError } from "../src/core/errors.ts";
import { type ServerWithProviders, startServerWithProviders, startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

/**
 * The playground at `/`, driven in real headless Chromium (Debian's; a
 * browser build cannot be downloaded here) against the real server.
 */
const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && fs.existsSync(p));
if (!CHROMIUM) {
  console.warn(
    "test/playground.test.ts skipped: no Chromium found. Install Debian's with `apt-get update && apt-get install -y chromium`, or set CHROMIUM_PATH.",
  );
}

const ON_TOPIC = "How do I physically reorder a table according to an index?";

describe("the playground's files", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it("are served at / without a key, under a strict Content-Security-Policy, with the Markdown libraries from node_modules", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
    ])
      expect(csp).toContain(directive);
    const html = await page.text();
    // No inline script or handler, and nothing from another host.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const path of [
      "/playground/app.js",
      "/playground/api.js",
      "/playground/render.js",
      "/playground/catalog-view.js",
      "/playground/describe-error.js",
      "/playground/feedback-view.js",
      "/playground/conversation-view.js",
      "/playground/vendor/marked.js",
      "/playground/vendor/purify.js",
      "/playground/citations.js",
      "/playground/markdown-blocks.js",
      "/playground/style.css",
    ]) {
      const file = await fetch(`${server.url}${path}`);
      expect(file.status, path).toBe(200);
      expect(file.headers.get("content-security-policy"), path).toBe(csp);
    }
    expect(await (await fetch(`${server.url}/playground/vendor/purify.js`)).text()).toContain("DOMPurify");
    // The server's own citation reader, as JavaScript a browser runs.
    const reader = await (await fetch(`${server.url}/playground/citations.js`)).text();
    expect(reader).toMatch(/export\s*\{[^}]*citationMarkers|export function citationMarkers/);
    expect(reader).not.toMatch(/\binterface\b|: ScanState/);
    // It imports the block reader by the URL it is served at.
    expect(reader).toMatch(/from "\.\/markdown-blocks\.js"/);
  });
});

describe.skipIf(!CHROMIUM)("the playground in Chromium", () => {
  let browser: Browser;
  let server: TestServer;
  beforeAll(async () => {
    [browser, server] = await Promise.all([chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }), startTestServer()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh browser profile (empty localStorage); CSP and Trusted Types violations are collected. */
  async function open(url: string): Promise<{ page: Page; violations: string[] }> {
    const page = await (await browser.newContext()).newPage();
    const violations: string[] = [];
    page.on("console", (m) => /Content Security Policy|Trusted Type/i.test(m.text()) && violations.push(m.text()));
    page.on("pageerror", (e) => violations.push(e.message));
    await page.goto(`${url}/`);
    return { page, violations };
  }

  async function ask(page: Page, question: string) {
    await page.fill("#question", question);
    await page.press("#question", "Enter");
    await page.waitForSelector("#result[data-state='answered'], #result[data-state='not-covered'], #result[data-state='declined'], #error:not([hidden])");
  }

  const text = (s: string) => s.replace(/\s+/g, " ").trim();

  /** The on-topic question asked of provider_a (the fake provider's scripted reply) with the PostgreSQL source ticked. */
  async function askProviderA(running: ServerWithProviders): Promise<{ page: Page; violations: string[] }> {
    const opened = await open(running.server.url);
    const { page } = opened;
    await page.fill("#key", running.server.key);
    await page.waitForSelector("#model option[value='provider_a']:not([disabled])", { state: "attached" });
    await page.selectOption("#model", "provider_a");
    await page.check(`#source-list input[value='${running.server.sources.pg}']`);
    await ask(page, ON_TOPIC);
    return opened;
  }

  it("streams a cited answer with its references and the model that answered", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: ON_TOPIC }] }),
    });
    const expected: any = await response.json();
    const refs: string[] = expected.url_references;
    const titles = expected.choices[0].message.annotations.map((a: any) => a.url_citation.title);
    expect(refs.length).toBeGreaterThan(1);

    const { page, violations } = await open(server.url);
    await page.fill("#key", server.key);
    await page.waitForSelector("#source-list input");
    const sent = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
    await ask(page, ON_TOPIC);
    const request = await sent;
    expect(request.postDataJSON()).toMatchObject({ model: "agent", stream: true, messages: [{ role: "user", content: ON_TOPIC }] });
    expect(request.postDataJSON().sources).toBeUndefined();
    expect(await (await request.response())!.headerValue("content-type")).toMatch(/^text\/event-stream/);

    expect(await page.getAttribute("#result", "data-state")).toBe("answered");
    expect(text((await page.textContent("#answer")) ?? "")).toBe(text(expected.choices[0].message.content));
    // Each citation number links to its reference, and every reference is cited.
    const cites = await page.$$eval("#answer .cite a", (links) => links.map((a) => ({ n: Number(a.textContent), href: a.getAttribute("href") })));
    expect(cites.length).toBeGreaterThanOrEqual(refs.length);
    for (const cite of cites) expect(cite.href).toBe(refs[cite.n - 1]);
    expect(new Set(cites.map((c) => c.n))).toEqual(new Set(refs.map((_, i) => i + 1)));
    // The reference list: the pages' titles, linked, in url_references order.
    const listed = await page.$$eval("#references li a", (links) => links.map((a) => ({ href: a.getAttribute("href"), title: a.textContent })));
    expect(listed).toEqual(refs.map((href, i) => ({ href, title: titles[i] })));
    expect(await page.isVisible("#references-block")).toBe(true);
    expect(await page.isVisible("#not-covered")).toBe(false);
    expect(await page.textContent("#model-label")).toBe(response.headers.get("x-docent-model"));
    expect(await page.textContent("#model-label")).toBe("extractive/docent-extractive-1");

    // The page's CSP forbids inline code and raw HTML sinks (Trusted Types), and nothing on the page broke it.
    const csp = (await page.request.get(`${server.url}/`)).headers()["content-security-policy"];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(
      await page.evaluate(() => {
        try {
          document.body.insertAdjacentHTML("beforeend", "<i>x</i>");
          return "allowed";
        } catch (e) {
          return (e as Error).name;
        }
      }),
    ).toBe("TypeError");
    expect(violations).toEqual([]);
  });

  it("sends the ticked sources, and answers from them only", async () => {
    const { page } = await open(server.url);
    await page.fill("#key", server.key);
    await page.check(`#source-list input[value='${server.sources.sqlite}']`);
    const sent = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
    await ask(page, "How do I create a partial index?");
    expect((await sent).postDataJSON().sources).toEqual([server.sources.sqlite]);
    const hrefs = await page.$$eval("#references li a", (links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/www\.sqlite\.org\//);
  });

  it("asks each question with the conversation so far, lists the earlier questions, and starts afresh on New conversation", async () => {
    const { page, violations } = await open(server.url);
    await page.fill("#key", server.key);
    await page.waitForSelector("#source-list input");
    expect(await page.isVisible("#new-conversation")).toBe(false);
    const first = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
    await ask(page, ON_TOPIC);
    const answer = (await (await (await first).response())!.text())
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(answer.length).toBeGreaterThan(0);
    // The question box is emptied for the next one; the conversation can be started afresh.
    expect(await page.inputValue("#question")).toBe("");
    expect(await page.isVisible("#new-conversation")).toBe(true);
    expect(await page.isVisible("#conversation")).toBe(false);

    const followUp = "and how do I undo that?";
    const second = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
    await page.fill("#question", followUp);
    await page.press("#question", "Enter");
    expect((await second).postDataJSON().messages).toEqual([
      { role: "user", content: ON_TOPIC },
      { role: "assistant", content: answer },
      { role: "user", content: followUp },
    ]);
    await page.waitForSelector("#result:not([data-state='streaming'])");
    expect(await page.$$eval("#turns li", (items) => items.map((li) => li.textContent))).toEqual([ON_TOPIC]);
    expect(await page.isVisible("#conversation")).toBe(true);

    // Long turns (pasted logs) are sent newest first up to 200,000 characters, so the conversation is never refused for its size.
    const long = (n: number) => `${"log line ".repeat(7_700)}${n}: how do I physically reorder a table?`;
    let messages: Array<{ role: string; content: string }> = [];
    for (const n of [1, 2, 3, 4]) {
      const sentLong = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
      await page.fill("#question", long(n));
      await page.press("#question", "Enter");
      const request = await sentLong;
      messages = request.postDataJSON().messages;
      expect((await request.response())!.status()).toBe(200);
      await page.waitForSelector("#result:not([data-state='streaming'])");
    }
    expect(messages.at(-1)).toEqual({ role: "user", content: long(4) });
    expect(messages.map((m) => m.content)).toEqual(expect.arrayContaining([long(2), long(3)]));
    expect(messages.map((m) => m.content)).not.toContain(long(1));
    expect(messages.slice(0, -1).reduce((sum, m) => sum + m.content.length, 0)).toBeLessThanOrEqual(200_000);

    await page.click("#new-conversation");
    expect(await page.isVisible("#conversation")).toBe(false);
    expect(await page.isVisible("#result")).toBe(false);
    const fresh = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
    await ask(page, "How do I create a partial index?");
    expect((await fresh).postDataJSON().messages).toEqual([{ role: "user", content: "How do I create a partial index?" }]);
    expect(violations).toEqual([]);
  });

  it("says a wrong key was refused (401) and how to get one", async () => {
    const { page } = await open(server.url);
    await page.fill("#key", `dk_${"x".repeat(43)}`);
    await ask(page, ON_TOPIC);
    const error = await page.textContent("#error");
    expect(await page.getAttribute("#error", "data-kind")).toBe("auth");
    expect(error).toContain("not accepted (401)");
    expect(error).toContain("keys create");
    expect(await page.isVisible("#result")).toBe(false);
  });

  it("shows an off-topic question as not covered, with no references", async () => {
    const { page } = await open(server.url);
    await page.fill("#key", server.key);
    await ask(page, "What is the best recipe for banana bread?");
    expect(await page.getAttribute("#result", "data-state")).toBe("not-covered");
    expect(await page.isVisible("#not-covered")).toBe(true);
    expect(await page.textContent("#answer")).toContain("do not cover");
    expect(await page.isVisible("#references-block")).toBe(false);
    expect(await page.$$("#references li")).toHaveLength(0);
    expect(await page.$$("#answer .cite")).toHaveLength(0);
  });

  it("takes a thumbs up or down, and a comment, on the answer just shown, for the completion that was served", async () => {
    const { page, violations } = await open(server.url);
    await page.fill("#key", server.key);
    const streamed = page.waitForResponse((r) => r.url().endsWith("/v1/chat/completions"));
    await ask(page, ON_TOPIC);
    const completionId = /"id":"(chatcmpl-[0-9a-f]+)"/.exec(await (await streamed).text())![1]!;
    expect(await page.isVisible("#feedback")).toBe(true);
    const stored = async () => {
      await server.services.usage.ledger.flush();
      return (await server.services.usage.served.list({ since: new Date(0) })).find((c) => c.id === completionId);
    };

    const down = page.waitForRequest((r) => r.url().endsWith("/v1/feedback"));
    await page.click("#vote-down");
    expect((await down).postDataJSON()).toEqual({ completion_id: completionId, rating: "down" });
    await page.waitForSelector("#feedback-status:text('not helpful')");
    expect(await page.getAttribute("#vote-down", "aria-pressed")).toBe("true");
    expect(await page.getAttribute("#vote-up", "aria-pressed")).toBe("false");
    expect(await stored()).toMatchObject({ rating: "down", comment: null });

    await page.fill("#comment", "It should say which lock CLUSTER takes.");
    await page.press("#comment", "Enter");
    // This server stores no question text (STORE_QUESTIONS off), so it keeps no comment either, and the page says so.
    await page.waitForSelector("#feedback-status:text('keeps no comments')");
    expect(await page.isVisible("#feedback-comment")).toBe(false);
    expect(await stored()).toMatchObject({ rating: "down", comment: null });

    await page.click("#vote-up");
    await page.waitForSelector("#feedback-status:text('helpful')");
    expect(await page.getAttribute("#vote-up", "aria-pressed")).toBe("true");
    expect(await stored()).toMatchObject({ rating: "up", comment: null });

    // A new question withdraws the thumbs until its own answer is complete, which starts unrated.
    await ask(page, "What is the best recipe for banana bread?");
    expect(await page.isVisible("#feedback")).toBe(true);
    expect(await page.getAttribute("#vote-up", "aria-pressed")).toBe("false");
    expect(await page.textContent("#feedback-status")).toBe("");
    expect(violations).toEqual([]);
  });

  it("sends a comment that a server storing questions keeps, and says so", async () => {
    const storing = await startTestServer({ STORE_QUESTIONS: "1" });
    try {
      const { page, violations } = await open(storing.url);
      await page.fill("#key", storing.key);
      await ask(page, ON_TOPIC);
      await page.click("#vote-down");
      await page.waitForSelector("#feedback-status:text('not helpful')");
      await page.fill("#comment", "It should say which lock CLUSTER takes.");
      await page.press("#comment", "Enter");
      await page.waitForSelector("#feedback-status:text('comment was sent')");
      await storing.services.usage.ledger.flush();
      const [rated] = (await storing.services.usage.served.list({ since: new Date(0) })).filter((c) => c.rating === "down");
      expect(rated).toMatchObject({ comment: "It should say which lock CLUSTER takes.", question: ON_TOPIC });
      expect(violations).toEqual([]);
    } finally {
      await storing.close();
    }
  });

  it("keeps the key across a reload, and forgets it when asked", async () => {
    const { page } = await open(server.url);
    await page.fill("#key", server.key);
    await page.reload();
    expect(await page.inputValue("#key")).toBe(server.key);
    // The stored key is used at once: the sources are listed without typing it again.
    await page.waitForSelector("#source-list input");
    expect(await page.$$eval("#source-list .source-name", (names) => names.map((n) => n.textContent))).toEqual(
      expect.arrayContaining(["PostgreSQL 15 Documentation", "SQLite Documentation"]),
    );
    await page.click("#forget");
    await page.reload();
    expect(await page.inputValue("#key")).toBe("");
  });

  it("renders HTML in a model's Markdown as text: no element is created, no script runs", async () => {
    const reply =
      'Use **CLUSTER** [1]. <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script> [more](javascript:window.pwned=3)\n\n<div id="injected">block</div>';
    const running = await startServerWithProviders({ kind: "reply", text: reply });
    try {
      const { page, violations } = await askProviderA(running);
      expect(await page.textContent("#model-label")).toMatch(/^openai\//);
      expect(await page.textContent("#answer strong")).toBe("CLUSTER");
      const answer = await page.textContent("#answer");
      expect(answer).toContain('<img src=x onerror="window.pwned=1">');
      expect(answer).toContain('<div id="injected">block</div>');
      expect(await page.$$("#answer img, #answer script, #answer div, #injected")).toHaveLength(0);
      const links = await page.$$eval("#answer a", (as) => as.map((a) => a.getAttribute("href") ?? ""));
      expect(links.some((href) => href.startsWith("javascript:"))).toBe(false);
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      expect(violations).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it("shows a model's refusal as its answer, said to be declined, with no references", async () => {
    const running = await startServerWithProviders({ kind: "reply", text: "I can't help with that.", refusal: true });
    try {
      const { page, violations } = await askProviderA(running);
      expect(await page.getAttribute("#result", "data-state")).toBe("declined");
      expect(text((await page.textContent("#answer")) ?? "")).toBe("I can't help with that.");
      expect(await page.textContent("#status")).toBe("The model declined to answer.");
      expect(await page.isVisible("#references-block")).toBe(false);
      expect(await page.isVisible("#not-covered")).toBe(false);
      expect(violations).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it("links the server's citation markers, and only those, to the answer's references: no link definition or citation-shaped link redirects them", async () => {
    // Links that read as citations once rendered (entities, Unicode forms, invisible characters, nested
    // brackets, an image's text), and brackets the server does not read as markers (glued, escaped).
    const reply = [
      "Use CLUSTER [1]. It locks the table [1](https://evil.example/two).",
      "See [[1]](https://evil.example/m), [&#91;1&#93;](https://evil.example/e), ![[1]](https://evil.example/i), [１](https://evil.example/fw), [1\u200b](https://evil.example/zw) and [**1**](https://evil.example/b).",
      "Pass sys.argv[1] or \\[1] as is.",
      // Look-alikes of [1] (a combining grapheme joiner, a variation selector, a Hangul filler, lenticular brackets, a dot),
      // and markers where no citation can stand: a link's title and address.
      "Or [[1\u034f]](https://evil.example/cgj), [[1\ufe0e]](https://evil.example/vs), [[1\u3164]](https://evil.example/hf), [【1】](https://evil.example/lb), [[1.]](https://evil.example/dot).",
      '[the guide](https://docs.example/a/[1] "see [1]")',
      // Placeholders an answer forges (the page's are drawn afresh each time), and look-alikes no rule can list.
      "Revoke it now &#xE000;0&#xE001; and &#xE000;5&#xE001;, see [l](https://evil.example/l) or [З](https://evil.example/ze).",
      // A bidi control the page drops must not change where it reads code: this [1] is in a code span.
      "Code ``\u202e` [1] ` here [1].",
      "[1]: https://evil.example/one",
    ].join("\n\n");
    const running = await startServerWithProviders({ kind: "reply", text: reply });
    try {
      const { page, violations } = await askProviderA(running);
      const references = await page.$$eval("#references a", (as) => as.map((a) => a.getAttribute("href")));
      const links = await page.$$eval("#answer a", (as) =>
        as.map((a) => ({
          href: a.getAttribute("href"),
          text: a.textContent,
          site: a.nextElementSibling?.matches(".link-site") ? a.nextElementSibling.textContent : null,
        })),
      );
      expect(links.length).toBeGreaterThanOrEqual(2);
      // A link elsewhere shows its address (a bare URL in the text) or names its site beside it; every other link is a reference.
      for (const { href, text, site } of links) {
        if (text === href) continue;
        if (references.includes(href)) expect(site).toBeNull();
        else expect(site).toBe(` (${new URL(href!).host})`);
      }
      expect(links.filter((link) => link.site === " (evil.example)").map((link) => link.text)).toEqual(["l", "З"]);
      // Exactly the markers the server reads in the answer it sent (`argv[1]`, `\\[1]` and a link's address are text),
      // but for the one in a link's title, which stays its text. The server escapes the end of a link or image whose
      // text holds a marker, so `![[1]](…)` is no image, and drops bidi controls before it reads code spans.
      const sent = await fetch(`${running.server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${running.server.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "provider_a", sources: [running.server.sources.pg], messages: [{ role: "user", content: ON_TOPIC }] }),
      });
      const answer: string = ((await sent.json()) as any).choices[0].message.content;
      expect(await page.$$("#answer sup.cite")).toHaveLength(citationMarkers(answer).length - 1);
      expect(await page.$$("#answer img")).toHaveLength(0);
      expect(await page.textContent("#answer")).toContain("Pass sys.argv[1] or [1] as is.");
      // No placeholder of the page's own is left (the forged ones are the answer's text, shown as written).
      expect(await page.innerHTML("#answer")).not.toMatch(/\uE000[a-z]{12}|%EE%80%80[a-z]{12}/i);
      expect(await page.getAttribute("#answer a[title]:not(sup a)", "title")).toBe("see [1]");
      expect(violations).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it("keeps a link's site label readable and a man page's link a link, and links a citation after a 65,536-character run", async () => {
    const reply = [
      // A right-to-left override in a link's text would reverse what follows it: its site label.
      "Run VACUUM FULL [\u202e[З]](https://gro.nohtyp.scod.ac/)\u202c. See [open(2)](https://man.example/open.2.html).",
      // So would one in the text before a link, reversing the link and its label.
      "Read \u202e)gro.nohtyp.scod( [guide](https://evil.example/) here.",
      `${"x".repeat(65_530)} [1] end.`,
    ].join("\n\n");
    const running = await startServerWithProviders({ kind: "reply", text: reply });
    try {
      const { page, violations } = await askProviderA(running);
      const label = await page.$eval("#answer a[href='https://gro.nohtyp.scod.ac/'] + .link-site", (site) => {
        const text = site.firstChild as Text;
        const at = (i: number) => {
          const range = document.createRange();
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          return range.getBoundingClientRect().left;
        };
        return { text: site.textContent, inOrder: at(1) < at(text.length - 2) };
      });
      expect(label).toEqual({ text: " (gro.nohtyp.scod.ac)", inOrder: true });
      const [link, site] = await page.$$eval("#answer a[href='https://evil.example/'], #answer a[href='https://evil.example/'] + .link-site", (els) =>
        els.map((el) => el.getBoundingClientRect()),
      );
      expect(site!.left).toBeGreaterThanOrEqual(link!.right - 1);
      expect(await page.textContent("#answer a[href='https://man.example/open.2.html']")).toBe("open(2)");
      expect(await page.$$("#answer sup.cite")).toHaveLength(1);
      expect(await page.textContent("#answer")).not.toMatch(/\uE000/);
      expect(violations).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it("shows an answer nested too deep for the Markdown parser as text, its citation linked", async () => {
    const running = await startServerWithProviders({ kind: "reply", text: `${"> ".repeat(20_000)}Deep. [1]` });
    try {
      const { page, violations } = await askProviderA(running);
      expect(await page.getAttribute("#result", "data-state")).toBe("answered");
      expect(await page.textContent("#answer")).toContain("Deep.");
      expect(await page.$$("#answer sup.cite")).toHaveLength(1);
      expect(violations).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it("says when to retry after a 429, and that the server cannot be reached once it is gone", async () => {
    // The real app and admission, with a limiter that refuses every request for 7 seconds.
    const services = await createServices(loadConfig({ DATA_DIR: tempDir(), PORT: "0", DOCENT_DEMO: "0" }));
    services.rateLimiter = {
      acquire: async () => {
        throw new DocentError("TOO_MANY_REQUESTS", "Rate limit reached for this key.", { retryable: true, retryAfter: 7 });
      },
    };
    const key = (await services.keys.create("limited")).key;
    const listener = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: createApp(services).fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const { page } = await open(url);
    await page.fill("#key", key);
    await ask(page, ON_TOPIC);
    expect(await page.getAttribute("#error", "data-kind")).toBe("rate");
    const error = await page.textContent("#error");
    expect(error).toContain("Rate limited (429)");
    expect(error).toContain("Try again in 7 seconds");

    await new Promise<void>((resolve) => {
      listener.close(() => resolve());
      (listener as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await services.close();
    await page.click("#submit");
    await page.waitForSelector("#error[data-kind='network']");
    expect(await page.textContent("#error")).toContain("Could not reach docent");
  });

  it("lets a page on another origin call the API only when CORS_ORIGINS allows it", async () => {
    // Another site's page: a plain server on another port (loopback too, so Chromium's local-network checks stay out of it).
    const site = http.createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>app</title>"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const sitePort = (site.address() as AddressInfo).port;
    const allowed = await startTestServer({ CORS_ORIGINS: `http://127.0.0.1:${sitePort}` });
    try {
      const callFrom = async (origin: string, target: TestServer) => {
        const page = await (await browser.newContext()).newPage();
        await page.goto(`${origin}/`);
        return page.evaluate(
          async ({ url, key, question }) => {
            try {
              const response = await fetch(`${url}/v1/chat/completions`, {
                method: "POST",
                headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: question }] }),
              });
              return { status: response.status, model: response.headers.get("x-docent-model"), refs: (await response.json()).url_references.length };
            } catch (error) {
              return { failed: (error as Error).name };
            }
          },
          { url: target.url, key: target.key, question: ON_TOPIC },
        );
      };
      const answered = await callFrom(`http://127.0.0.1:${sitePort}`, allowed);
      expect(answered).toEqual({ status: 200, model: "extractive/docent-extractive-1", refs: expect.any(Number) });
      expect(answered.refs).toBeGreaterThan(0);
      // Another origin (same machine, other name), and a server without CORS_ORIGINS: the browser blocks both.
      expect(await callFrom(`http://localhost:${sitePort}`, allowed)).toEqual({ failed: "TypeError" });
      expect(await callFrom(`http://127.0.0.1:${sitePort}`, server)).toEqual({ failed: "TypeError" });
    } finally {
      await allowed.close();
      site.close();
    }
  });
});
