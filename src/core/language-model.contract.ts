import { describe, expect, it } from "vitest";
import type { GroundingDocument, LanguageModel, ModelCallOptions, ModelStreamPart } from "./language-model.ts";

/**
 * The contract every LanguageModel implementation runs (extractive, OpenAI,
 * Anthropic): streamed and generated text agree, the stream ends with a
 * finish part, and an aborted call does not produce output.
 */
export const CONTRACT_DOCUMENTS: GroundingDocument[] = [
  {
    referenceNumber: 1,
    title: "Partial Indexes",
    section: "Creating a partial index",
    url: "https://docs.example/indexes-partial.html",
    text: "A partial index is an index built over a subset of a table. The subset is defined by a conditional expression called the predicate of the partial index. Use CREATE INDEX with a WHERE clause to create one.",
  },
];

export const contractCall = (extra: Partial<ModelCallOptions> = {}): ModelCallOptions => ({
  prompt: [
    { role: "system", content: "Answer from the excerpts. [1] Partial Indexes: A partial index is built over a subset of a table." },
    { role: "user", content: "How do I create a partial index?" },
  ],
  documents: CONTRACT_DOCUMENTS,
  ...extra,
});

export async function drain(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

export function languageModelContract(name: string, setup: () => Promise<{ model: LanguageModel; cleanup?: () => Promise<void> }>) {
  describe(`LanguageModel contract: ${name}`, () => {
    it("streams text deltas and ends with one finish part", async () => {
      const { model, cleanup } = await setup();
      const { stream } = await model.doStream(contractCall());
      const parts = await drain(stream);
      await cleanup?.();
      const deltas = parts.filter((p) => p.type === "text-delta");
      expect(deltas.length).toBeGreaterThan(1);
      expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
      expect(parts.filter((p) => p.type === "finish")).toHaveLength(1);
    });

    it("generates the same text it streams", async () => {
      const { model, cleanup } = await setup();
      const generated = await model.doGenerate(contractCall());
      const { stream } = await model.doStream(contractCall());
      const streamed = (await drain(stream)).map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
      await cleanup?.();
      expect(generated.text.length).toBeGreaterThan(0);
      expect(streamed).toBe(generated.text);
      expect(generated.finishReason).toBe("stop");
    });

    it("rejects a call whose signal is already aborted", async () => {
      const { model, cleanup } = await setup();
      const controller = new AbortController();
      controller.abort();
      const attempt = async () => drain((await model.doStream(contractCall({ abortSignal: controller.signal }))).stream);
      await expect(attempt()).rejects.toThrow();
      await cleanup?.();
    });
  });
}
