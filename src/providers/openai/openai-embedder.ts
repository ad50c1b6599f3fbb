import type OpenAI from "openai";
import { type Embedder, normalise } from "../../core/embedder.ts";
import { mapProviderError } from "../provider-error.ts";

/** Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, vLLM, Ollama, llama.cpp…). */
export function createOpenAIEmbedder({ client, modelId, batchSize = 64 }: { client: OpenAI; modelId: string; batchSize?: number }): Embedder {
  const label = { name: "embeddings", provider: "openai-compatible", modelId, keyVariable: "EMBEDDINGS_API_KEY", modelVariable: "EMBEDDINGS_MODEL" };
  return {
    modelId,
    async embed(texts, { abortSignal } = {}) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        try {
          const response = await client.embeddings.create(
            { model: modelId, input: texts.slice(i, i + batchSize), encoding_format: "float" },
            { signal: abortSignal },
          );
          const ordered = [...response.data].sort((a, b) => a.index - b.index);
          out.push(...ordered.map((d) => normalise(d.embedding)));
        } catch (error) {
          throw mapProviderError(error, label);
        }
      }
      return out;
    },
  };
}
