import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, expect, inject, test } from "vitest";
import { addIntervals } from "#domain/subscriptions";
import { buildApp } from "#server/app";
import { type DatabaseHandle, openDatabase } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { subscriptionRenewals, subscriptions, usagePeriods } from "#server/db/schema/subscriptions";
import { loadEnv } from "#server/env";
import { paymentDepsOf } from "#server/modules/payments/service";
import { RENEWAL_BATCH, runRenewals } from "#server/modules/renewals/service";
import { queryRows } from "#server/test/app";
import { databaseUrlOf } from "#server/test/global-setup";

/**
 * A renewal pass (`src/server/test/renewal-run.ts`, the real app in a process of its own) killed with
 * SIGKILL right after its first batch committed, while the next is open: every due subscription is
 * then invoiced once or not at all (no order without its claim, no claim twice), and the next pass
 * invoices exactly the rest. On the embedded database, or on PostgreSQL when DATABASE_URL is set.
 */

const DUE = 6 * RENEWAL_BATCH;
const serverUrl = process.env.DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A seeded database of this test's own, and how a process reaches it. */
async function seededDatabase(): Promise<{
  env: Record<string, string>;
  open: () => Promise<DatabaseHandle>;
}> {
  const templates = inject("databaseTemplates");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-renewals-crash-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  if (serverUrl && templates.postgres) {
    const name = `stackbay_crash_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${templates.postgres.seeded} strategy file_copy`);
    await admin.end();
    cleanups.push(async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    });
    const databaseUrl = databaseUrlOf(serverUrl, name);
    return {
      env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
      open: () => openDatabase({ databaseUrl, dataDir: null }),
    };
  }
  const first = await openDatabase({
    dataDir,
    snapshot: new Blob([await readFile(templates.pglite.seeded)]),
  });
  await first.close();
  return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) };
}

/** `count` subscriptions of the demo buyer to a monthly product, all due a minute ago, from one paid order. */
async function dueSubscriptions(db: DatabaseHandle["db"], count: number, now: Date): Promise<string> {
  const [buyer] = await db.select({ id: user.id }).from(user).where(eq(user.email, "buyer@stackbay.test"));
  const [product] = await db
    .select()
    .from(products)
    .where(eq(products.pricingUnit, "month"))
    .orderBy(products.name)
    .limit(1);
  if (!buyer || !product) throw new Error("the demo data has no buyer or monthly product");
  const anchor = addIntervals(now, "month", -1);
  const [origin] = await db
    .insert(orders)
    .values({
      userId: buyer.id,
      subtotal: "0",
      tax: "0",
      totalAmount: "0",
      paymentMethod: "stripe",
      paymentStatus: "mock_confirmed",
      isPaid: true,
      customerInfo: {
        fullName: "Bianca Buyer",
        email: "buyer@stackbay.test",
        address: "",
        city: "",
        country: "",
      },
      buyerCountry: "US",
      taxJurisdiction: null,
      taxLabel: "No tax",
      taxRate: "0",
      createdAt: anchor,
      updatedAt: anchor,
    })
    .returning({ id: orders.id });
  if (!origin) throw new Error("no origin order");
  await db.execute(sql`insert into ${orderItems} (order_id, product_id, product_name, price, pricing_unit, quantity, category, seller_id, vendor)
    select ${origin.id}::uuid, ${product.id}::uuid, ${product.name}, ${product.price}, 'month', 1, ${product.category}, ${product.sellerId}, ${product.vendor}
    from generate_series(1, ${count})`);
  await db.execute(sql`insert into ${subscriptions} (user_id, product_id, order_item_id, order_id, interval, unit_price, quantity, anchor, periods_paid, paid_through)
    select ${buyer.id}, i.product_id, i.id, i.order_id, 'month', i.price, 1, ${anchor.toISOString()}::timestamptz, 1, ${new Date(now.getTime() - 60_000).toISOString()}::timestamptz
    from ${orderItems} i where i.order_id = ${origin.id}::uuid`);
  return origin.id;
}

