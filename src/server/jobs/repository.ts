import { eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { jobRuns } from "#server/db/schema/platform";

export type JobRunRow = typeof jobRuns.$inferSelect;

export async function startJobRun(db: Database, queue: string, at: Date): Promise<void> {
  await db
    .insert(jobRuns)
    .values({ queue, lastStartedAt: at, lastOutcome: "running", runs: 1 })
    .onConflictDoUpdate({
      target: jobRuns.queue,
      set: {
        lastStartedAt: at,
        lastFinishedAt: null,
        lastOutcome: "running",
        lastError: null,
        runs: sql`${jobRuns.runs} + 1`,
      },
    });
}

export async function finishJobRun(
  db: Database,
  queue: string,
  at: Date,
  error: string | null,
): Promise<void> {
  await db
    .update(jobRuns)
    .set({
      lastFinishedAt: at,
      lastOutcome: error ? "failed" : "completed",
      lastError: error,
      ...(error ? { failures: sql`${jobRuns.failures} + 1` } : {}),
    })
    .where(eq(jobRuns.queue, queue));
}

export async function listJobRuns(db: Database): Promise<JobRunRow[]> {
  return db.select().from(jobRuns);
}
