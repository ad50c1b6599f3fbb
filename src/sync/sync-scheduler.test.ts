import { describe, expect, it } from "vitest";
import type { SourceInfo } from "../core/source-catalog.ts";
import { dueAt, intervalOf } from "./sync-scheduler.ts";

const HOUR = 3_600_000;
const t0 = Date.parse("2026-11-23T00:00:00Z");
const source = (over: Partial<SourceInfo> = {}): SourceInfo => ({
  id: "s",
  name: "S",
  description: "",
  baseUrl: "https://x.org/",
  origin: "https://x.org/",
  pages: 1,
  chunks: 1,
  createdAt: new Date(t0 - 10 * HOUR),
  updatedAt: new Date(t0 - 5 * HOUR),
  ...over,
});
const summary = (finishedAt: number, status: "ok" | "failed" = "ok") => ({
  status,
  trigger: "schedule" as const,
  startedAt: new Date(finishedAt - 1000).toISOString(),
  finishedAt: new Date(finishedAt).toISOString(),
  seconds: 1,
  added: 0,
  changed: 0,
  removed: 0,
  unchanged: 1,
  notModified: 1,
  skipped: 0,
  pages: 1,
  chunks: 1,
  error: null,
});

describe("when a source is due", () => {
  it("uses its own interval, else SYNC_INTERVAL; 0 or neither is never", () => {
    expect(intervalOf(source({ refreshSeconds: 60 }), 86_400)).toBe(60);
    expect(intervalOf(source({ refreshSeconds: null }), 86_400)).toBe(86_400);
    expect(intervalOf(source({ refreshSeconds: 0 }), 86_400)).toBeNull();
    expect(intervalOf(source(), 0)).toBeNull();
    expect(dueAt(source(), 0)).toBeNull();
  });

  it("counts from the last sync recorded in the database, so a restart keeps the schedule", () => {
    expect(dueAt(source({ lastSyncedAt: new Date(t0) }), 3600)).toBe(t0 + HOUR);
    // Never synced: from when it was last written (its ingestion).
    expect(dueAt(source(), 3600)).toBe(t0 - 4 * HOUR);
  });

  it("waits a whole interval after a failed attempt too", () => {
    const failedLater = source({ lastSyncedAt: new Date(t0), lastSync: summary(t0 + 2 * HOUR, "failed") });
    expect(dueAt(failedLater, 3600)).toBe(t0 + 3 * HOUR);
  });
});
