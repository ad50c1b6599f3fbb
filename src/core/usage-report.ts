import { z } from "zod";
import { badRequest } from "./errors.ts";
import { parseDay, parseSince, SINCE_HELP } from "./since.ts";
import { type UsageRow, type UsageStore, utcDay } from "./usage-store.ts";

export const DEFAULT_USAGE_SINCE = "30d";

/** `GET /v1/usage`'s query: every parameter is optional, unknown ones are refused. */
export const UsageQueryInput = z.strictObject({
  since: z.string().max(40).optional(),
  until: z.string().max(40).optional(),
});
export type UsageQueryInput = z.infer<typeof UsageQueryInput>;

export interface UsageTotals {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface UsageBucket extends UsageTotals {
  object: "usage.bucket";
  /** UTC day, YYYY-MM-DD. */
  date: string;
  key_id: string;
  /** The model the caller named. */
  model: string;
  /** What answered: provider/model. */
  served_by: string;
}

export interface UsageResource {
  object: "usage";
  /** First and last UTC day covered, both included. */
  since: string;
  until: string;
  data: UsageBucket[];
  totals: UsageTotals;
}

/** The days a `since`/`until` pair covers; BAD_REQUEST naming the parameter when one cannot be read. */
export function usageWindow(input: UsageQueryInput, now: Date = new Date()): { sinceDay: string; untilDay: string } {
  const since = parseSince(input.since ?? DEFAULT_USAGE_SINCE, now);
  if (!since) throw badRequest(`Invalid value for 'since': use ${SINCE_HELP}.`, "since");
  let untilDay = utcDay(now);
  if (input.until !== undefined) {
    const until = parseDay(input.until.trim());
    if (!until) throw badRequest("Invalid value for 'until': use a UTC date such as 2026-11-30.", "until");
    untilDay = utcDay(until);
  }
  const sinceDay = utcDay(since);
  if (sinceDay > untilDay) throw badRequest(`'since' (${sinceDay}) is after 'until' (${untilDay}).`, "since");
  return { sinceDay, untilDay };
}

const totalsOf = (rows: readonly UsageTotals[]): UsageTotals =>
  rows.reduce(
    (t, r) => ({
      requests: t.requests + r.requests,
      prompt_tokens: t.prompt_tokens + r.prompt_tokens,
      completion_tokens: t.completion_tokens + r.completion_tokens,
      total_tokens: t.total_tokens + r.total_tokens,
    }),
    { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  );

export const toBucket = (r: UsageRow): UsageBucket => ({
  object: "usage.bucket",
  date: r.day,
  key_id: r.keyId,
  model: r.model,
  served_by: r.servedBy,
  requests: r.requests,
  prompt_tokens: r.promptTokens,
  completion_tokens: r.completionTokens,
  total_tokens: r.promptTokens + r.completionTokens,
});

/**
 * Reads usage per day and model, for one key or all: what `GET /v1/usage`
 * (the caller's own key only) and `npm run cli -- usage` show. Buffered
 * increments are written first, so a request that has ended is counted.
 */
export function createUsageReport({ usage, flush, now = () => new Date() }: { usage: UsageStore; flush: () => Promise<void>; now?: () => Date }) {
  return async function readUsage(keyId: string | undefined, input: UsageQueryInput): Promise<UsageResource> {
    const window = usageWindow(input, now());
    await flush();
    const data = (await usage.list({ keyId, ...window })).map(toBucket);
    return { object: "usage", since: window.sinceDay, until: window.untilDay, data, totals: totalsOf(data) };
  };
}

export type ReadUsage = ReturnType<typeof createUsageReport>;
