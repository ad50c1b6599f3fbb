import { z } from "zod";
import { UUID_SHAPE } from "../core/chat-request.ts";
import { misnamedField } from "../core/misnamed-fields.ts";

/**
 * The tools' arguments, bounded so a call costs what a docs question costs:
 * a question far longer than 2,000 characters is pasted material, not a
 * question, and 20 sources or passages is more than one answer draws on.
 * The SDK validates calls against these before a tool runs.
 */
export const MAX_QUERY_CHARS = 2_000;
export const MAX_SOURCES = 20;
export const MAX_PASSAGES = 20;

const Sources = z
  .array(z.string().max(36).regex(UUID_SHAPE, "must be a knowledge-source id (a UUID) from list_sources"))
  .min(1)
  .max(MAX_SOURCES)
  .optional()
  .describe("Ids of the knowledge sources to use (from list_sources). Omit to let docent choose the sources that best match.");

/**
 * A tool's arguments: others than its own are let through (clients add their own, such as n8n's `toolCallId` or
 * `_meta`, which a model cannot take back), except one that reads as a misspelling of `sources` (`source`,
 * `sourceIds`): dropped, the search would span every source.
 */
function toolArguments<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape).superRefine((args, ctx) => {
    for (const key of Object.keys(args)) {
      const own = key in shape ? null : misnamedField(key);
      if (own && own.field in shape)
        ctx.addIssue({ code: "custom", path: [key], message: `Unrecognized argument '${key.slice(0, 64)}': did you mean '${own.field}'?` });
    }
  });
}

export const SearchDocsInput = toolArguments({
  query: z.string().min(1).max(MAX_QUERY_CHARS).describe("What to look for: a question, a task or API names, e.g. 'create an index without blocking writes'."),
  sources: Sources,
  limit: z.number().int().min(1).max(MAX_PASSAGES).default(5).describe(`How many passages to return, 1 to ${MAX_PASSAGES}.`),
});

export const GetPageInput = toolArguments({
  url: z.string().min(1).max(2_048).describe("The page's URL as search_docs or ask_docs gave it. A #section anchor starts the text at that section."),
});

export const AskDocsInput = toolArguments({
  question: z.string().min(1).max(MAX_QUERY_CHARS).describe("The question, in plain language."),
  sources: Sources,
});
