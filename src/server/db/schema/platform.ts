import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Rate-limit counters shared by every instance: one row per route and client key and window. */
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  count: integer().notNull(),
  resetAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * The last run of each background job queue, for the system screen: pg-boss keeps the jobs, this keeps
 * when one last started and finished on any instance, how it ended and the error it ended with.
 */
export const jobRuns = pgTable("job_runs", {
  queue: text().primaryKey(),
  lastStartedAt: timestamp({ withTimezone: true }).notNull(),
  lastFinishedAt: timestamp({ withTimezone: true }),
  lastOutcome: text({ enum: ["running", "completed", "failed"] }).notNull(),
  lastError: text(),
  runs: integer().notNull().default(0),
  failures: integer().notNull().default(0),
});
