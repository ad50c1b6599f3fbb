import type { RankedPage } from "./rank-pages.ts";

/**
 * Changelogs, release notes and news name every feature in a line or two,
 * so their words match many questions; the reference or guide page that
 * explains the feature is the answer. Named as documentation sites name
 * them: `changes.html`, `changelog`, `whatsnew/3.3.html`, `releaselog/3_22_0.html`,
 * `release-15-20.html`, `community/updates.html`, `news`, `history`.
 */
const CHANGE_LOG_PATH = /\/(?:changes|changelog|change-log|history|news|updates|release-?notes?|releaselog|whatsnew|releases)(?:[/._-]|$)|\/release-\d/i;
const CHANGE_LOG_TITLE = /^(?:[\d.]+\s+)?(?:release notes|changelog|change log|changes|what['’]?s new|version history|news|updates|release \d)/i;

/** A question about versions or changes, which release notes do answer. */
const ASKS_ABOUT_CHANGES =
  /\b(?:versions?|releases?|released|release notes|changelog|change ?log|what['’]?s new|new in|changed in|changes in|deprecat\w*|upgrad\w*|added in|removed in)\b|\bv?\d+\.\d+(?:\.\d+)?\b/i;

/** How much of its score a change-log page keeps when the question is not about changes. */
const CHANGE_LOG_SHARE = 0.5;

export function isChangeLog(page: Pick<RankedPage, "url" | "title">): boolean {
  let path = page.url;
  try {
    path = new URL(page.url).pathname;
  } catch {
    // a relative URL: match it as it is
  }
  return CHANGE_LOG_PATH.test(path) || CHANGE_LOG_TITLE.test(page.title);
}

/** Reference and guide pages before changelogs, release notes and news, unless the question asks about versions or changes. */
export function preferReferencePages(pages: readonly RankedPage[], question: string): RankedPage[] {
  if (ASKS_ABOUT_CHANGES.test(question) || !pages.some(isChangeLog)) return [...pages];
  return pages.map((p) => (isChangeLog(p) ? { ...p, score: p.score * CHANGE_LOG_SHARE } : p)).sort((a, b) => b.score - a.score);
}
