import { FeedbackInput as FeedbackBody, type FeedbackResource } from "../../core/feedback.ts";
import { zodToBadRequest } from "../../core/validate-request.ts";
import { builder } from "../builder.ts";

const FeedbackRating = builder.enumType("FeedbackRating", { values: ["up", "down"] as const, description: "A reader's verdict on an answer." });

const FeedbackInput = builder.inputType("FeedbackInput", {
  description: "A rating of a completion this key was served (REST's POST /v1/feedback body).",
  fields: (t) => ({
    completionId: t.string({ required: true, description: "The completion's `id` (`chatcmpl-…`), or a Responses API `resp_…` id." }),
    rating: t.field({ type: FeedbackRating, required: true }),
    comment: t.string({ description: "What was wrong or missing (at most 2000 characters)." }),
  }),
});

const Feedback = builder.objectRef<FeedbackResource>("Feedback").implement({
  description: "A rating as stored; a later rating of the same completion replaces it.",
  fields: (t) => ({
    object: t.exposeString("object", { description: "Constant `feedback`." }),
    completionId: t.string({ resolve: (f) => f.completion_id }),
    rating: t.field({ type: FeedbackRating, resolve: (f) => f.rating }),
    comment: t.string({ nullable: true, resolve: (f) => f.comment }),
    createdAt: t.int({ description: "Unix seconds.", resolve: (f) => f.created_at }),
  }),
});

builder.mutationFields((t) => ({
  submitFeedback: t.field({
    type: Feedback,
    description: "Rates an answer this key was served; an unknown id, or another key's, is NOT_FOUND.",
    args: { input: t.arg({ type: FeedbackInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      // Renamed to the REST body and checked by the same schema.
      const body = { completion_id: input.completionId, rating: input.rating, comment: input.comment ?? undefined };
      const parsed = FeedbackBody.safeParse(body);
      if (!parsed.success) throw zodToBadRequest(parsed.error, body);
      return ctx.services.usage.submitFeedback(ctx.caller.key.id, parsed.data);
    },
  }),
}));
