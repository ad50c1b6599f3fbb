import { builder } from "../builder.ts";

export const ChatMessageInput = builder.inputType("ChatMessageInput", {
  description: "A message of the conversation.",
  fields: (t) => ({
    role: t.string({ required: true, description: "One of `user`, `system` and `assistant`; other roles are rejected." }),
    content: t.string({ required: true }),
    name: t.string(),
  }),
});

export const StreamOptionsInput = builder.inputType("StreamOptionsInput", {
  fields: (t) => ({ includeUsage: t.boolean({ description: "Adds a final chunk with the token usage." }) }),
});

export const ChatCompletionInput = builder.inputType("ChatCompletionInput", {
  description: "The chat-completions request (the REST body in GraphQL naming), validated by the same schema.",
  fields: (t) => ({
    model: t.string({ required: true, description: "Selects the model or agent: `agent`, `provider_a` or `provider_b`." }),
    messages: t.field({
      type: [ChatMessageInput],
      required: true,
      description: "The conversation. Only message roles `user`, `system` and `assistant` are supported.",
    }),
    stream: t.boolean({ description: "Ignored here: use the chatCompletionStream subscription to stream." }),
    sources: t.idList({ description: "Identifiers of the knowledge sources to use (UUIDs). When null or absent, the agent is used." }),
    includeReferences: t.boolean({ description: "Toggles whether web URL references are streamed back within the response content." }),
    responseFormat: t.field({ type: "JSON", description: "Specifies the format the model must output (structured output)." }),
    streamOptions: t.field({ type: StreamOptionsInput }),
    temperature: t.float(),
    topP: t.float(),
    maxTokens: t.int(),
    maxCompletionTokens: t.int(),
    n: t.int({ description: "Only 1 is supported." }),
    stop: t.stringList(),
    seed: t.int(),
    user: t.string(),
  }),
});
