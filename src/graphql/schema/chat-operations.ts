import type { ChatCompletionChunk } from "../../core/completion-object.ts";
import { runCompletion } from "../../core/run-completion.ts";
import { builder } from "../builder.ts";
import { chatRequestFromInput } from "../chat-input.ts";
import { ChatCompletionChunkRef, ChatCompletionRef } from "./chat-completion.ts";
import { ChatCompletionInput } from "./chat-input.ts";

builder.mutationFields((t) => ({
  createChatCompletion: t.field({
    type: ChatCompletionRef,
    description: "Generates a reply grounded in knowledge sources, returned as one object.",
    args: { input: t.arg({ type: ChatCompletionInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const run = await runCompletion(ctx.services.engine, chatRequestFromInput(input), {
        signal: ctx.request.signal,
        scope: ctx.caller.scope,
        trace: ctx.caller.trace,
      });
      return run.collect();
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
      // Unsubscribing (or a closed connection) ends this generator early, which stops generation.
      const run = await runCompletion(ctx.services.engine, request, { signal: ctx.request.signal, scope: ctx.caller.scope, trace: ctx.caller.trace });
      for await (const event of run.chunks({ includeUsage: request.stream_options?.include_usage === true })) {
        if (event.type === "error") throw event.error;
        yield event.chunk;
      }
    },
    resolve: (chunk: ChatCompletionChunk) => chunk,
  }),
}));
