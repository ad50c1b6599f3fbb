/**
 * The agent nouns a verb may be named by in an API: documentation names its
 * objects after what they do (`count` → `Counter`, `parse` → `ArgumentParser`,
 * `read` → `csv.reader`, `log` → `Logger`, `edit` → `editor`). Porter stemming
 * keeps these apart from the verb, so a question that says what it wants to
 * do would miss the object that does it. Spelling only: which of the forms
 * exist is for the index to say.
 */
export function agentNouns(word: string): string[] {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return [];
  if (word.endsWith("e")) return [`${word}r`, `${word.slice(0, -1)}or`];
  const forms = [`${word}er`, `${word}or`];
  // A one-syllable word ending consonant-vowel-consonant doubles its last letter: log → logger, plan → planner.
  if (/^[^aeiou]*[aeiou][b-df-hj-np-tvz]$/.test(word)) forms.push(`${word}${word.at(-1)}er`);
  return forms;
}
