import { describe, expect, it } from "vitest";
import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { CompletionOutcome, RequestTrace } from "./completion-outcome.ts";
import { createOutcomeRecorder } from "./outcome-recorder.ts";

const source = { id: "s1", name: "Docs", description: "", baseUrl: "https://d.example/" };

/** The outcome one reply's parts end in, with the sources it was given and no reference cited. */
async function outcomeOf(parts: ChatPart[]): Promise<CompletionOutcome> {
  const outcomes: CompletionOutcome[] = [];
  const trace: RequestTrace = { requestId: "r1", interface: "rest", keyId: "k1", complete: async (o) => void outcomes.push(o) };
  const opened = {
    model: "provider_a",
    provider: "openai",
    modelId: "m",
    sources: [source],
    references: [],
    grounding: { refused: false, coverage: 0.9, closest: [], retrievalMs: 1 },
    parts: (async function* () {})(),
  } as unknown as OpenedCompletion;
  const recorder = createOutcomeRecorder(trace, {
    opened,
    meta: { id: "chatcmpl-1", created: 1, model: "provider_a", systemFingerprint: "fp" },
    question: "How do I pick a lock?",
    startedAt: 0,
    openMs: 1,
  });
  for (const part of parts) await recorder.observe(part);
  return outcomes[0]!;
}

const finish: ChatPart = { type: "finish", finishReason: "stop", usage: { promptTokens: 10, completionTokens: 5 } } as ChatPart;

describe("outcome recorder", () => {
  it("a model that cited none of the sources it was given refused; one that sent a refusal declined on its own grounds", async () => {
    const silent = await outcomeOf([{ type: "text-delta", delta: "Nothing in these excerpts says." } as ChatPart, finish]);
    expect(silent.grounding).toMatchObject({ refused: true, byModel: true });
    expect(silent.grounding!.modelRefusal).toBeUndefined();

    const refusal = await outcomeOf([{ type: "refusal-delta", delta: "I can't help with that." } as ChatPart, finish]);
    expect(refusal.grounding).toMatchObject({ refused: true, byModel: true, modelRefusal: true });
    expect(refusal.answer).toBe("I can't help with that.");
  });
});
