import type { AppServices } from "../app-services.ts";
import { buildGapReport, DEFAULT_WEAK_COVERAGE, type GapGroup, type GapReport } from "../core/gap-report.ts";
import { parseSince, SINCE_HELP } from "../core/since.ts";
import { englishAnalyzer } from "../text/english-analyzer.ts";
import { UsageError } from "./output.ts";

export interface ReportFlags {
  since?: string;
  source?: string;
  "weak-below"?: string;
  json?: boolean;
}

export const DEFAULT_GAPS_SINCE = "7d";

const quote = (text: string, max = 160) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;

function describe(group: GapGroup, n: number): string[] {
  const why = [group.refused && `${group.refused} refused`, group.weak && `${group.weak} weakly grounded`, group.down_voted && `${group.down_voted} down-voted`]
    .filter(Boolean)
    .join(", ");
  const title = group.question
    ? quote(group.question)
    : `(no stored question) ${group.count === 1 ? "1 completion" : `${group.count} completions`} closest to ${group.closest_pages[0]?.url ?? "no page"}`;
  const lines = [`${n}. ${title} ×${group.count} (${why}${group.lowest_coverage !== null ? `; lowest coverage ${group.lowest_coverage.toFixed(2)}` : ""})`];
  for (const wording of group.wordings.slice(1, 4)) lines.push(`   also asked: ${quote(wording)}`);
  if (group.wordings.length > 4) lines.push(`   …and ${group.wordings.length - 4} more wordings`);
  for (const page of group.closest_pages)
    lines.push(`   closest: ${page.source_name ?? page.source_id} — ${page.title} <${page.url}>${page.count > 1 ? ` ×${page.count}` : ""}`);
  if (!group.closest_pages.length) lines.push("   closest: nothing in the sources came near");
  for (const comment of group.comments.slice(0, 3)) lines.push(`   reader said: ${quote(comment)}`);
  const ids = group.completion_ids;
  lines.push(`   ids: ${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ` (+${ids.length - 3})` : ""}`);
  return lines;
}

export function formatGapReport(report: GapReport): string {
  const head = `Docs gaps ${report.since.slice(0, 16).replace("T", " ")}Z to ${report.until.slice(0, 16).replace("T", " ")}Z${report.source_id ? ` for source ${report.source_id}` : ""}: ${report.gaps} of ${report.completions} answers (refused, coverage under ${report.weak_below}, or down-voted) in ${report.groups.length} group(s).`;
  const lines = [head];
  if (report.note) lines.push("", report.note);
  report.groups.forEach((group, i) => {
    lines.push("", ...describe(group, i + 1));
  });
  return lines.join("\n");
}

/** `report gaps [--since 7d] [--source ID] [--json]`: what the documentation fails to answer. */
export async function reportCommand(
  services: Pick<AppServices, "catalog" | "usage">,
  [kind, ...rest]: string[],
  flags: ReportFlags,
  print: (s: string) => void,
) {
  if (kind !== "gaps" || rest.length) throw new UsageError("report: use report gaps [--since 7d] [--source ID] [--weak-below 0.8] [--json]");
  const now = new Date();
  const since = parseSince(flags.since ?? DEFAULT_GAPS_SINCE, now);
  if (!since) throw new UsageError(`--since '${flags.since}': use ${SINCE_HELP}.`);
  const weakBelow = flags["weak-below"] === undefined ? DEFAULT_WEAK_COVERAGE : Number(flags["weak-below"]);
  if (!(weakBelow >= 0 && weakBelow <= 1)) throw new UsageError(`--weak-below '${flags["weak-below"]}': use a share of the question from 0 to 1, such as 0.8.`);
  const sources = await services.catalog.list();
  let sourceId: string | undefined;
  if (flags.source !== undefined) {
    const source = sources.find((s) => s.id === flags.source || s.name === flags.source);
    if (!source) throw new UsageError(`Unknown source '${flags.source}' (see sources list for ids).`);
    sourceId = source.id;
  }
  const served = await services.usage.served.list({ since, until: now });
  const report = buildGapReport(served, {
    since,
    until: now,
    sourceId,
    weakBelow,
    analyzer: englishAnalyzer,
    sourceNames: new Map(sources.map((s) => [s.id, s.name])),
  });
  print(flags.json ? JSON.stringify(report) : formatGapReport(report));
}
