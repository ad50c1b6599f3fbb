import { describe, expect, it } from "vitest";
import { buildPrompt, countPromptTokens } from "./prompt.ts";

describe("countPromptTokens", () => {
  it("counts each message's content plus OpenAI's chat framing (3 per message, 3 to prime the reply)", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const prompt = buildPrompt([{ role: "user", content: "How do I vacuum a table?" }], [{ referenceNumber: 1, title: "VACUUM", section: "", url: "https://x/v", text: "VACUUM reclaims storage." }]);
    expect(prompt).toHaveLength(2);
    expect(countPromptTokens(prompt, words)).toBe(words(prompt[0]!.content) + words(prompt[1]!.content) + 2 * 3 + 3);
  });
});
