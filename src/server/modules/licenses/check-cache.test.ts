import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { LicenseCheckAnswer } from "#domain/license-schemas";
import { generateLicenseKey } from "#domain/licenses";
import { usagePeriodAt } from "#domain/metering";
import { type App, buildApp } from "#server/app";
import { type DatabaseHandle, rowsOf } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { subscriptions, usagePeriods } from "#server/db/schema/subscriptions";
import { loadEnv } from "#server/env";
import { createTestDatabase } from "#server/test/app";

/**
 * Licence checks answer from what each instance keeps in memory (decision 0028): a change made anywhere
 * (here straight in the database, as a job or another instance would) reaches every instance's next checks
 * through the notice of migration 0045, without waiting for any expiry.
 */
let database: DatabaseHandle;
let instances: [App, App];
let key: string;
let subscription: typeof subscriptions.$inferSelect;

beforeAll(async () => {
  database = await createTestDatabase("seeded");
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: "/nonexistent-stackbay-test",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    TRUST_PROXY: "true",
  });
  // Two instances behind one load balancer: same database, separate processes' memory.
  const shared = { ...database, close: async () => {} };
  instances = (await Promise.all(
    [0, 1].map(() => buildApp({ env, database: shared, webRoot: null, schedules: false, workers: false })),
  )) as [App, App];
  await Promise.all(instances.map((app) => app.ready()));
  // A key of the demo's metered subscription, without a spending cap to begin with.
  const [metered] = await database.db
    .select()
    .from(subscriptions)
    .where(sql`meter_unit is not null`)
    .limit(1);
  if (!metered) throw new Error("the demo seed started no metered subscription");
  await database.db.update(subscriptions).set({ spendingCap: null }).where(eq(subscriptions.id, metered.id));
  subscription = { ...metered, spendingCap: null };
  key = generateLicenseKey((n) => randomBytes(n));
  await rowsOf(
    database.db,
    sql`insert into licenses (key, order_item_id, order_id, user_id, product_id, product_name, issued_at)
      select ${key}, s.order_item_id, s.order_id, s.user_id, s.product_id, 'Cached check', now()
      from subscriptions s where s.id = ${metered.id}`,
  );
});
afterAll(async () => {
  await Promise.all(instances.map((app) => app.close()));
  await database.close();
});

let address = 0;
const check = async (app: App) => {
  const res = await app.inject({
    method: "POST",
    url: "/api/licenses/validate",
    headers: { "x-forwarded-for": `10.9.${(address >> 8) & 255}.${address++ & 255}` },
    payload: { key },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LicenseCheckAnswer;
};

/** The status `app` answers once it has heard of the change: within a second, or the test fails. */
async function statusSoon(app: App, expected: string) {
  const until = Date.now() + 1_000;
  let status = (await check(app)).status;
  while (status !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = (await check(app)).status;
  }
  return status;
}

test("a suspension and a reinstatement made in the database reach both instances' next checks", async () => {
  const [a, b] = instances;
  const before = (await check(a)).status;
  expect(["active", "trialing"]).toContain(before);
  await check(b);
  // Both now answer from memory: another check reads nothing.
  const hits = a.licenseCheckCache.stats.hits;
  await check(a);
  expect(a.licenseCheckCache.stats.hits).toBe(hits + 1);

  await database.db.update(licenses).set({ status: "suspended" }).where(eq(licenses.key, key));
  expect(await statusSoon(a, "suspended")).toBe("suspended");
  expect(await statusSoon(b, "suspended")).toBe("suspended");
  expect((await check(b)).valid).toBe(false);

  await database.db.update(licenses).set({ status: "active" }).where(eq(licenses.key, key));
  expect(await statusSoon(a, before)).toBe(before);
  expect(await statusSoon(b, before)).toBe(before);
});

test("use reaching a new spending cap answers over_cap on both instances; use of uncapped subscriptions forgets nothing", async () => {
  const [a, b] = instances;
  const before = (await check(a)).status;
  await check(b);
  const period = usagePeriodAt(subscription, new Date()).index;

  // Use of a subscription without a cap notifies nobody: the instances keep what they read.
  const clears = b.licenseCheckCache.stats.clears;
  await database.db
    .insert(usagePeriods)
    .values({ subscriptionId: subscription.id, periodIndex: period, quantity: 1, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: [usagePeriods.subscriptionId, usagePeriods.periodIndex],
      set: { quantity: sql`${usagePeriods.quantity} + 1` },
    });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(b.licenseCheckCache.stats.clears).toBe(clears);
  expect((await check(b)).status).toBe(before);

  // No use yet and a cap of a cent; then use far past it, which alone must reach both instances.
  await database.db
    .update(usagePeriods)
    .set({ quantity: 0 })
    .where(sql`subscription_id = ${subscription.id} and period_index = ${period}`);
  await database.db
    .update(subscriptions)
    .set({ spendingCap: "0.01" })
    .where(eq(subscriptions.id, subscription.id));
  expect(await statusSoon(a, before)).toBe(before);
  expect(await statusSoon(b, before)).toBe(before);
  await database.db
    .update(usagePeriods)
    .set({ quantity: sql`${usagePeriods.quantity} + 100000000` })
    .where(sql`subscription_id = ${subscription.id} and period_index = ${period}`);
  expect(await statusSoon(a, "over_cap")).toBe("over_cap");
  expect(await statusSoon(b, "over_cap")).toBe("over_cap");

  // Raising the cap out of reach makes the key valid again.
  await database.db
    .update(subscriptions)
    .set({ spendingCap: null })
    .where(eq(subscriptions.id, subscription.id));
  expect(await statusSoon(a, before)).toBe(before);
  expect(await statusSoon(b, before)).toBe(before);
});
