import { describe, expect, it } from "vitest";
import { englishAnalyzer } from "../text/english-analyzer.ts";
import { retrievalQuery } from "./conversation-query.ts";

describe("retrievalQuery", () => {
  it("uses the last question alone when it stands on its own", () => {
    expect(
      retrievalQuery(
        [
          { role: "user", content: "How do I create a table?" },
          { role: "assistant", content: "Use CREATE TABLE." },
          { role: "user", content: "How do I rank full text search results by relevance?" },
        ],
        englishAnalyzer,
      ),
    ).toBe("How do I rank full text search results by relevance?");
  });
  it("does not borrow from a question that stands on its own, however short, or from context a client added", () => {
    const previous = { role: "user" as const, content: "How do I create a table?" };
    const question = { role: "user" as const, content: "How do I revoke an API key?" };
    expect(retrievalQuery([previous, { role: "assistant", content: "Use CREATE TABLE." }, question], englishAnalyzer)).toBe(question.content);
    // Coding agents send the working directory and project notes as user turns of tagged blocks.
    const context = { role: "user" as const, content: "<environment_context>\n  <cwd>/src/app</cwd>\n  <shell>bash</shell>\n</environment_context>" };
    const notes = {
      role: "user" as const,
      content: "<user_instructions>Use pnpm.</user_instructions>\n<environment_context><cwd>/</cwd></environment_context>",
    };
    const followUp = { role: "user" as const, content: "and how do I drop it?" };
    expect(retrievalQuery([context, notes, followUp], englishAnalyzer)).toBe(followUp.content);
    expect(retrievalQuery([previous, context, followUp], englishAnalyzer)).toBe(`${followUp.content} ${previous.content}`);
    // A client that wraps every question in tags wrapped the earlier ones so too: those are questions.
    const wrapped = (q: string) => ({ role: "user" as const, content: `<user_query>${q}</user_query>` });
    expect(retrievalQuery([wrapped("How do I create an index?"), wrapped("and how do I drop it?")], englishAnalyzer)).toBe(
      "<user_query>and how do I drop it?</user_query> <user_query>How do I create an index?</user_query>",
    );
    // A question that only begins with a tag is a question.
    const tagged = { role: "user" as const, content: "<b>How</b> do I create an index?" };
    expect(retrievalQuery([tagged, followUp], englishAnalyzer)).toBe(`${followUp.content} ${tagged.content}`);
  });

  it("carries the subject over into a short follow-up", () => {
    const query = retrievalQuery(
      [
        { role: "user", content: "How do I create an index on a table?" },
        { role: "assistant", content: "Use CREATE INDEX." },
        { role: "user", content: "and how do I drop it?" },
      ],
      englishAnalyzer,
    );
    expect(query).toContain("drop");
    expect(query).toContain("index");
  });

  it("asks a question alone when it names a source its previous question did not, pronouns and all", () => {
    const sourcesNamed = (text: string) => [...text.matchAll(/PostgreSQL|Python|SQLite/g)].map(([name]) => name);
    const previous = { role: "user" as const, content: "How do I create an index on a table in PostgreSQL?" };
    const answer = { role: "assistant" as const, content: "Use CREATE INDEX." };
    const ask = (content: string) => retrievalQuery([previous, answer, { role: "user", content }], englishAnalyzer, { sourcesNamed });
    const python = "How can I check that a file exists before opening it in Python?";
    expect(ask(python)).toBe(python);
    // Still a follow-up: the same source, or too short to stand alone ("do that in SQLite?" asks the same of another).
    expect(ask("Can I build it in PostgreSQL without locking writes?")).toContain("create an index");
    expect(ask("How do I do that in SQLite?")).toContain("create an index");
    // Without a way to read source names, the pronoun decides.
    expect(retrievalQuery([previous, answer, { role: "user", content: python }], englishAnalyzer)).toContain("create an index");
  });

  it("borrows for a fragment, and asks alone one whose opening phrase names another source", () => {
    const previous = { role: "user" as const, content: "How do I read a CSV file in Python?" };
    const answer = { role: "assistant" as const, content: "Use csv.reader." };
    const sourcesNamed = (text: string) => [...text.matchAll(/Python|Requests/gi)].map(([name]) => name.toLowerCase());
    const ask = (content: string) => retrievalQuery([previous, answer, { role: "user", content }], englishAnalyzer, { sourcesNamed });
    expect(ask("with a tab delimiter and a quote character")).toContain("read a CSV file");
    // A fragment naming another source asks the same of it.
    expect(ask("with requests from a url instead")).toContain("read a CSV file");
    expect(ask("in python, how do I sort a list of dicts by a key?")).toBe("in python, how do I sort a list of dicts by a key?");
    // An opening phrase that sets the scene in another source, or a longer message, states its own request.
    for (const own of ["In Requests, stream to a file", "in requests list every header the server sent back with its value"]) expect(ask(own)).toBe(own);
  });
});
