/**
 * Word-level text helpers shared by query building, the agent and the
 * extractive generator: tokenising, stop words, a light stemmer.
 */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing don done down during each either else ever every few for from further get gets got had has have having " +
    "he her here hers him his how i if in into is it its itself just let like ll many may me might mine more most much must my " +
    "need no nor not now of off on once one only or other our ours out over own please re really same shall she should so some " +
    "such tell than that the their theirs them then there these they thing things this those through to too under until up upon us " +
    "use used using ve very via want wants was way ways we were what when where whether which while who whom whose why will with " +
    "within without would yes yet you your yours"
  ).split(" "),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const TOKEN = /[\p{L}\p{N}_]+(?:[.\-'][\p{L}\p{N}_]+)*/gu;

/** Lower-cased word tokens (letters, digits, `_`; keeps `.`/`-` inside words such as `node.js`, `utf-8`). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(TOKEN)) {
    out.push(match[0].replace(/'s$/, ""));
  }
  return out;
}

const FIRST_TOKEN = new RegExp(TOKEN.source, "u");

/** The first of `tokenize(text)`, found without reading the rest. */
export function firstToken(text: string): string | undefined {
  return FIRST_TOKEN.exec(text.toLowerCase())?.[0].replace(/'s$/, "");
}

/** A deliberately light suffix stripper: enough to match "indexes"/"index", "tables"/"table", "running"/"run". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(xes|ches|shes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) {
    word = word.slice(0, -3);
    if (/([b-df-hj-np-tv-z])\1$/.test(word)) word = word.slice(0, -1);
    return word;
  }
  if (word.endsWith("ed") && word.length > 4) {
    word = word.slice(0, -2);
    if (/([b-df-hj-np-tv-z])\1$/.test(word)) word = word.slice(0, -1);
    return word;
  }
  return word;
}

/** Distinct, stemmed content words of a text, in order of first appearance (the first `max` of them). */
export function contentTerms(text: string, max = Infinity): string[] {
  const seen = new Set<string>();
  for (const match of text.toLowerCase().matchAll(TOKEN)) {
    const token = match[0].replace(/'s$/, "");
    if (isStopWord(token) || token.length < 2) continue;
    seen.add(stem(token));
    if (seen.size >= max) break;
  }
  return [...seen];
}
