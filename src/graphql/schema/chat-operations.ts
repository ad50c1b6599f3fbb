import { collectCompletion, completionChunks, CompletionFailed, type ChatCompletionChunk } from "../../core/completion-object.ts";
import { builder } from "../builder.ts";
import { chatRequestFromInput } from "../chat-input.ts";
import { ChatCompletionInput } from "./chat-input.ts";
import { ChatCompletionChunkRef, ChatCompletionRef } from "./chat-completion.ts";

builder.mutationFields((t) => ({
  createChatCompletion: t.field({
    type: ChatCompletionRef,
    description: "Generates a reply grounded in knowledge sources, returned as one object.",
    args: { input: t.arg({ type: ChatCompletionInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const opened = await ctx.services.engine.open(chatRequestFromInput(input), { signal: ctx.request.signal });
      try {
        return await collectCompletion(opened);
      } catch (error) {
        throw error instanceof CompletionFailed ? error.error : error;
      }
    },
  }),
}));

builder.subscriptionFields((t) => ({
  chatCompletionStream: t.field({
    type: ChatCompletionChunkRef,
    description: "Generates a reply grounded in knowledge sources, streamed as chunks.",
    args: { input: t.arg({ type: ChatCompletionInput, required: true }) },
    subscribe: async function* (_root, { input }, ctx) {
      const request = chatRequestFromInput(input);
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      ctx.request.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const opened = await ctx.services.engine.open(request, { signal: controller.signal });
        for await (const event of completionChunks(opened, { includeUsage: request.stream_options?.include_usage === true })) {
          if (event.type === "error") throw event.error;
          yield event.chunk;
        }
      } finally {
        // Unsubscribing (or a closed connection) ends the generator early: stop generation too.
        controller.abort();
        ctx.request.signal.removeEventListener("abort", onAbort);
      }
    },
    resolve: (chunk: ChatCompletionChunk) => chunk,
  }),
}));
