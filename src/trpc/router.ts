import { z } from "zod";
import { ChatCompletionRequest } from "../core/chat-request.ts";
import { collectCompletion, completionChunks, CompletionFailed } from "../core/completion-object.ts";
import { notFound } from "../core/errors.ts";
import { protectedProcedure, router, toTRPCError } from "./trpc.ts";

/**
 * The tRPC router: the same core and the same zod request schema as REST,
 * returning the spec's objects. Subscriptions stream one chunk per item.
 */
export const appRouter = router({
  chat: router({
    completions: router({
      create: protectedProcedure.input(ChatCompletionRequest).mutation(async ({ input, ctx, signal }) => {
        try {
          const opened = await ctx.services.engine.open(input, { signal });
          return await collectCompletion(opened);
        } catch (error) {
          throw toTRPCError(error instanceof CompletionFailed ? error.error : error);
        }
      }),
      stream: protectedProcedure.input(ChatCompletionRequest).subscription(async function* ({ input, ctx, signal }) {
        const controller = new AbortController();
        const onAbort = () => controller.abort();
        signal?.addEventListener("abort", onAbort, { once: true });
        try {
          let opened;
          try {
            opened = await ctx.services.engine.open(input, { signal: controller.signal });
          } catch (error) {
            throw toTRPCError(error);
          }
          for await (const event of completionChunks(opened, { includeUsage: input.stream_options?.include_usage === true })) {
            if (event.type === "error") throw toTRPCError(event.error);
            yield event.chunk;
          }
        } finally {
          controller.abort();
          signal?.removeEventListener("abort", onAbort);
        }
      }),
    }),
  }),
  sources: router({
    list: protectedProcedure.query(({ ctx }) => ctx.services.catalog.list()),
    get: protectedProcedure.input(z.object({ id: z.string() })).query(async ({ input, ctx }) => {
      const source = await ctx.services.catalog.get(input.id);
      if (!source) throw toTRPCError(notFound(`No knowledge source with id '${input.id}'.`, "id", "source_not_found"));
      return source;
    }),
  }),
  models: router({
    list: protectedProcedure.query(({ ctx }) => ctx.services.models.list()),
  }),
});

export type AppRouter = typeof appRouter;
