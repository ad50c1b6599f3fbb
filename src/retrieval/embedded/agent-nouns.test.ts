import { describe, expect, it } from "vitest";
import { agentNouns } from "./agent-nouns.ts";

describe("agentNouns", () => {
  it("spells the -er and -or nouns of a verb", () => {
    expect(agentNouns("count")).toEqual(["counter", "countor"]);
    expect(agentNouns("parse")).toEqual(["parser", "parsor"]);
    expect(agentNouns("iterate")).toEqual(["iterater", "iterator"]);
    expect(agentNouns("edit")).toEqual(["editer", "editor"]);
  });

  it("doubles the last consonant of a short consonant-vowel-consonant word", () => {
    expect(agentNouns("log")).toContain("logger");
    expect(agentNouns("plan")).toContain("planner");
    expect(agentNouns("edit")).not.toContain("editter");
    expect(agentNouns("read")).not.toContain("readder");
  });

  it("leaves short words, numbers and identifiers alone", () => {
    expect(agentNouns("go")).toEqual([]);
    expect(agentNouns("utf8")).toEqual([]);
    expect(agentNouns("node_modules")).toEqual([]);
  });
});
