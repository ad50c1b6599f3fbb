import { z } from "zod";
import { badRequest } from "../../core/errors.ts";
import { referencesBlock } from "../../core/references.ts";
import { runCompletion } from "../../core/run-completion.ts";
import { toolError } from "../mcp-errors.ts";
import { AskDocsInput } from "../tool-inputs.ts";
import { READ_ONLY, type RegisterTool } from "./tool-context.ts";

const Reference = z.object({ title: z.string(), url: z.string() });

/**
 * `ask_docs`: the agent's grounded answer, through the same completion run as
 * every other interface (the same text and references as chat completions),
 * stopped when the client cancels or goes away.
 */
export const registerAskDocs: RegisterTool = (server, { services, caller }) => {
  server.registerTool(
    "ask_docs",
    {
      title: "Ask the documentation",
      description:
        "Ask a question and get a short answer written from the documentation, with numbered citations [n] and the referenced pages (title and URL). " +
        "For clients without a model of their own, or when a grounded answer is all you need; to read the sources yourself use search_docs. " +
        "Says so when the documentation does not cover the question. Without `sources` docent picks the best-matching sources.",
      inputSchema: AskDocsInput,
      outputSchema: z.object({
        answer: z.string(),
        references: z.array(Reference),
        model: z.string(),
        sources: z.array(z.object({ id: z.string(), name: z.string() })),
      }),
      annotations: READ_ONLY,
    },
    async ({ question, sources }, ctx) => {
      try {
        // Checked here, so the error names this tool's argument rather than the chat request's 'messages'.
        if (!question.trim()) throw badRequest("'question' must contain text.", "question");
        const request = { model: "agent", messages: [{ role: "user" as const, content: question }], sources: sources ?? null };
        const run = await runCompletion(services.engine, request, { signal: ctx.mcpReq.signal, caller });
        const completion = await run.collect();
        const { content: text, refusal, annotations } = completion.choices[0]!.message;
        // A model that declined said why: that is the answer.
        const content = text ?? refusal ?? "";
        const references = annotations.map(({ url_citation: { title, url } }) => ({ title, url }));
        const result = {
          answer: content,
          references,
          model: `${run.opened.provider}/${run.opened.modelId}`,
          sources: run.opened.sources.map((s) => ({ id: s.id, name: s.name })),
        };
        return { content: [{ type: "text", text: `${content}${referencesBlock(references)}` }], structuredContent: result };
      } catch (error) {
        return toolError(error, services.logger, "ask_docs");
      }
    },
  );
};
