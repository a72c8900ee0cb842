import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type ConstructorOptions, fromDrizzle, PgBoss } from "pg-boss";
import type { DatabaseHandle, Transaction } from "#server/db/client";
import { finishJobRun, listJobRuns, startJobRun } from "#server/jobs/repository";
import type { Metrics, QueueDepth } from "#server/lib/metrics";

/** Where jobs that used up their retries wait for a person to retry them from the system screen. */
export const DEAD_LETTER = "dead-letter";

/**
 * One kind of background work. `run` throws to ask for a retry; after `retryLimit` retries the job moves
 * to the dead-letter queue. With `cron` the queue also gets one job per tick (UTC), across all instances.
 */
export type JobDefinition<T extends object = object> = {
  name: string;
  run(data: T, job: { id: string; retryCount: number }): Promise<void>;
  /** Says what a job is about on the system screen, without personal data. */
  describe(data: T): string;
  retryLimit: number;
  retryDelaySeconds: number;
  /** Longest a run may take before it is counted as failed and retried. */
  expireInSeconds?: number;
  cron?: string;
  /** Also runs once when an instance starts (once per minute however many start): recovery after a crash. */
  runAtStart?: boolean;
};

export type QueueStatus = {
  name: string;
  schedule: string | null;
  waiting: number;
  active: number;
  deadLettered: number;
  lastRun: {
    startedAt: Date;
    finishedAt: Date | null;
    outcome: "running" | "completed" | "failed";
    error: string | null;
    runs: number;
    failures: number;
  } | null;
};

export type DeadLetter = { id: string; queue: string; about: string; failedAt: Date; attempts: number };

