import { createCitationRenumberer } from "./citations.ts";

/**
 * Control characters a reply has no use for, which a terminal (an MCP or CLI client) would act on (NUL, BEL, ESC
 * starting an ANSI sequence) and the bidirectional overrides and isolates that can make text read in another order
 * than it is written ("Trojan Source"). Tab and line ends stay (a carriage return as a line feed), as do the
 * left-to-right and right-to-left marks that right-to-left text uses.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what it finds
const UNSAFE_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A model's words on their way out, text or refusal alike: less UNSAFE_CONTROLS, line ends as `\n` (a CRLF split
 * across deltas included), then read by the citation reader, which renumbers markers among `referenceCount`
 * references and writes the escapes that keep a renderer from loading or linking what a model was led to write.
 * A refusal is read among no references: it cites nothing, but is shown as the text is.
 */
export function createReplyReader(referenceCount: number) {
  const citations = createCitationRenumberer(referenceCount);
  let carriageReturn = false;
  return {
    citations,
    /** The delta as the model meant it (for counting and reading), and what to send of it now ("" while held back). */
    push(raw: string): { said: string; out: string } {
      let said = raw.replace(UNSAFE_CONTROLS, "");
      if (carriageReturn && said.startsWith("\n")) said = said.slice(1);
      if (said) carriageReturn = said.endsWith("\r");
      said = said.replace(/\r\n?/g, "\n");
      return { said, out: said ? citations.push(said) : "" };
    },
    /** What was held back, once the reply has ended. */
    flush: () => citations.flush(),
  };
}
