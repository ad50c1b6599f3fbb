import { z } from "zod";
import type { PageResource } from "../../core/resources.ts";
import { toolError } from "../mcp-errors.ts";
import { GetPageInput } from "../tool-inputs.ts";
import { READ_ONLY, type RegisterTool } from "./tool-context.ts";

/**
 * Most text one call returns, about 10,000 tokens: a long reference page
 * still leaves most of a client's context for its work. The rest is read
 * from the next section's URL, which the result names.
 */
export const MAX_PAGE_CHARS = 40_000;

const Section = z.object({ section: z.string(), url: z.string(), text: z.string() });

/** `get_page`: one stored page of a source, from the section its URL names, within MAX_PAGE_CHARS. */
export const registerGetPage: RegisterTool = (server, { services, caller }) => {
  server.registerTool(
    "get_page",
    {
      title: "Read a documentation page",
      description:
        "Read the stored text of one documentation page, section by section, by a URL that search_docs or ask_docs returned. " +
        "Use it when the passages are not enough: to see a whole reference page, its examples, or the sections around a passage. " +
        "A URL with a #section anchor starts at that section; a long page is cut and the result names the URL that reads on.",
      inputSchema: GetPageInput,
      outputSchema: z.object({
        url: z.string(),
        title: z.string(),
        source_id: z.string(),
        source_name: z.string(),
        sections: z.array(Section),
        next_url: z.string().nullable(),
      }),
      annotations: READ_ONLY,
    },
    async ({ url }) => {
      try {
        const page = await services.resources.getPage(url, caller.scope);
        const { sections, next } = readFrom(page, url);
        const result = { url: page.url, title: page.title, source_id: page.source_id, source_name: page.source_name, sections, next_url: next };
        return { content: [{ type: "text", text: render(result) }], structuredContent: result };
      } catch (error) {
        return toolError(error, services.logger, "get_page");
      }
    },
  );
};

/**
 * The sections from the one `url` names (the first when it names none) for
 * at most MAX_PAGE_CHARS, and the URL that reads on. A long section is
 * several passages under one URL: a piece ends only where the next call can
 * resume (before a URL's first passage), so nothing is skipped or repeated.
 */
function readFrom(page: PageResource, url: string) {
  const all = page.sections;
  // A fragment as a browser or an agent writes it back (`#café`, `#caf%C3%A9`) names the same section.
  const firstAt = (u: string) => all.findIndex((s) => decodedUrl(s.url) === decodedUrl(u));
  const resumable = (i: number) => i >= all.length || (all[i]!.url !== page.url && firstAt(all[i]!.url) === i);
  // Matched on the fragment as decoded, like a section's: `#docent-part%3D5` is the same part.
  const part = PART.exec(decodedUrl(url).slice(url.indexOf("#") + 1));
  const start = part ? Math.min(Number(part[1]), Math.max(0, all.length - 1)) : url.includes("#") ? Math.max(0, firstAt(url)) : 0;
  let fit = start + 1;
  for (let chars = all[start]?.text.length ?? 0; fit < all.length && chars + all[fit]!.text.length <= MAX_PAGE_CHARS; fit++) chars += all[fit]!.text.length;
  let end = fit;
  while (end > start + 1 && !resumable(end)) end--;
  if (resumable(end)) return { sections: all.slice(start, end), next: end < all.length ? all[end]!.url : null };
  // No section of its own to resume at within the budget (a page without anchors, or one long section):
  // the next piece is named by its passage's place in the page.
  return { sections: all.slice(start, fit), next: `${page.url}#${PART_PREFIX}${fit}` };
}

/** The fragment of a piece that starts at no section of its own: docent's, not the page's (no id holds "="). */
const PART_PREFIX = "docent-part=";
const PART = /^docent-part=(\d{1,6})$/;

function render(page: { url: string; title: string; source_id: string; source_name: string; sections: z.infer<typeof Section>[]; next_url: string | null }) {
  const lines = [`# ${page.title}`, `Source: ${page.source_name} (${page.source_id})`, `URL: ${page.url}`];
  let heading: string | null = null;
  for (const s of page.sections) {
    if (s.section !== heading) lines.push("", `## ${s.section || page.title} (${s.url})`);
    heading = s.section;
    lines.push(s.text);
  }
  if (page.next_url) lines.push("", `[The page continues: get_page with ${page.next_url} reads on.]`);
  return lines.join("\n");
}

/** A URL with its fragment percent-decoded (left as written where it is no valid encoding). */
function decodedUrl(url: string): string {
  const hash = url.indexOf("#");
  if (hash < 0) return url;
  try {
    return url.slice(0, hash + 1) + decodeURIComponent(url.slice(hash + 1));
  } catch {
    return url;
  }
}
