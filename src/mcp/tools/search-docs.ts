import { z } from "zod";
import type { Passage } from "../../core/passages.ts";
import { toolError } from "../mcp-errors.ts";
import { SearchDocsInput } from "../tool-inputs.ts";
import { READ_ONLY, type RegisterTool } from "./tool-context.ts";

const PassageOutput = z.object({ source_id: z.string(), source_name: z.string(), title: z.string(), section: z.string(), url: z.string(), text: z.string() });
const SourceRef = z.object({ id: z.string(), name: z.string() });

/** `search_docs`: the passages an answer would draw on, best first, from the engine's own source choice and ranking. */
export const registerSearchDocs: RegisterTool = (server, { services, caller }) => {
  server.registerTool(
    "search_docs",
    {
      title: "Search the documentation",
      description:
        "Search curated product documentation and get the most relevant passages, best first. Each passage has its page title, section, " +
        "a URL that opens that section, its source, and its text. Use it to check how an API, command, option or concept is documented " +
        "before answering or writing code; follow up with get_page to read a whole page. Without `sources` docent picks the sources that " +
        "best match the query; pass ids from list_sources to search only those. Returns no passages when the documentation does not cover the query.",
      inputSchema: SearchDocsInput,
      outputSchema: z.object({ sources: z.array(SourceRef), passages: z.array(PassageOutput) }),
      annotations: READ_ONLY,
    },
    async ({ query, sources, limit }, ctx) => {
      try {
        const found = await services.engine.search(query, { sources, limit, scope: caller.scope, signal: ctx.mcpReq.signal });
        const names = new Map(found.sources.map((s) => [s.id, s.name]));
        const passages = found.passages.map((p) => passageOutput(p, names.get(p.sourceId) ?? p.sourceId));
        const searched = found.sources.map((s) => s.name).join(", ");
        const text =
          passages.length > 0
            ? `${passages.length} passage${passages.length === 1 ? "" : "s"} from ${searched}, best first:\n\n${passages.map(render).join("\n\n")}`
            : `${searched ? `The documentation searched (${searched}) does not cover` : "No documentation you can search covers"} this query. Try other words, or list_sources to see what is covered.`;
        return { content: [{ type: "text", text }], structuredContent: { sources: found.sources.map((s) => ({ id: s.id, name: s.name })), passages } };
      } catch (error) {
        return toolError(error, services.logger, "search_docs");
      }
    },
  );
};

const passageOutput = (p: Passage, sourceName: string) => ({
  source_id: p.sourceId,
  source_name: sourceName,
  title: p.title,
  section: p.section,
  url: p.url,
  text: p.text,
});

const render = (p: ReturnType<typeof passageOutput>, i: number) =>
  `[${i + 1}] ${p.title}${p.section && p.section !== p.title ? ` › ${p.section}` : ""}\nURL: ${p.url}\nSource: ${p.source_name} (${p.source_id})\n${p.text}`;
