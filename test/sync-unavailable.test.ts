import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangingSite, startChangingSite } from "./support/changing-site.ts";
import { runCliProcess } from "./support/cli-process.ts";
import { tempDir } from "./support/test-server.ts";

const body = (topic: string) =>
  `<p>${topic} This page of the Heron manual explains the feature in plain words, with the settings an operator changes most often and their defaults.</p>`;
const PAGES = {
  "/docs/": {
    title: "Heron manual",
    body: `${body("Heron is a small broker.")}<p><a href="guide.html">Guide</a>, <a href="reference.html">reference</a>.</p>`,
  },
  "/docs/guide.html": { title: "Heron guide", body: `${body("The guide starts a first broker.")}<p>Then <a href="tuning.html">tuning</a>.</p>` },
  "/docs/reference.html": { title: "Heron reference", body: body("The reference lists every command.") },
  // Linked only from the guide.
  "/docs/tuning.html": { title: "Heron tuning", body: body("Tuning explains batch sizes.") },
};

/** A page the site cannot serve during one sync is not a page it removed: nothing indexed is lost to a bad minute. */
describe("a sync while the site is failing", () => {
  let site: ChangingSite;
  let dataDir: string;
  let id: string;
  const cli = (...args: string[]) => runCliProcess({ DATA_DIR: dataDir }, ...args);
  const pages = async () => JSON.parse((await cli("sources", "list", "--json")).stdout)[0].pages as number;

  beforeAll(async () => {
    site = await startChangingSite(PAGES);
    // No validators: a sync cannot know which pages the guide links to without downloading it.
    site.withoutValidators("/docs/guide.html");
    dataDir = tempDir();
    const added = await cli("sources", "add", "--name", "Heron", "--url", `${site.url}/docs/`, "--json");
    expect(added.code).toBe(0);
    id = JSON.parse(added.stdout).id;
  });
  afterAll(async () => {
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps a page that answers 503, and the pages only it links to, then removes a page gone for good", async () => {
    expect(await pages()).toBe(4);
    site.fail("/docs/guide.html", 503);
    const failing = await cli("sources", "sync", id, "--json");
    expect(failing.code).toBe(0);
    // The guide (and tuning.html, reached only through it) could not be read: both stay indexed.
    expect(JSON.parse(failing.stdout)).toMatchObject({ removed: 0, skipped: 1, pages: 4 });

    site.fail("/docs/guide.html", 0);
    site.remove("/docs/reference.html");
    const gone = await cli("sources", "sync", id, "--json");
    expect(JSON.parse(gone.stdout)).toMatchObject({ removed: 1, skipped: 0, pages: 3 });
  });

  it("keeps the pages only a sitemap lists while the sitemap answers 503", async () => {
    const mapped = await startChangingSite({
      "/docs/": { title: "Heron manual", body: body("Heron is a small broker.") },
      "/docs/orphan.html": { title: "Heron orphan", body: body("Linked from nowhere, listed in the sitemap.") },
    });
    const urls = ["/docs/", "/docs/orphan.html"].map((path) => `<url><loc>${mapped.url}${path}</loc></url>`).join("");
    mapped.change("/docs/sitemap.xml", "sitemap", `<urlset>${urls}</urlset>`);
    try {
      const added = JSON.parse((await cli("sources", "add", "--name", "Heron map", "--url", `${mapped.url}/docs/`, "--json")).stdout);
      expect(added).toMatchObject({ pages: 2 });
      mapped.fail("/docs/sitemap.xml", 503);
      const synced = await cli("sources", "sync", added.id, "--json");
      expect(JSON.parse(synced.stdout)).toMatchObject({ removed: 0, pages: 2 });
    } finally {
      await mapped.close();
    }
  });
});
