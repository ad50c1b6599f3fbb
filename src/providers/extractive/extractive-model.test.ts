import { describe, expect, it } from "vitest";
import { contractCall, drain, languageModelContract } from "../../core/language-model.contract.ts";
import { countTokens } from "../tokenizer.ts";
import { createExtractiveModel } from "./extractive-model.ts";

languageModelContract("extractive", async () => ({ model: createExtractiveModel({ countTokens }) }));

describe("extractive model", () => {
  it("cuts the reply at maxOutputTokens and reports finish reason length", async () => {
    const model = createExtractiveModel({ countTokens });
    const { stream } = await model.doStream(contractCall({ maxOutputTokens: 5 }));
    const parts = await drain(stream);
    const text = parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
    expect(countTokens(text)).toBeLessThanOrEqual(5);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "length" });
  });
});
