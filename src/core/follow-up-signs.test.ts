import { describe, expect, it } from "vitest";
import { isFragment, refersBack } from "./follow-up-signs.ts";

describe("follow-up signs", () => {
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

  it("reads only a question's first words for its pronouns, whatever its length", () => {
    const long = `How do I fix this? ${"word ".repeat(2_000_000)}`;
    const own = `${"a file ".repeat(2_000_000)} it`;
    expect(refersBack(long)).toBe(true);
    // The pronoun after two million words is never read.
    expect(refersBack(own)).toBe(false);
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
  });
});
