/**
 * What conditional requests save on a re-sync: a local site of generated
 * documentation pages (ETag/Last-Modified, 304 when unchanged) is crawled
 * into a scratch data dir, then synced again unchanged, then again with a
 * few pages changed. Prints time, pages downloaded and bytes sent per run.
 * `npm run bench -- sync [pages]` (default 400).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServices } from "../src/app-services.ts";
import { loadConfig } from "../src/config.ts";
import { crawl } from "../src/ingest/crawl.ts";
import { documentsOf } from "../src/sync/documents-of.ts";
import { runSync, syncHolder } from "../src/sync/run-sync.ts";
import { startChangingSite } from "../test/support/changing-site.ts";

const pages = Number(process.argv[3] ?? 400);
const para = (n: number, i: number) =>
  Array.from(
    { length: 6 },
    (_, k) =>
      `<p>Section ${k} of page ${i} (version ${n}) describes option ${i * 7 + k}: its default, its range, and what the server does when it is changed while running. Operators usually set it once.</p>`,
  ).join("");
const site: Record<string, { title: string; body: string }> = {};
for (let i = 0; i < pages; i++) site[`/docs/p${i}.html`] = { title: `Option group ${i}`, body: para(1, i) };
// The start page links to every page (a table of contents: not content itself, so it is read every time).
site["/docs/"] = {
  title: "Contents",
  body: Object.keys(site)
    .map((p) => `<a href="${p.slice("/docs/".length)}">${p}</a>`)
    .join(" "),
};
const s = await startChangingSite(site);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-bench-sync-"));
const services = await createServices(loadConfig({ DATA_DIR: dataDir, DOCENT_DEMO: "0" }), { preloadIndex: false });
const origin = `${s.url}/docs/`;
try {
  const row = (label: string, from: number, seconds: number, summary: { added: number; changed: number; notModified: number }) => {
    const hits = s.since(from).filter((r) => r.path.startsWith("/docs/"));
    console.log(
      `${label.padEnd(24)} ${seconds.toFixed(2).padStart(6)} s   ${String(hits.filter((r) => r.status === 200).length).padStart(5)} downloaded   ${String(hits.filter((r) => r.status === 304).length).padStart(5)} not modified (304)   added ${summary.added}, changed ${summary.changed}`,
    );
  };
  let from = s.requests;
  let started = performance.now();
  const first = await runSync(
    services,
    { id: null, name: "bench", baseUrl: origin, origin },
    {
      trigger: "add",
      holder: syncHolder(),
      documents: (c) => crawl({ url: origin, maxPages: pages + 1, ...c }),
    },
  );
  if (!first.result) throw first.error;
  row("first crawl", from, (performance.now() - started) / 1000, first.summary);
  const source = (await services.catalog.get(first.result.source.id))!;
  const again = async (label: string) => {
    from = s.requests;
    started = performance.now();
    const run = await runSync(services, source, { trigger: "manual", holder: syncHolder(), documents: (c) => documentsOf({ origin }, c) });
    if (!run.result) throw run.error;
    row(label, from, (performance.now() - started) / 1000, run.summary);
  };
  await again("re-sync, unchanged");
  for (let i = 0; i < 5; i++) s.change(`/docs/p${i * 3}.html`, `Option group ${i * 3}`, para(2, i * 3));
  await again("re-sync, 5 pages changed");
} finally {
  await services.close();
  await s.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
