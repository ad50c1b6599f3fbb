import { describe, expect, it } from "vitest";
import { inertLinks } from "./inert-links.ts";

describe("inertLinks", () => {
  it("escapes the bracket that opens a link, an image or a link reference definition", () => {
    expect(inertLinks("See [the guide](https://evil.example/g) and ![x](https://evil.example/i.png).")).toBe(
      "See \\[the guide](https://evil.example/g) and !\\[x](https://evil.example/i.png).",
    );
    expect(inertLinks("[1]: https://evil.example/a\n- [2]: https://evil.example/b\n  3. [note]: x")).toBe(
      "\\[1]: https://evil.example/a\n- \\[2]: https://evil.example/b\n  3. \\[note]: x",
    );
  });

  it("leaves code spans, escaped brackets, indexes and note numbers as they are", () => {
    const text = "Use `[x](y)` or `[1]: z`, argv[2], \\[done](x) and a note [3].";
    expect(inertLinks(text)).toBe(text);
  });
});
