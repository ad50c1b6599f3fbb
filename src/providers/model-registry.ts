import { createRequire } from "node:module";
import type Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { Config } from "../config.ts";
import { DocentError, notFound } from "../core/errors.ts";
import type { LanguageModel } from "../core/language-model.ts";
import type { ModelDescription, ModelRegistry } from "../core/model-registry.ts";
import type { TextAnalyzer } from "../core/text-analyzer.ts";
import { createAnthropicModel } from "./anthropic/anthropic-model.ts";
import { createExtractiveModel } from "./extractive/extractive-model.ts";
import { withFallback } from "./fallback-model.ts";
import { createOpenAIModel } from "./openai/openai-model.ts";
import { describeProvider, type ProviderLabel } from "./provider-error.ts";
import { type RetryPolicy, withRetries } from "./retrying-model.ts";

type Slot = { model: LanguageModel | null; resolvesTo: string; missing: string | null };

/**
 * The Anthropic SDK, loaded only when a model of Anthropic's is configured
 * (still at start, where the registry is built): unused, it held ~5 MB of
 * heap and ~20 MB of RSS in every server.
 */
const anthropicSdk = () => createRequire(import.meta.url)("@anthropic-ai/sdk") as typeof Anthropic;

export const PUBLIC_MODELS = ["agent", "provider_a", "provider_b"] as const;

/**
 * Builds the models from configuration: provider_a (OpenAI or any compatible
 * server), provider_b (Anthropic) and the agent, which uses AGENT_MODEL or,
 * by default, the first provider with a key and else the offline generator.
 */
