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
        caller: ctx.caller,
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

/**
 * The items, with an early end (unsubscribed, cancelled, the stream closed) that
 * stops the run at once. An operation sent into a graphql-sse single-connection
 * stream was answered 202 by its own request, whose signal so never fires, and a
 * generator's return() waits behind the step in progress: a cancelled answer ran
 * on to its next chunk, holding its provider call and its key's slot.
 */
function stoppable<T>(items: AsyncGenerator<T>, stop: AbortController): AsyncIterableIterator<T> {
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => items.next(),
    return(value?: unknown) {
      stop.abort();
      return items.return(value as T);
    },
    throw(error?: unknown) {
      stop.abort();
      return items.throw(error);
    },
  };
}

builder.subscriptionFields((t) => ({
  chatCompletionStream: t.field({
    type: ChatCompletionChunkRef,
    description: "Generates a reply grounded in knowledge sources, streamed as chunks.",
    args: { input: t.arg({ type: ChatCompletionInput, required: true }) },
    subscribe: (_root, { input }, ctx) => {
      const stop = new AbortController();
      const signal = AbortSignal.any([ctx.request.signal, stop.signal]);
      return stoppable(
        streamItems(
          () => runCompletion(ctx.services.engine, chatRequestFromInput(input), { signal, caller: ctx.caller }),
          input.streamOptions?.includeUsage === true,
        ),
        stop,
      );
    },
    resolve: (item: StreamItem) => {
      if ("failed" in item) throw item.failed;
      return item;
    },
  }),
}));
