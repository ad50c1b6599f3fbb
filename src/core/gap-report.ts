import { publicIdOf } from "./completion-ids.ts";
import type { ServedCompletion, StoredReference } from "./served-completions.ts";
import { DEFAULT_SIMILARITY, groupSimilar } from "./similar-questions.ts";
import type { TextAnalyzer } from "./text-analyzer.ts";

export type GapKind = "refused" | "weak" | "down_voted";

export interface GapPage {
  url: string;
  title: string;
  source_id: string;
  source_name: string | null;
  /** How many of the group's completions had this page among the closest. */
  count: number;
}

export interface GapGroup {
  /** The wording asked most often (null without question storage). */
  question: string | null;
  /** Every distinct wording, most frequent first. */
  wordings: string[];
  count: number;
  refused: number;
  weak: number;
  down_voted: number;
  /** The weakest grounding in the group (best passage's share of the question), null when nothing was found. */
  lowest_coverage: number | null;
  first_seen: string;
  last_seen: string;
  /** The pages that came closest, most often first: where an answer would go, or what to improve. */
  closest_pages: GapPage[];
  /** Readers' comments on down-voted answers. */
  comments: string[];
  completion_ids: string[];
}

export interface GapReport {
  since: string;
  until: string;
  source_id: string | null;
  /** How many of the gaps have their question stored (STORE_QUESTIONS=1 on the server); the rest are grouped by closest page. */
  questions_stored: number;
  note: string | null;
  weak_below: number;
  similarity: number;
  /** Completions served in the window (and touching the source, when one is given). */
  completions: number;
  gaps: number;
  groups: GapGroup[];
}

export interface GapReportOptions {
  since: Date;
  until: Date;
  sourceId?: string;
  /** Answers whose best passage covered less of the question than this count as weakly grounded. */
  weakBelow: number;
  similarity?: number;
  /** How wordings are compared (the analyzer search uses). */
  analyzer: TextAnalyzer;
  sourceNames: ReadonlyMap<string, string>;
  /** Closest pages listed per group. */
  maxPages?: number;
}

/**
 * Answers whose best passage covers less of the question than this are
 * "weakly grounded" (refusal is below 0.55, chat-engine.ts). Measured with
 * bench/coverage-bands.ts on the three eval sets (81 on-topic questions,
 * explicit and agent mode, 162 answers, offline generator): answers under
 * 0.80 held the right page 22 of 28 times (0.79), answers at 0.80 or more
 * 120 of 134 (0.90): a missing fifth of the question doubles the miss rate.
 * Finer bands hold 3 to 15 answers each, too few to place the line closer.
 */
export const DEFAULT_WEAK_COVERAGE = 0.8;

export const NO_QUESTION_STORAGE_NOTE =
  "No question text is stored for these completions, so they are grouped by the page that came closest rather than by wording (ids and counts are complete). Wording needs question storage: STORE_QUESTIONS=1 on the server (kept for QUESTION_RETENTION_DAYS).";

const someUnwordedNote = (n: number) =>
  `${n} of these completions have no stored question (served without STORE_QUESTIONS=1, or older than QUESTION_RETENTION_DAYS): they are grouped by the page that came closest.`;

/** Why a served completion is a gap; empty when it is not one. */
export function gapKinds(c: ServedCompletion, weakBelow: number): GapKind[] {
  const kinds: GapKind[] = [];
  if (c.refused) kinds.push("refused");
  else if (c.coverage !== null && c.coverage < weakBelow) kinds.push("weak");
  if (c.rating === "down") kinds.push("down_voted");
  return kinds;
}

const pageOf = (url: string) => url.replace(/#.*$/, "");
/** What came closest: an answer's references, or for a refusal the pages found that were not good enough. */
const closestOf = (c: ServedCompletion): StoredReference[] => (c.references.length ? c.references : c.closest);
const touches = (c: ServedCompletion, sourceId: string) =>
  c.sourceIds.includes(sourceId) || c.references.some((r) => r.sourceId === sourceId) || c.closest.some((r) => r.sourceId === sourceId);

function byFrequency(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
}

function groupOf(members: ServedCompletion[], options: GapReportOptions): GapGroup {
  const kinds = members.map((c) => gapKinds(c, options.weakBelow));
  const count = (kind: GapKind) => kinds.filter((k) => k.includes(kind)).length;
  const pages = new Map<string, GapPage>();
  for (const c of members) {
    // A page counts once per completion, whichever of its sections came up.
    const seen = new Set<string>();
    for (const ref of closestOf(c)) {
      const key = pageOf(ref.url);
      if (seen.has(key)) continue;
      seen.add(key);
      const page = pages.get(key) ?? {
        url: ref.url,
        title: ref.title,
        source_id: ref.sourceId,
        source_name: options.sourceNames.get(ref.sourceId) ?? null,
        count: 0,
      };
      page.count++;
      pages.set(key, page);
    }
  }
  const wordings = byFrequency(members.flatMap((c) => (c.question ? [c.question.trim()] : [])));
  const coverages = members.flatMap((c) => (c.coverage === null ? [] : [c.coverage]));
  return {
    question: wordings[0] ?? null,
    wordings,
    count: members.length,
    refused: count("refused"),
    weak: count("weak"),
    down_voted: count("down_voted"),
    lowest_coverage: coverages.length ? Math.min(...coverages) : null,
    first_seen: members[0]!.createdAt.toISOString(),
    last_seen: members.at(-1)!.createdAt.toISOString(),
    closest_pages: [...pages.values()].sort((a, b) => b.count - a.count).slice(0, options.maxPages ?? 3),
    comments: members.flatMap((c) => (c.rating === "down" && c.comment ? [c.comment] : [])),
    completion_ids: members.map(publicIdOf),
  };
}

/**
 * What the documentation fails to answer, for its writers: refused
 * questions, weakly grounded answers and down-voted ones, grouped by similar
 * wording (or, without question text, by the page that came closest), each
 * group with the pages that came closest. Largest groups first.
 */
export function buildGapReport(served: readonly ServedCompletion[], options: GapReportOptions): GapReport {
  const similarity = options.similarity ?? DEFAULT_SIMILARITY;
  const considered = served.filter((c) => c.createdAt >= options.since && c.createdAt < options.until && (!options.sourceId || touches(c, options.sourceId)));
  const gaps = considered.filter((c) => gapKinds(c, options.weakBelow).length > 0);
  const worded = gaps.filter((c) => c.question?.trim());
  const unworded = gaps.filter((c) => !c.question?.trim());
  const groups: ServedCompletion[][] = groupSimilar(
    options.analyzer,
    worded.map((c) => c.question!),
    similarity,
  ).map((indices) => indices.map((i) => worded[i]!));
  const byPage = new Map<string, ServedCompletion[]>();
  for (const c of unworded) {
    const key = closestOf(c)[0] ? pageOf(closestOf(c)[0]!.url) : "";
    byPage.set(key, [...(byPage.get(key) ?? []), c]);
  }
  groups.push(...byPage.values());
  const report = groups.map((members) => groupOf(members, options));
  report.sort((a, b) => b.count - a.count || b.down_voted - a.down_voted || b.last_seen.localeCompare(a.last_seen));
  return {
    since: options.since.toISOString(),
    until: options.until.toISOString(),
    source_id: options.sourceId ?? null,
    questions_stored: worded.length,
    note: unworded.length === 0 ? null : worded.length === 0 ? NO_QUESTION_STORAGE_NOTE : someUnwordedNote(unworded.length),
    weak_below: options.weakBelow,
    similarity,
    completions: considered.length,
    gaps: gaps.length,
    groups: report,
  };
}
