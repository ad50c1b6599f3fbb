/** A stretch of passage text: prose, a fenced code block, or a list (consecutive `- ` / `1. ` items). */
export interface Block {
  kind: "prose" | "code" | "list";
  /** Prose and list text as extracted; code without its fences. */
  text: string;
}

const ITEM = /^(?:[-*•]|\d+\.)\s+/;
/** A fence line as ingestion writes it (section.ts): three or more backticks, closed by the same line. */
const FENCE_LINE = /^`{3,}$/;

/**
 * Splits a passage into blocks. Ingestion fences code (```) and marks list
 * items, so a code example or a list can be quoted whole rather than cut
 * into sentences.
 */
export function passageBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const push = (kind: Block["kind"], body: string) => {
    if (!body.trim()) return;
    const last = blocks.at(-1);
    // Paragraph breaks separate list items as they do paragraphs: consecutive items are one list.
    if (last && last.kind === kind && kind !== "code") last.text += `\n${body}`;
    else blocks.push({ kind, text: body });
  };
  const lines = text.split("\n");
  let blank = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE_LINE.test(line.trim())) {
      const fence = line.trim();
      let end = i + 1;
      while (end < lines.length && lines[end]!.trim() !== fence) end++;
      blocks.push({
        kind: "code",
        text: lines
          .slice(i + 1, end)
          .join("\n")
          .replace(/^\n+|\n+$/g, ""),
      });
      i = end;
      blank = true;
      continue;
    }
    if (!line.trim()) {
      // A blank line ends a prose paragraph (but not a list: its items are often spaced).
      if (blocks.at(-1)?.kind === "prose") blocks.push({ kind: "prose", text: "" });
      blank = true;
      continue;
    }
    // A line right under an item continues it, as Markdown reads it: pages wrap their source lines, and the
    // rest of a wrapped item ("If a dictionary or / list of tuples … is provided") was quoted as a sentence.
    const continues = !blank && blocks.at(-1)?.kind === "list";
    push(ITEM.test(line) || continues ? "list" : "prose", line);
    blank = false;
  }
  return withInlineCode(blocks.filter((b) => b.text.trim()));
}

/** The longest code line read back into its sentence (see withInlineCode). */
const MAX_INLINE_CODE = 80;
const ENDS_SENTENCE = /[.!?:]["')\]]?\s*$/;

/**
 * A sentence that a page broke around a line of code ("a column declared as
 * / NUMERIC(3, 1) / will round values to 1 decimal place") is one sentence
 * with a code span: the prose before it ends no sentence and the prose after
 * it begins in lower case. Read apart, both halves were quoted as sentences.
 */
function withInlineCode(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const before = out.at(-1);
    const code = blocks[i]!;
    const after = blocks[i + 1];
    const inline =
      code.kind === "code" &&
      before?.kind === "prose" &&
      after?.kind === "prose" &&
      !ENDS_SENTENCE.test(before.text) &&
      /^[a-z]/.test(after.text) &&
      !code.text.includes("\n") &&
      !code.text.includes("`") &&
      code.text.trim().length <= MAX_INLINE_CODE;
    if (!inline) {
      out.push(code);
      continue;
    }
    out[out.length - 1] = { kind: "prose", text: `${before.text} \`${code.text.trim()}\` ${after.text}` };
    i++;
  }
  return out;
}

/** A list item's text without its marker. */
export const itemText = (line: string) => line.replace(ITEM, "");

/** The items of a list block, each on one line. */
export function listItems(block: Block): string[] {
  const items: string[] = [];
  for (const line of block.text.split("\n")) {
    if (ITEM.test(line) || items.length === 0) items.push(line);
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  return items;
}
