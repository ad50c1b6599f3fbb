import { z } from "zod";
import type { ChatCompletionRequest } from "../core/chat-request.ts";
import { FeedbackInput } from "../core/feedback.ts";
import { runCompletion } from "../core/run-completion.ts";
import { parseChatRequest } from "../core/validate-request.ts";
import { protectedProcedure, router, toTRPCError } from "./trpc.ts";

/** The request parsed as REST parses it (a misspelt `sources` refused, not dropped); clients see the schema's type. */
const chatRequest = (raw: unknown): ChatCompletionRequest => parseChatRequest(raw);

/**
 * The tRPC router: the same core, zod request schema and resource objects as
 * REST. Subscriptions stream one chunk per item.
 */
export const appRouter = router({
  chat: router({
    completions: router({
      create: protectedProcedure.input(chatRequest).mutation(async ({ input, ctx, signal }) => {
        try {
          return await (await runCompletion(ctx.services.engine, input, { signal, caller: ctx.caller })).collect();
        } catch (error) {
          throw toTRPCError(error);
        }
      }),
      stream: protectedProcedure.input(chatRequest).subscription(async function* ({ input, ctx, signal }) {
        let run: Awaited<ReturnType<typeof runCompletion>>;
        try {
          run = await runCompletion(ctx.services.engine, input, { signal, caller: ctx.caller });
        } catch (error) {
          throw toTRPCError(error);
        }
        for await (const event of run.chunks({ includeUsage: input.stream_options?.include_usage === true })) {
          if (event.type === "error") throw toTRPCError(event.error);
          yield event.chunk;
        }
      }),
    }),
  }),
  sources: router({
    list: protectedProcedure.query(async ({ ctx }) => (await ctx.services.resources.listSources(ctx.caller.scope)).data),
    get: protectedProcedure.input(z.object({ id: z.string().max(100) })).query(async ({ input, ctx }) => {
      try {
        return await ctx.services.resources.getSource(input.id, ctx.caller.scope);
      } catch (error) {
        throw toTRPCError(error);
      }
    }),
  }),
  models: router({
    list: protectedProcedure.query(({ ctx }) => ctx.services.resources.listModels().data),
  }),
  feedback: router({
    submit: protectedProcedure.input(FeedbackInput).mutation(async ({ input, ctx }) => {
      try {
        return await ctx.services.usage.submitFeedback(ctx.caller.key.id, input);
      } catch (error) {
        throw toTRPCError(error);
      }
    }),
  }),
});

export type AppRouter = typeof appRouter;
