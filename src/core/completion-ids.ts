/**
 * The ids a caller sees for one completion: `chatcmpl-<hex>` on chat
 * completions, `resp_<hex>` (the same hex) on the Responses API. Feedback
 * takes either; what is stored is the chat id.
 */
const CHAT_PREFIX = "chatcmpl-";
const RESPONSE_PREFIX = "resp_";

export const responseIdFor = (completionId: string): string =>
  completionId.startsWith(CHAT_PREFIX) ? RESPONSE_PREFIX + completionId.slice(CHAT_PREFIX.length) : completionId;

export const completionIdOf = (publicId: string): string =>
  publicId.startsWith(RESPONSE_PREFIX) ? CHAT_PREFIX + publicId.slice(RESPONSE_PREFIX.length) : publicId;

/** The id the caller of a served completion saw: `resp_…` when it came through the Responses API. */
export const publicIdOf = (served: { id: string; interface: string }): string => (served.interface === "responses" ? responseIdFor(served.id) : served.id);