export function createModelRegistry(config: Config, countTokens: (text: string) => number, analyzer?: TextAnalyzer): ModelRegistry {
  const extractive = createExtractiveModel({ countTokens, analyzer });
  // The SDKs do not retry (maxRetries 0): withRetries does, with a deadline and cancellable waits.
  const policy: RetryPolicy = {
    maxRetries: config.PROVIDER_MAX_RETRIES,
    attemptTimeoutMs: config.PROVIDER_TIMEOUT_MS,
    deadlineMs: config.PROVIDER_DEADLINE_MS,
  };
  const openai = (modelId: string, name: string): Slot => {
    const label: ProviderLabel = {
      name,
      provider: "openai",
      modelId,
      keyVariable: "OPENAI_API_KEY",
      modelVariable: name === "provider_a" ? "PROVIDER_A_MODEL" : "AGENT_MODEL",
    };
    // A custom OPENAI_BASE_URL (vLLM, Ollama, llama.cpp) usually needs no key.
    const apiKey = config.OPENAI_API_KEY ?? (config.OPENAI_BASE_URL ? "not-needed" : undefined);
    if (!apiKey) return { model: null, resolvesTo: `openai/${modelId}`, missing: "OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)" };
    const client = new OpenAI({ apiKey, baseURL: config.OPENAI_BASE_URL, timeout: config.PROVIDER_TIMEOUT_MS, maxRetries: 0 });
    const maxTokensField = config.OPENAI_BASE_URL ? "max_tokens" : "max_completion_tokens";
    return {
      model: withRetries(createOpenAIModel({ client, label, maxTokensField }), describeProvider(label), policy),
      resolvesTo: `openai/${modelId}`,
      missing: null,
    };
  };
  const anthropic = (modelId: string, name: string): Slot => {
    const label: ProviderLabel = {
      name,
      provider: "anthropic",
      modelId,
      keyVariable: "ANTHROPIC_API_KEY",
      modelVariable: name === "provider_b" ? "PROVIDER_B_MODEL" : "AGENT_MODEL",
    };
    if (!config.ANTHROPIC_API_KEY) return { model: null, resolvesTo: `anthropic/${modelId}`, missing: "ANTHROPIC_API_KEY" };
    const client = new (anthropicSdk())({
      apiKey: config.ANTHROPIC_API_KEY,
      baseURL: config.ANTHROPIC_BASE_URL,
      timeout: config.PROVIDER_TIMEOUT_MS,
      maxRetries: 0,
    });
    return { model: withRetries(createAnthropicModel({ client, label }), describeProvider(label), policy), resolvesTo: `anthropic/${modelId}`, missing: null };
  };

  const slots = new Map<string, Slot>();
  slots.set("provider_a", openai(config.PROVIDER_A_MODEL, "provider_a"));
  slots.set("provider_b", anthropic(config.PROVIDER_B_MODEL, "provider_b"));
  const choice = config.AGENT_MODEL;
  const offline: Slot = { model: extractive, resolvesTo: `extractive/${extractive.modelId}`, missing: null };
  // AGENT_FALLBACK: a provider model of the agent's is backed by the other provider, when that one is configured.
  const withOtherProvider = (slot: Slot): Slot => {
    const other = slot.model?.provider === "openai" ? slots.get("provider_b")! : slot.model?.provider === "anthropic" ? slots.get("provider_a")! : null;
    if (!config.AGENT_FALLBACK || !slot.model || !other?.model) return slot;
    return { ...slot, model: withFallback(slot.model, other.model) };
  };
  let agent: Slot;
  if (choice === "extractive") agent = offline;
  else if (choice === "provider_a" || choice === "provider_b") agent = slots.get(choice)!;
  else if (choice.startsWith("openai:")) agent = openai(choice.slice(7), "agent");
  else if (choice.startsWith("anthropic:")) agent = anthropic(choice.slice(10), "agent");
  else agent = [slots.get("provider_a")!, slots.get("provider_b")!].find((s) => s.model) ?? offline;
  slots.set("agent", withOtherProvider(agent));

  // Structured output: the agent switches to AGENT_STRUCTURED_MODEL, by default to a configured provider model
  // other than its own (the spec's switch), else to the one configured (the offline generator cannot write to a schema).
  const structuredChoice = config.AGENT_STRUCTURED_MODEL;
  let structured: Slot;
  if (structuredChoice === "provider_a" || structuredChoice === "provider_b") structured = slots.get(structuredChoice)!;
  else if (structuredChoice.startsWith("openai:")) structured = openai(structuredChoice.slice(7), "agent");
  else if (structuredChoice.startsWith("anthropic:")) structured = anthropic(structuredChoice.slice(10), "agent");
  else {
    const configured = [slots.get("provider_a")!, slots.get("provider_b")!].filter((s) => s.model);
    structured = configured.find((s) => s.resolvesTo !== agent.resolvesTo) ??
      configured[0] ?? {
        model: null,
        resolvesTo: "none",
        missing: "OPENAI_API_KEY or ANTHROPIC_API_KEY (or AGENT_STRUCTURED_MODEL)",
      };
  }

  structured = withOtherProvider(structured);

  return {
    resolve(name, { structured: wantsStructured = false } = {}) {
      if (wantsStructured && name === "agent") {
        if (!structured.model) {
          throw new DocentError(
            "BAD_REQUEST",
            `Structured output needs a model that can follow a JSON schema, and none is configured: set ${structured.missing}.`,
            {
              param: "response_format",
              reason: "structured_output_unavailable",
            },
          );
        }
        return structured.model;
      }
      const slot = slots.get(name);
      if (!slot) throw notFound(`The model '${name}' does not exist. Use one of: ${PUBLIC_MODELS.join(", ")}.`, "model", "model_not_found");
      if (!slot.model) {
        throw new DocentError("BAD_REQUEST", `The model '${name}' (${slot.resolvesTo}) is not configured on this server: set ${slot.missing}.`, {
          param: "model",
          reason: "model_not_configured",
        });
      }
      return slot.model;
    },
    list(): ModelDescription[] {
      return PUBLIC_MODELS.map((id) => {
        const slot = slots.get(id)!;
        return {
          id,
          resolvesTo: slot.resolvesTo,
          available: slot.model !== null,
          unavailableReason: slot.missing && `set ${slot.missing}`,
          ...(id === "agent" && { structuredResolvesTo: structured.model ? structured.resolvesTo : null }),
        };
      });
    },
  };
}
