const ABBREVIATION = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf|approx|fig|no|see|ex|mr|mrs|dr|st|[a-z])\.$/i;

/** Whether a text leaves a code span open: an odd number of backtick runs. */
export const opensCodeSpan = (text: string) => (text.match(/`+/g)?.length ?? 0) % 2 === 1;

/** Splits passage text into sentences; list items and paragraphs always end one. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n{2,}|\n(?=[-*•]\s)|\n(?=\d+\.\s)/)) {
    const flat = block.replace(/\s+/g, " ").trim();
    if (!flat) continue;
    let start = 0;
    for (const match of flat.matchAll(/[.!?]["')\]]?\s+/g)) {
      const end = match.index + match[0].trimEnd().length;
      if (ABBREVIATION.test(flat.slice(start, end))) continue;
      // Within a code span (`WITH ( ... )`): an odd number of backtick runs before it, and one after that closes
      // it. A lone backtick (``quotes'' of old) opens no span and stops no split.
      if (opensCodeSpan(flat.slice(start, end)) && flat.indexOf("`", end) >= 0) continue;
      const sentence = flat.slice(start, end).trim();
      if (sentence) out.push(sentence);
      start = match.index + match[0].length;
    }
    const rest = flat.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}