export type JobQueue = {
  /**
   * Queues a job. Inside a transaction pass `tx`: the job exists only if the transaction commits, so a
   * rolled-back order sends no e-mail and a committed one cannot lose its e-mail.
   */
  send<T extends object>(
    name: string,
    data: T,
    options?: { tx?: Transaction; startAfter?: Date },
  ): Promise<void>;
  /**
   * Queues many jobs of one queue in one statement (pg-boss's `insert`), as `send` queues one: inside a
   * transaction pass `tx`, and they exist only if it commits.
   */
  sendMany<T extends object>(name: string, data: readonly T[], options?: { tx?: Transaction }): Promise<void>;
  status(): Promise<QueueStatus[]>;
  /** Jobs waiting and running per queue, dead-letter included (none before the queue has started). */
  depth(): Promise<QueueDepth[]>;
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  /** Moves dead-lettered jobs (these ids, or all) back to their queue for another round of attempts. */
  retry(ids?: string[]): Promise<number>;
  /** Resolves once no job that is due is waiting or running on this instance; for tests. */
  idle(timeoutMs?: number): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

export type JobQueueOptions = {
  /** Runs the queues' cron schedules on this instance (off in tests, which call the work directly). */
  schedules: boolean;
  /** Runs jobs on this instance; off for a process that only sends. */
  workers: boolean;
  /** Counts the runs that end here, completed or failed, by queue. */
  metrics?: Metrics;
};

const short = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * The background jobs, in PostgreSQL through pg-boss: on a PostgreSQL server through its own small pool,
 * on embedded PGlite through pg-boss's PGlite adapter on the same database. Each job is fetched by one
 * worker (`FOR UPDATE SKIP LOCKED`), and each cron tick makes one job, however many instances run.
 */
export function createJobQueue(
  database: DatabaseHandle,
  definitions: readonly JobDefinition<never>[],
  log: FastifyBaseLogger,
  options: JobQueueOptions,
): JobQueue {
  const boss = new PgBoss({
    ...(database.queueConnection() as ConstructorOptions),
    schedule: options.schedules,
    // pg-boss's own maintenance (expiry, deletion of old jobs) runs on one instance at a time.
    supervise: options.workers,
    migrate: true,
    // How often one instance looks for jobs whose worker stopped heartbeating (a crashed process).
    superviseIntervalSeconds: 15,
  });
  boss.on("error", (error) => log.error({ err: error }, "job queue error"));
  boss.on("warning", (warning) => log.warn({ warning }, "job queue warning"));
  const byName = new Map(definitions.map((d) => [d.name, d as unknown as JobDefinition]));
  let running = 0;
  let started = false;

  async function runOne(definition: JobDefinition, job: { id: string; data: object; retryCount: number }) {
    running++;
    const { db } = database;
    const startedAt = new Date();
    try {
      await startJobRun(db, definition.name, startedAt).catch(() => undefined);
      await definition.run(job.data, job);
      options.metrics?.jobEnded(definition.name, "completed");
      await finishJobRun(db, definition.name, new Date(), null).catch(() => undefined);
    } catch (error) {
      options.metrics?.jobEnded(definition.name, "failed");
      log.warn(
        { err: error, queue: definition.name, jobId: job.id, attempt: job.retryCount + 1 },
        "job failed",
      );
      await finishJobRun(db, definition.name, new Date(), short(error)).catch(() => undefined);
      throw error;
    } finally {
      running--;
      // A worker takes one job per poll; asking it to look again at once drains a backlog quickly.
      wake(definition.name);
    }
  }

  /**
   * Jobs of these queues that are due or running on any instance, in one query over pg-boss's job table
   * (partitioned by queue name, so only their partitions are read). pg-boss's `findJobs` cannot ask for
   * state and due time, and a job a worker has just fetched is active before its handler starts, so
   * this counts in the table itself (states before `completed` sort before it).
   */
  async function dueOrActive(names: string[]): Promise<number> {
    const { rows } = await boss
      .getDb()
      .executeSql(
        "select count(*)::int as n from pgboss.job where name = any($1::text[]) and state <= 'active' and start_after <= now()",
        [names],
      );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Jobs of a queue not yet finished, counted now: waiting (created or retrying, due or not) and active.
   * pg-boss's own queue stats may be up to a minute old even when forced.
   */
  async function openJobs(name: string): Promise<{ waiting: number; active: number }> {
    const queue = await boss.getQueue(name);
    if (!queue) return { waiting: 0, active: 0 };
    const { rows } = await boss
      .getDb()
      .executeSql(
        `select count(*) filter (where state < 'active')::int as waiting, count(*) filter (where state = 'active')::int as active from pgboss.${queue.table} where name = $1 and state <= 'active'`,
        [name],
      );
    return { waiting: Number(rows[0]?.waiting ?? 0), active: Number(rows[0]?.active ?? 0) };
  }

  /** Worker ids on this instance, by queue. */
  const workers = new Map<string, string>();
  function wake(name: string) {
    const id = workers.get(name);
    if (id) boss.notifyWorker(id);
  }

  return {
    async send(name, data, sendOptions = {}) {
      if (!byName.has(name)) throw new Error(`no job queue named ${name}`);
      // pg-boss's own adapter runs its insert through the caller's Drizzle transaction.
      const db = sendOptions.tx
        ? fromDrizzle(sendOptions.tx as unknown as Parameters<typeof fromDrizzle>[0], sql)
        : undefined;
      await boss.send(name, data, { ...(db ? { db } : {}), startAfter: sendOptions.startAfter });
      // Outside a transaction the job is there now: this instance's worker takes it without waiting for
      // its next poll. A job queued in a transaction is taken at the next poll after the commit.
      if (!db) wake(name);
    },

    async sendMany(name, data, sendOptions = {}) {
      if (!byName.has(name)) throw new Error(`no job queue named ${name}`);
      if (data.length === 0) return;
      const db = sendOptions.tx
        ? fromDrizzle(sendOptions.tx as unknown as Parameters<typeof fromDrizzle>[0], sql)
        : undefined;
      await boss.insert(
        name,
        data.map((job) => ({ data: job })),
        db ? { db } : {},
      );
      if (!db) wake(name);
    },

    async status() {
      const [runs, dead] = await Promise.all([listJobRuns(database.db), this.deadLetters(1000)]);
      return Promise.all(
        definitions.map(async (definition) => {
          const [stats] = await boss.getQueueStats(definition.name, { force: true });
          const run = runs.find((r) => r.queue === definition.name);
          return {
            name: definition.name,
            schedule: definition.cron ?? null,
            waiting: (stats?.queuedCount ?? 0) + (stats?.deferredCount ?? 0),
            active: stats?.activeCount ?? 0,
            deadLettered: dead.filter((d) => d.queue === definition.name).length,
            lastRun: run
              ? {
                  startedAt: run.lastStartedAt,
                  finishedAt: run.lastFinishedAt,
                  outcome: run.lastOutcome,
                  error: run.lastError,
                  runs: run.runs,
                  failures: run.failures,
                }
              : null,
          };
        }),
      );
    },

    async depth() {
      if (!started) return [];
      return Promise.all(
        [...definitions.map((d) => d.name), DEAD_LETTER].map(async (name) => ({
          queue: name,
          ...(await openJobs(name)),
        })),
      );
    },

    async deadLetters(limit = 100) {
      const jobs = await boss.findJobs<object>(DEAD_LETTER, { queued: true, limit });
      return jobs.map((job) => {
        const queue = job.sourceName ?? "unknown";
        const definition = byName.get(queue);
        return {
          id: job.id,
          queue,
          about: definition ? definition.describe(job.data) : queue,
          failedAt: job.createdOn,
          attempts: (job.sourceRetryCount ?? 0) + 1,
        };
      });
    },

    async retry(ids) {
      return boss.redrive(DEAD_LETTER, ids ? { ids } : {});
    },

    async idle(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const due = running + (await dueOrActive(definitions.map((definition) => definition.name)));
        if (due === 0) return;
        for (const definition of definitions) wake(definition.name);
        if (Date.now() > deadline) throw new Error(`job queue still busy after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },

    async start() {
      await boss.start();
      started = true;
      await boss.createQueue(DEAD_LETTER, { retentionSeconds: 30 * 86_400 });
      for (const definition of definitions) {
        await boss.createQueue(definition.name, {
          retryLimit: definition.retryLimit,
          retryDelay: definition.retryDelaySeconds,
          retryBackoff: true,
          retryDelayMax: 3600,
          expireInSeconds: definition.expireInSeconds ?? 300,
          deadLetter: DEAD_LETTER,
          // A job whose process died (no heartbeat for 10 s) is retried within about half a minute.
          heartbeatSeconds: 10,
        });
        if (definition.cron && options.schedules) {
          await boss.schedule(
            definition.name,
            definition.cron,
            {},
            { tz: "UTC", singletonKey: definition.name },
          );
          if (definition.runAtStart) {
            await boss.send(
              definition.name,
              {},
              { singletonKey: `${definition.name}-start`, singletonSeconds: 60 },
            );
          }
        }
        if (options.workers) {
          const id = await boss.work<object>(
            definition.name,
            { pollingIntervalSeconds: 2 },
            async ([job]) => {
              if (job) await runOne(definition, job);
            },
          );
          workers.set(definition.name, id);
        }
      }
    },

    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 5000, close: true });
    },
  };
}

/**
 * Creates pg-boss's schema in a database without starting any work: test templates carry it, so each
 * test database starts with the queue installed, as a production database does after its first start.
 */
export async function installJobQueue(database: DatabaseHandle): Promise<void> {
  const boss = new PgBoss({
    ...(database.queueConnection() as ConstructorOptions),
    schedule: false,
    supervise: false,
    migrate: true,
  });
  await boss.start();
  await boss.stop({ graceful: false, close: true });
}
