import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { createModelRegistry } from "./model-registry.ts";

const agentOf = (env: Record<string, string>) => {
  const registry = createModelRegistry(loadConfig({ DATA_DIR: "/tmp/docent-registry-test", ...env }), (text) => text.length);
  return registry.list().find((m) => m.id === "agent")!;
};

describe("the agent's structured-output model", () => {
  it("by default is another model than the agent's own, when a second is configured (the spec's switch)", () => {
    const both = agentOf({ OPENAI_API_KEY: "sk-a", ANTHROPIC_API_KEY: "sk-b", PROVIDER_A_MODEL: "gpt-x", PROVIDER_B_MODEL: "claude-y" });
    expect(both).toMatchObject({ resolvesTo: "openai/gpt-x", structuredResolvesTo: "anthropic/claude-y" });
    const agentOnB = agentOf({
      OPENAI_API_KEY: "sk-a",
      ANTHROPIC_API_KEY: "sk-b",
      PROVIDER_A_MODEL: "gpt-x",
      PROVIDER_B_MODEL: "claude-y",
      AGENT_MODEL: "provider_b",
    });
    expect(agentOnB).toMatchObject({ resolvesTo: "anthropic/claude-y", structuredResolvesTo: "openai/gpt-x" });
  });

  it("is the one provider configured when there is only one, and what AGENT_STRUCTURED_MODEL names when set", () => {
    expect(agentOf({ OPENAI_API_KEY: "sk-a", PROVIDER_A_MODEL: "gpt-x" })).toMatchObject({ resolvesTo: "openai/gpt-x", structuredResolvesTo: "openai/gpt-x" });
    expect(agentOf({ AGENT_MODEL: "extractive", ANTHROPIC_API_KEY: "sk-b", PROVIDER_B_MODEL: "claude-y" })).toMatchObject({
      structuredResolvesTo: "anthropic/claude-y",
    });
    const named = agentOf({ OPENAI_API_KEY: "sk-a", ANTHROPIC_API_KEY: "sk-b", PROVIDER_A_MODEL: "gpt-x", AGENT_STRUCTURED_MODEL: "provider_a" });
    expect(named.structuredResolvesTo).toBe("openai/gpt-x");
  });
});
