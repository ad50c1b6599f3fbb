import { describe, expect, it } from "vitest";
import { buildPrompt, countPromptTokens, countTextTokens, EXACT_PROMPT_CHARS } from "./prompt.ts";

describe("countPromptTokens", () => {
  it("counts each message's content plus OpenAI's chat framing (3 per message, 3 to prime the reply)", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const prompt = buildPrompt([{ role: "user", content: "How do I vacuum a table?" }], [{ referenceNumber: 1, title: "VACUUM", section: "", url: "https://x/v", text: "VACUUM reclaims storage." }]);
    expect(prompt).toHaveLength(2);
    expect(countPromptTokens(prompt, words)).toBe(words(prompt[0]!.content) + words(prompt[1]!.content) + 2 * 3 + 3);
  });

  it("counts at most EXACT_PROMPT_CHARS of the caller's text and estimates the rest at the rate measured", () => {
    const given: string[] = [];
    const words = (text: string) => (given.push(text), text.split(/\s+/).filter(Boolean).length);
    const documents = [{ referenceNumber: 1, title: "VACUUM", section: "", url: "https://x/v", text: "VACUUM reclaims storage. ".repeat(400) }];
    const conversation = Array.from({ length: 1000 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "word ".repeat(80) }));
    const prompt = buildPrompt(conversation, documents);
    const counted = countPromptTokens(prompt, words);
    // docent's own system message is counted whole; of the 400,000 characters of conversation, only the budget.
    expect(given[0]).toBe(prompt[0]!.content);
    expect(given.slice(1).join("").length).toBeLessThanOrEqual(EXACT_PROMPT_CHARS);
    const exact = words(prompt[0]!.content) + 1000 * 80 + 3 * prompt.length + 3;
    expect(Math.abs(counted - exact) / exact).toBeLessThan(0.01);

    given.length = 0;
    expect(countTextTokens("word ".repeat(20_000), words)).toBe(20_000);
    expect(given.join("").length).toBeLessThanOrEqual(EXACT_PROMPT_CHARS);
  });
});
