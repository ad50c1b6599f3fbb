import { z } from "zod";
import { completionIdOf } from "./completion-ids.ts";
import { notFound } from "./errors.ts";
import type { Rating, ServedCompletionStore } from "./served-completions.ts";

export const MAX_FEEDBACK_COMMENT_CHARS = 2000;

/** The feedback body, the same for REST, GraphQL and tRPC. */
export const FeedbackInput = z.strictObject({
  /** The `id` of a chat completion (`chatcmpl-…`) or of a Responses API response (`resp_…`). */
  completion_id: z.string().min(1).max(200),
  rating: z.enum(["up", "down"]),
  comment: z.string().max(MAX_FEEDBACK_COMMENT_CHARS).nullish(),
});
export type FeedbackInput = z.infer<typeof FeedbackInput>;

/** What feedback answers, in every interface. */
export interface FeedbackResource {
  object: "feedback";
  completion_id: string;
  rating: Rating;
  comment: string | null;
  /** Unix seconds. */
  created_at: number;
}

export interface FeedbackDeps {
  served: ServedCompletionStore;
  /** Writes completions noted but not yet stored, so a reply's id can be rated as soon as it has ended. */
  flush: () => Promise<void>;
  /**
   * Whether a reader's comment is kept: only with question storage on (STORE_QUESTIONS=1), since a comment is a
   * reader's own words as a question is, and often quotes it. Off, a rating keeps ids, references and the rating.
   */
  keepComments: boolean;
  now?: () => Date;
}

/**
 * Rates a completion docent served to this key. An unknown id and another
 * key's id are refused alike (404), so ids cannot be probed. The answer's
 * `comment` is what was kept: null when comments are not.
 */
export function createFeedback({ served, flush, keepComments, now = () => new Date() }: FeedbackDeps) {
  return async function submitFeedback(keyId: string, input: FeedbackInput): Promise<FeedbackResource> {
    const id = completionIdOf(input.completion_id);
    const comment = keepComments && input.comment?.trim() ? input.comment.trim() : null;
    const at = now();
    const feedback = { rating: input.rating, comment, at };
    const rated = (await served.rate(id, keyId, feedback)) || (await flush().then(() => served.rate(id, keyId, feedback)));
    if (!rated) {
      throw notFound(`No completion with id '${input.completion_id}' was served to this API key.`, "completion_id", "completion_not_found");
    }
    return { object: "feedback", completion_id: input.completion_id, rating: input.rating, comment, created_at: Math.floor(at.getTime() / 1000) };
  };
}

export type SubmitFeedback = ReturnType<typeof createFeedback>;
