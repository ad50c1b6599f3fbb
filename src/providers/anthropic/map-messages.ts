import type { ModelMessage } from "../../core/language-model.ts";

export interface AnthropicPrompt {
  system: string;
  messages: Array<{ role: "user" | "assistant"; content: string }>;
}

/**
 * Anthropic takes the system prompt apart and wants the conversation to start
 * with a user turn and alternate: system messages are joined, consecutive
 * turns of one role merged, and a leading assistant turn given a user turn.
 */
export function toAnthropicPrompt(prompt: readonly ModelMessage[]): AnthropicPrompt {
  const system = prompt
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const messages: AnthropicPrompt["messages"] = [];
  for (const m of prompt) {
    if (m.role === "system") continue;
    const last = messages.at(-1);
    if (last && last.role === m.role) last.content += `\n\n${m.content}`;
    else messages.push({ role: m.role, content: m.content });
  }
  if (messages[0]?.role === "assistant") messages.unshift({ role: "user", content: "(The conversation so far.)" });
  return { system, messages };
}
