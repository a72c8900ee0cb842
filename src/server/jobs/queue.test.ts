import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { DatabaseHandle } from "#server/db/client";
import { createJobQueue, type JobDefinition, type JobQueue } from "#server/jobs/queue";
import { createTestDatabase } from "#server/test/app";

const log = Fastify({ logger: false }).log;
let database: DatabaseHandle;
const runs: string[] = [];
let failing = true;

const counted: JobDefinition<{ key: string }> = {
  name: "test-counted",
  retryLimit: 0,
  retryDelaySeconds: 1,
  describe: (data) => `counted ${data.key}`,
  async run(data) {
    runs.push(data.key);
  },
};

const flaky: JobDefinition<{ key: string }> = {
  name: "test-flaky",
  retryLimit: 1,
  retryDelaySeconds: 1,
  describe: (data) => `flaky ${data.key}`,
  async run(data) {
    if (failing) throw new Error(`refused ${data.key}`);
    runs.push(`flaky:${data.key}`);
  },
};

const definitions = [counted, flaky] as JobDefinition<never>[];
let first: JobQueue;
let second: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase("migrated");
  // Two instances of the app, as two processes behind a load balancer would be, on one database.
  first = createJobQueue(database, definitions, log, { schedules: false, workers: true });
  second = createJobQueue(database, definitions, log, { schedules: false, workers: true });
  await first.start();
  await second.start();
});

afterAll(async () => {
  await first.stop();
  await second.stop();
  await database.close();
});

describe("the job queue", () => {
  test("runs each job exactly once across two instances", async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `job-${i}`);
    await Promise.all(keys.map((key, i) => (i % 2 ? first : second).send("test-counted", { key })));
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(keys.length), { timeout: 20_000 });
    await first.idle();
    await second.idle();
    expect([...runs].sort()).toEqual([...keys].sort());
    const [status] = (await first.status()).filter((q) => q.name === "test-counted");
    expect(status).toMatchObject({ waiting: 0, active: 0, deadLettered: 0 });
    expect(status?.lastRun).toMatchObject({ outcome: "completed", error: null, failures: 0 });
    expect(status?.lastRun?.runs).toBe(keys.length);
  }, 30_000);

  test("a job queued in a transaction exists only if the transaction commits", async () => {
    runs.length = 0;
    await expect(
      database.db.transaction(async (tx) => {
        await first.send("test-counted", { key: "rolled-back" }, { tx });
        throw new Error("the order failed");
      }),
    ).rejects.toThrow("the order failed");
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await first.send("test-counted", { key: "committed" }, { tx });
    });
    await vi.waitFor(() => expect(runs).toContain("committed"), { timeout: 10_000 });
    await first.idle();
    expect(runs).toEqual(["committed"]);
  });

  test("a job that keeps failing is retried, dead-lettered with its reason, and runs again on retry", async () => {
    runs.length = 0;
    await first.send("test-flaky", { key: "a" });
    await vi.waitFor(async () => expect(await first.deadLetters()).toHaveLength(1), {
      timeout: 15_000,
      interval: 200,
    });
    const [dead] = await first.deadLetters();
    expect(dead).toMatchObject({ queue: "test-flaky", about: "flaky a", attempts: 2 });
    const [status] = (await first.status()).filter((q) => q.name === "test-flaky");
    expect(status).toMatchObject({ deadLettered: 1 });
    expect(status?.lastRun).toMatchObject({ outcome: "failed", error: "refused a", failures: 2 });
    expect(runs).toEqual([]);

    failing = false;
    expect(await first.retry([dead?.id ?? ""])).toBe(1);
    await vi.waitFor(() => expect(runs).toEqual(["flaky:a"]), { timeout: 10_000 });
    expect(await first.deadLetters()).toEqual([]);
    expect(await first.retry()).toBe(0);
  }, 30_000);
});
