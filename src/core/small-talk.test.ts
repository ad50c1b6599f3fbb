import { describe, expect, it } from "vitest";
import { smallTalk, smallTalkReply, withoutPleasantries } from "./small-talk.ts";
import type { SourceInfo } from "./source-catalog.ts";

const source = (name: string) => ({ id: name, name }) as SourceInfo;

describe("small talk", () => {
  it("recognises greetings, thanks, farewells and questions about docent itself", () => {
    expect(smallTalk("hi")).toBe("greeting");
    expect(smallTalk("Hello there!")).toBe("greeting");
    expect(smallTalk("Good morning, how are you today?")).toBe("greeting");
    expect(smallTalk("thanks, that helped!")).toBe("thanks");
    expect(smallTalk("Thank you so much")).toBe("thanks");
    expect(smallTalk("ok bye")).toBe("farewell");
    expect(smallTalk("What can you do?")).toBe("about");
    expect(smallTalk("Hi, what can you do?")).toBe("about");
  });

  it("answers chit-chat that asks docent to be something else with what it is for", () => {
    expect(smallTalk("Tell me a joke")).toBe("about");
    expect(smallTalk("are you a robot?")).toBe("about");
    expect(smallTalk("I'm bored, let's chat")).toBe("about");
    // A joke about a subject is a request about it: left to retrieval, which refuses it or not.
    expect(smallTalk("Tell me a joke about git rebase")).toBeNull();
  });

  it("leaves every real question to retrieval, greeting or not", () => {
    expect(smallTalk("Hi, how do I create an index?")).toBeNull();
    expect(smallTalk("How are indexes stored?")).toBeNull();
    expect(smallTalk("thanks, and how do I drop it?")).toBeNull();
    expect(smallTalk("help with git rebase")).toBeNull();
    expect(smallTalk("")).toBeNull();
  });

  it("replies briefly, saying what docent can answer", () => {
    const reply = smallTalkReply("greeting", ["PostgreSQL 15", "SQLite", "Git", "Flask", "Requests"].map(source));
    expect(reply).toBe(
      "Hello! I answer questions from the documentation in my knowledge sources (PostgreSQL 15, SQLite, Git, Flask and 1 more) and cite the pages I draw on. What would you like to know?",
    );
    expect(smallTalkReply("thanks", [source("SQLite")])).toMatch(/^You're welcome! .*\(SQLite\)/);
    expect(smallTalkReply("about", [])).toMatch(/no knowledge source is available to me \(none has been added, or none is open to this API key\)\.$/);
  });

  it("searches a question without the greeting before it or the thanks after it", () => {
    expect(withoutPleasantries("Hi there! How do I create an index? Thanks!")).toBe("How do I create an index?");
    expect(withoutPleasantries("hello, what does VACUUM do, please")).toBe("what does VACUUM do");
    expect(withoutPleasantries("Thanks")).toBe("Thanks");
    expect(withoutPleasantries("How do I say thanks in a commit message?")).toBe("How do I say thanks in a commit message?");
    // Repeated thanks with doubled spaces once made the regex backtrack exponentially (×25 blocked the server 3.5 s; ×30 would take minutes).
    expect(withoutPleasantries(`How do I vacuum${"  please".repeat(30)} x`)).toBe(`How do I vacuum${"  please".repeat(30)} x`);
    expect(withoutPleasantries(`How do I vacuum${"  please".repeat(30)}`)).toBe("How do I vacuum");
    expect(withoutPleasantries(`How do I vacuum${" ".repeat(100_000)}, thanks`)).toBe("How do I vacuum");
  });
});

describe("small talk beyond the fixed phrases", () => {
  const isWord = (w: string) => ["worked", "sam", "pagination", "vacuum", "hours"].includes(w);

  it("takes interjections and one clause beside a clear greeting or thanks for small talk", () => {
    expect(smallTalk("lol")).toBe("reaction");
    expect(smallTalk("Hmm, interesting.")).toBe("reaction");
    expect(smallTalk("that worked, thank you!!", isWord)).toBe("thanks");
    expect(smallTalk("Hello! Nice to meet you, I'm Sam.", isWord)).toBe("greeting");
    expect(smallTalk("Hi, is anyone there?", isWord)).toBe("greeting");
    // A fix reported back, and a first message that only checks the service answers.
    expect(smallTalk("Great, that fixed it.", isWord)).toBe("thanks");
    expect(smallTalk("ok it works now", isWord)).toBe("thanks");
    expect(smallTalk("test", isWord)).toBe("greeting");
    expect(smallTalk("testing, testing", isWord)).toBe("greeting");
    // Beside anything else they open a question or a complaint, not small talk.
    for (const text of [
      "how to test",
      "test the database",
      "testing the upgrade",
      "is this a test",
      "nothing works now",
      "it worked in the past",
      "that worked, but what about vacuum?",
    ])
      expect(
        smallTalk(text, (w) => w !== "vacuum"),
        text,
      ).toBeNull();
    expect(smallTalkReply("reaction", [source("SQLite")])).toMatch(/^Glad to help\. I answer questions/);
  });

  it("leaves a word beside a greeting to retrieval when it is a query: bare, asked, a name, or after a mere ok", () => {
    expect(smallTalk("Hello, pagination", isWord)).toBeNull();
    expect(smallTalk("hi, VACUUM?", isWord)).toBeNull();
    expect(smallTalk("thanks! and now sqlite", isWord)).toBeNull();
    expect(smallTalk("ok, and that vacuum", isWord)).toBeNull();
    expect(smallTalk("thanks, that worked for vacuum and pagination", isWord)).toBeNull();
  });

  it("leaves reports that something failed and questions beside a reaction to retrieval", () => {
    for (const text of [
      "thanks, but that did not work",
      "thanks, that did not help",
      "Interesting, what does it do?",
      "hmm, can it do that?",
      "yes, but what is that?",
    ])
      expect(smallTalk(text, isWord), text).toBeNull();
  });
});

it("does not read a long message as small talk, however it is made", () => {
  expect(smallTalk(`hi ${"!".repeat(300)}`)).toBeNull();
  expect(smallTalk(`thanks ${"— ".repeat(200)}`)).toBeNull();
  expect(smallTalk(`  thanks${" ".repeat(400)}`)).toBe("thanks");
});
