import { describe, expect, it } from "vitest";
import { englishAnalyzer } from "../text/english-analyzer.ts";
import { retrievalQuery } from "./conversation-query.ts";
import { isFragment, refersBack } from "./follow-up-signs.ts";

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

  it("reads a pronoun as leaning on the conversation unless it opens a clause, follows its noun as `that`, or is impersonal", () => {
    const leans = [
      "How do I drop it without locking the table?",
      "How do I do that in SQLite?",
      "What is the default value and the maximum for that setting?",
      "This is slow, how do I speed it up?",
      "Can I run it concurrently so that writes are not blocked while it builds?",
      "How do I change its owner and grant access to other roles?",
      "is that a good idea for a database",
      "what happens to the table if I drop it",
      "how do I mock the fetch call inside it",
    ];
    const standsAlone = [
      "I want a function that returns a list of every file in a folder",
      "Is it possible to read a large file lazily, line by line?",
      "It's safe to delete the WAL file when the database is closed?",
      "is it faster to use COPY or batched inserts to load a million rows",
      "does it matter what order columns are in a composite index",
      "How do I make sure that the index is used by the planner?",
      "how can i tell git to ignore the files that are already tracked",
    ];
    expect(leans.filter((q) => !refersBack(q))).toEqual([]);
    expect(standsAlone.filter((q) => refersBack(q))).toEqual([]);
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

  it("reads only a question's first words for its pronouns, whatever its length", () => {
    const long = `How do I fix this? ${"word ".repeat(2_000_000)}`;
    const own = `${"a file ".repeat(2_000_000)} it`;
    const started = performance.now();
    expect(refersBack(long)).toBe(true);
    expect(refersBack(own)).toBe(false);
    // Reading every word took ~430 ms a call on the 2-core machine; the first 200, under 1 ms.
    expect(performance.now() - started).toBeLessThan(250);
  });

  it("reads a message that opens as a phrase and asks nothing as adding to the previous question", () => {
    const fragments = [
      "with a tab delimiter and a quote character",
      "only locally, not on the remote",
      "or compressed, to save some space",
      "from a tag rather than main",
    ];
    const questions = [
      "in python, how do I sort a list of dicts by a key?",
      "with flask, how do I serve static files?",
      "for a big table, what does VACUUM FULL lock?",
      "limit the number of connections postgres accepts",
    ];
    expect(fragments.filter((q) => !isFragment(q))).toEqual([]);
    expect(questions.filter((q) => isFragment(q))).toEqual([]);
    const previous = { role: "user" as const, content: "How do I read a CSV file in Python?" };
    const answer = { role: "assistant" as const, content: "Use csv.reader." };
    const sourcesNamed = (text: string) => [...text.matchAll(/Python|Requests/gi)].map(([name]) => name.toLowerCase());
    const ask = (content: string) => retrievalQuery([previous, answer, { role: "user", content }], englishAnalyzer, { sourcesNamed });
    expect(ask("with a tab delimiter and a quote character")).toContain("read a CSV file");
    // A fragment naming another source asks the same of it.
    expect(ask("with requests streaming from a url instead of a local file")).toContain("read a CSV file");
    expect(ask("in python, how do I sort a list of dicts by a key?")).toBe("in python, how do I sort a list of dicts by a key?");
  });
});
