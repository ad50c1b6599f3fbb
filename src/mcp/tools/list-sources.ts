import { z } from "zod";
import { KnowledgeSource as SourceOutput } from "../../http/openapi/response-schemas.ts";
import { toolError } from "../mcp-errors.ts";
import { READ_ONLY, type RegisterTool } from "./tool-context.ts";

/** `list_sources`: the caller's knowledge sources, as the one resource shape every interface returns. */
export const registerListSources: RegisterTool = (server, { services, caller }) => {
  server.registerTool(
    "list_sources",
    {
      title: "List documentation sources",
      description:
        "List the documentation sets (knowledge sources) you can search: id, name, description, base URL, and how many pages and passages each holds. " +
        "Call it to learn what docent covers, or to get the ids that search_docs and ask_docs take as `sources`.",
      outputSchema: z.object({ sources: z.array(SourceOutput) }),
      annotations: READ_ONLY,
    },
    async () => {
      try {
        const { data } = await services.resources.listSources(caller.scope);
        const lines = data.map(
          (s) => `- ${s.name} (id ${s.id}): ${sentence(s.description || "No description")} Base URL ${s.base_url}; ${s.pages} pages, ${s.chunks} passages.`,
        );
        const text =
          data.length > 0
            ? `${data.length} knowledge source${data.length === 1 ? "" : "s"}:\n${lines.join("\n")}`
            : "No knowledge sources are available to this key.";
        return { content: [{ type: "text", text }], structuredContent: { sources: data } };
      } catch (error) {
        return toolError(error, services.logger, "list_sources");
      }
    },
  );
};

/** A description as a sentence of its own, so the next field does not run into it. */
const sentence = (text: string) => {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};
