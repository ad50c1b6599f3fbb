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

/** One streamed item: a chunk, or the error that ended the stream after it began. */
type StreamItem = ChatCompletionChunk | { failed: unknown };

/**
 * The subscription's items. It never throws: an error before the stream began or
 * after becomes a last item whose field resolves to that error (a GraphQL error in
 * an event, after the chunks so far). A throwing iterator would leave graphql-sse's
 * single-connection handler a rejection it does not catch, which stopped the process.
 */
async function* streamItems(open: () => ReturnType<typeof runCompletion>, includeUsage: boolean): AsyncGenerator<StreamItem> {
  let run: Awaited<ReturnType<typeof runCompletion>>;
  try {
    run = await open();
  } catch (error) {
    yield { failed: error };
    return;
  }
  // Unsubscribing (or a closed connection) ends this generator early, which stops generation.
  for await (const event of run.chunks({ includeUsage })) {
    if (event.type === "error") {
      yield { failed: event.error };
      return;
    }
    yield event.chunk;
  }
}

builder.subscriptionFields((t) => ({
  chatCompletionStream: t.field({
    type: ChatCompletionChunkRef,
    description: "Generates a reply grounded in knowledge sources, streamed as chunks.",
    args: { input: t.arg({ type: ChatCompletionInput, required: true }) },
    subscribe: (_root, { input }, ctx) =>
      streamItems(
        () => runCompletion(ctx.services.engine, chatRequestFromInput(input), { signal: ctx.request.signal, scope: ctx.caller.scope, trace: ctx.caller.trace }),
        input.streamOptions?.includeUsage === true,
      ),
    resolve: (item: StreamItem) => {
      if ("failed" in item) throw item.failed;
      return item;
    },
  }),
}));