/**
 * Runs a renewal pass in a process of its own on `env`'s database, killed with SIGKILL as soon as a batch
 * for which `reached` holds (from its `batch <invoiced> <final bills>` line) has committed: the next
 * batch's transaction is open then.
 */
async function killedAfterFirstBatch(
  env: Record<string, string>,
  reached: (invoiced: number, finalBills: number) => boolean,
) {
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, [path.resolve("src/server/test/renewal-run.ts")], {
    env: {
      ...inherited,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(async () => {
    child.kill("SIGKILL");
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for await (const line of createInterface({ input: child.stdout })) {
    const [word, invoiced, finalBills] = line.split(" ");
    if (word === "batch" && reached(Number(invoiced), Number(finalBills))) {
      child.kill("SIGKILL");
      break;
    }
    if (line === "done") break;
  }
  await exited;
  expect(child.signalCode).toBe("SIGKILL");
}

/** A pass of the renewal job in this process, on the app built over `database`. */
async function passOn(database: DatabaseHandle, env: Record<string, string>) {
  const app = await buildApp({
    env: loadEnv({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      ...env,
    }),
    database,
    webRoot: null,
    schedules: false,
    workers: false,
  });
  await app.ready();
  // Closing the app closes its database.
  cleanups.push(() => app.close());
  return runRenewals(paymentDepsOf(app), app.clock.now());
}

async function counts(db: DatabaseHandle["db"], originId: string) {
  const [row] = await queryRows<{ claims: number; orders: number; twice: number; orphans: number }>(
    db,
    sql`select
      (select count(*)::int from ${subscriptionRenewals} r join ${subscriptions} s on s.id = r.subscription_id
        where s.order_id = ${originId}::uuid) as claims,
      (select count(*)::int from ${orders} o join ${subscriptionRenewals} r on r.order_id = o.id
        join ${subscriptions} s on s.id = r.subscription_id where s.order_id = ${originId}::uuid) as orders,
      (select count(*)::int from (select r.subscription_id from ${subscriptionRenewals} r
        group by r.subscription_id, r.period_index having count(*) > 1) t) as twice,
      (select count(*)::int from ${orders} o where o.idempotency_key like 'renewal:%'
        and not exists (select 1 from ${subscriptionRenewals} r where r.order_id = o.id)) as orphans`,
  );
  return row ?? { claims: -1, orders: -1, twice: -1, orphans: -1 };
}

test("a renewal pass killed mid-run leaves each due subscription invoiced once or not at all, and the next pass finishes the rest", {
  timeout: 180_000,
}, async () => {
  const database = await seededDatabase();
  const setup = await database.open();
  const originId = await dueSubscriptions(setup.db, DUE, new Date());
  await setup.close();

  await killedAfterFirstBatch(database.env, (invoiced) => invoiced > 0);

  const after = await database.open();
  const killed = await counts(after.db, originId);
  // Some batches committed whole, the open one not at all: nothing half-done, nothing twice.
  expect(killed.claims).toBeGreaterThanOrEqual(RENEWAL_BATCH);
  expect(killed.claims).toBeLessThan(DUE);
  expect(killed.claims % RENEWAL_BATCH).toBe(0);
  expect(killed).toMatchObject({ orders: killed.claims, twice: 0, orphans: 0 });

  // The next pass (another instance, or the restarted one) invoices exactly the rest.
  const run = await passOn(after, database.env);
  expect(run.invoiced).toBeGreaterThanOrEqual(DUE - killed.claims);
  const done = await counts(after.db, originId);
  expect(done).toEqual({ claims: DUE, orders: DUE, twice: 0, orphans: 0 });
  const [renewed] = await queryRows<{ unpaid: number }>(
    after.db,
    sql`select count(*)::int as unpaid from ${orders} o where o.idempotency_key like ${"renewal:%"} and o.payment_status = 'pending'
      and exists (select 1 from ${subscriptionRenewals} r join ${subscriptions} s on s.id = r.subscription_id where r.order_id = o.id and s.order_id = ${originId}::uuid)`,
  );
  expect(renewed?.unpaid).toBe(DUE);
});

/** `count` metered subscriptions of the demo buyer that ended two hours ago, each with 100 calls unbilled. */
async function endedMeteredSubscriptions(db: DatabaseHandle["db"], count: number, now: Date) {
  const originId = await dueSubscriptions(db, count, now);
  const ended = new Date(now.getTime() - 2 * 60 * 60_000);
  await db.execute(sql`update ${subscriptions} set meter_unit = 'call',
      usage_tiers = ${JSON.stringify([{ upTo: null, unitPrice: "0.004" }])}::jsonb,
      ended_at = ${ended.toISOString()}::timestamptz, end_reason = 'cancelled', cancel_at_period_end = true,
      paid_through = ${ended.toISOString()}::timestamptz
    where order_id = ${originId}::uuid`);
  await db.execute(sql`insert into ${usagePeriods} (subscription_id, period_index, quantity)
    select id, 0, 100 from ${subscriptions} where order_id = ${originId}::uuid`);
  return originId;
}

/** Of the ended subscriptions from `originId`: final bills, their orders, periods rated, and any half-done. */
async function billCounts(db: DatabaseHandle["db"], originId: string) {
  const [row] = await queryRows<{
    bills: number;
    orders: number;
    rated: number;
    halfDone: number;
    twice: number;
  }>(
    db,
    sql`with mine as (select id from ${subscriptions} where order_id = ${originId}::uuid)
    select
      (select count(*)::int from ${subscriptionRenewals} r where r.final and r.subscription_id in (select id from mine)) as bills,
      (select count(*)::int from ${orders} o join ${subscriptionRenewals} r on r.order_id = o.id
        where r.final and r.subscription_id in (select id from mine) and o.total_amount > 0) as orders,
      (select count(*)::int from ${usagePeriods} p where p.rated_at is not null and p.subscription_id in (select id from mine)) as rated,
      (select count(*)::int from mine m where
        exists (select 1 from ${subscriptionRenewals} r where r.subscription_id = m.id and r.final)
        <> exists (select 1 from ${usagePeriods} p join ${subscriptionRenewals} r on r.order_id = p.order_id
          where p.subscription_id = m.id and p.rated_at is not null)) as "halfDone",
      (select count(*)::int from (select r.subscription_id from ${subscriptionRenewals} r where r.final
        group by r.subscription_id having count(*) > 1) t) as twice`,
  );
  return row ?? { bills: -1, orders: -1, rated: -1, halfDone: -1, twice: -1 };
}

test("a pass killed while making final bills leaves each ended metered subscription billed once or not at all, and the next pass bills the rest", {
  timeout: 180_000,
}, async () => {
  const database = await seededDatabase();
  const setup = await database.open();
  const originId = await endedMeteredSubscriptions(setup.db, DUE, new Date());
  await setup.close();

  await killedAfterFirstBatch(database.env, (_invoiced, finalBills) => finalBills > 0);

  const after = await database.open();
  const killed = await billCounts(after.db, originId);
  // Whole batches or nothing: a bill always with its order and its rated period, never twice.
  expect(killed.bills).toBeGreaterThan(0);
  expect(killed.bills).toBeLessThan(DUE);
  expect(killed).toMatchObject({ orders: killed.bills, rated: killed.bills, halfDone: 0, twice: 0 });

  await passOn(after, database.env);
  expect(await billCounts(after.db, originId)).toEqual({
    bills: DUE,
    orders: DUE,
    rated: DUE,
    halfDone: 0,
    twice: 0,
  });
});
