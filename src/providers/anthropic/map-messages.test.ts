import { describe, expect, it } from "vitest";
import { buildPrompt } from "../../core/prompt.ts";
import { toAnthropicPrompt } from "./map-messages.ts";

describe("toAnthropicPrompt", () => {
  const documents = [{ referenceNumber: 1, title: "VACUUM", section: "", url: "https://x/v", text: "VACUUM reclaims storage." }];

  it("keeps the documentation block out of `system`: it opens the first user turn, the question after it", () => {
    const prompt = buildPrompt(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "How do I vacuum?" },
      ],
      documents,
      null,
      { nonce: "abc" },
    );
    const { system, messages } = toAnthropicPrompt(prompt);
    expect(system).not.toContain("reclaims storage");
    expect(system).toContain("</documentation-abc>");
    expect(system.endsWith("Be brief.")).toBe(true);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.role).toBe("user");
    expect(messages[0]!.content).toMatch(/^Documentation excerpts[\s\S]*VACUUM reclaims storage\.\n\n<\/documentation-abc>\n\nHow do I vacuum\?$/);
  });

  it("still alternates roles when the conversation starts with the assistant", () => {
    const prompt = buildPrompt(
      [
        { role: "assistant", content: "Hi, ask me." },
        { role: "user", content: "How do I vacuum?" },
      ],
      documents,
    );
    expect(toAnthropicPrompt(prompt).messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});
