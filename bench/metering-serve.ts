import { createHash, randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import Fastify from "fastify";
import { generateLicenseKey } from "#domain/licenses";
import { sellerApiScopes } from "#domain/seller-api";
import { buildApp } from "#server/app";
import { openDatabase, rowsOf } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";

/**
 * The server side of the metering benchmark (`BENCH_ONLY=metering npm run bench`, see bench/metering.ts),
 * in its own process so the load generator does not share its event loop. On the scratch PostgreSQL
 * database DATABASE_URL: migrates and seeds the demo, copies the demo's metered subscription into
 * BENCH_METERED (1,000) subscriptions of the demo seller, each with a license key, makes BENCH_KEYS (16)
 * API keys for the seller (each key has its own rate limit), builds the real app and listens. Prints one
 * JSON line; answers the IPC message "check" with what the database counted, "cpu" with its process.cpuUsage().
 */
const count = Number(process.env.BENCH_METERED ?? 1_000);
const keyCount = Number(process.env.BENCH_KEYS ?? 16);
const PREFIX = "bench-metering";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL must name a scratch PostgreSQL database");

const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-metering-"));
const env = loadEnv({
  ...process.env,
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
  PORT: "0",
  // Shipped software checks keys from many addresses: the load generator names one per request.
  TRUST_PROXY: "true",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
});
const database = await openDatabase({ databaseUrl, dataDir: null });
const rows = <T>(query: SQL) => rowsOf<T>(database.db, query);
await database.migrate();
await seedDemo(database.db, { uploadsDir: path.join(dataDir, "uploads") });

const [source] = await rows<{
  subscription_id: string;
  order_id: string;
  order_item_id: string;
  seller_id: string;
}>(
  sql`select s.id as subscription_id, s.order_id, s.order_item_id, i.seller_id from subscriptions s
      join order_items i on i.id = s.order_item_id where s.meter_unit is not null limit 1`,
);
if (!source) throw new Error("the demo seed started no metered subscription to copy");
const { order_id: sourceOrder, subscription_id: sourceSubscription } = source;
const [previous] = await rows<{ n: number }>(
  sql`select count(*)::int as n from seller_api_keys where name like ${`${PREFIX}%`}`,
);
if ((previous?.n ?? 0) > 0)
  throw new Error("DATABASE_URL holds an earlier metering benchmark: use a fresh database");

/** A table's columns a copy takes from its source row: all but the overridden and generated ones. */
async function copiedColumns(table: string, overridden: string[]) {
  const columns = await rows<{ name: string }>(
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
        order by ordinal_position`,
  );
  return columns.map((c) => c.name).filter((name) => !overridden.includes(name));
}
const list = (names: string[], alias?: string) =>
  sql.raw(names.map((name) => (alias ? `${alias}."${name}"` : `"${name}"`)).join(", "));

// One copy of the source's order item per subscription (on the source's order), each subscription
// started a day ago, with one license key.
const anchor = new Date(Date.now() - 24 * 3600_000);
const licenseKeys = Array.from({ length: count }, () => generateLicenseKey((n) => randomBytes(n)));
await database.db.transaction(async (tx) => {
  const itemRest = await copiedColumns("order_items", ["id"]);
  await tx.execute(sql`insert into order_items (id, ${list(itemRest)})
    select gen_random_uuid(), ${list(itemRest, "i")} from order_items i, generate_series(1, ${count}::int)
    where i.id = ${source.order_item_id}`);
  const own = ["id", "order_item_id", "anchor", "paid_through", "spending_cap", "created_at", "updated_at"];
  const rest = await copiedColumns("subscriptions", own);
  await tx.execute(sql`insert into subscriptions (${list(own)}, ${list(rest)})
    select gen_random_uuid(), i.id, ${anchor.toISOString()}::timestamptz,
      ${anchor.toISOString()}::timestamptz + interval '1 month', null,
      ${anchor.toISOString()}::timestamptz, ${anchor.toISOString()}::timestamptz, ${list(rest, "s")}
    from subscriptions s, order_items i
    where s.id = ${source.subscription_id} and i.order_id = ${source.order_id} and i.id <> ${source.order_item_id}
      and not exists (select from subscriptions x where x.order_item_id = i.id)`);
  await tx.execute(sql`insert into licenses (key, order_item_id, order_id, user_id, product_id, product_name, issued_at)
    select k.key, s.order_item_id, s.order_id, s.user_id, s.product_id, 'Bench metered', now()
    from (select s.*, row_number() over (order by s.id) as n from subscriptions s
          where s.order_id = ${source.order_id} and s.id <> ${source.subscription_id}) s
    join unnest(${sql.param(licenseKeys)}::text[]) with ordinality as k(key, n) on k.n = s.n`);
});
await database.db.execute(sql`analyze order_items, subscriptions, licenses`);
const subscriptionIds = (
  await rows<{ id: string }>(
    sql`select id from subscriptions where order_id = ${source.order_id} and id <> ${source.subscription_id} order by id`,
  )
).map((r) => r.id);

// API keys made as the dashboard makes them (the hash of the whole key), beyond the dashboard's limit of
// ten live keys: each key has its own limit of calls a minute.
const keys = Array.from({ length: keyCount }, (_, i) => {
  const id = `bm${String(i).padStart(8, "0")}`;
  const key = `sbk_${id}_${randomBytes(32).toString("base64url")}`;
  return { key, prefix: `sbk_${id}`, hash: createHash("sha256").update(key).digest("hex") };
});
for (const [i, k] of keys.entries())
  await database.db.execute(sql`insert into seller_api_keys (seller_id, name, prefix, secret_hash, scopes)
    values (${source.seller_id}, ${`${PREFIX} ${i}`}, ${k.prefix}, ${k.hash}, ${sql.param([...sellerApiScopes])}::text[])`);

const [settings] = await rows<Record<string, string>>(
  sql`select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers,
        current_setting('synchronous_commit') as synchronous_commit`,
);
const app = await buildApp({ env, database, webRoot: null, schedules: false, workers: false });
const address = await app.listen({ port: 0, host: "127.0.0.1" });
// The floor: a bare Fastify answering a fixed body to the same request, in this same process, which is
// what this machine can do at all with the load generator beside it (BENCH_METERING_PARTS=floor).
const bare = Fastify({ logger: false });
const fixedAnswer = {
  valid: true,
  status: "active",
  product: "Bench metered",
  renewsAt: null,
  seats: 1,
  seatsUsed: 0,
  activated: null,
};
bare.post("/api/licenses/validate", async () => fixedAnswer);
const floorAddress = await bare.listen({ port: 0, host: "127.0.0.1" });
console.info(
  JSON.stringify({
    address,
    floorAddress,
    kind: database.kind,
    settings,
    subscriptionIds,
    licenseKeys,
    keys: keys.map((k) => k.key),
  }),
);

/** What the database counted for the benchmark's subscriptions. */
async function check() {
  const [figures] = await rows<Record<string, string>>(sql`
    with bench as (select id from subscriptions where order_id = ${sourceOrder} and id <> ${sourceSubscription})
    select
      (select count(*) from usage_records r join bench b on b.id = r.subscription_id)::text as records,
      (select coalesce(sum(r.quantity), 0) from usage_records r join bench b on b.id = r.subscription_id)::text as recorded_units,
      (select coalesce(sum(p.quantity), 0) from usage_periods p join bench b on b.id = p.subscription_id)::text as period_units,
      (select count(distinct r.idempotency_key) from usage_records r join bench b on b.id = r.subscription_id)::text as distinct_keys`);
  return figures ?? {};
}

process.on("message", async (message: { type: string }) => {
  try {
    if (message.type === "check") process.send?.({ type: "checked", figures: await check() });
    if (message.type === "cpu") process.send?.({ type: "cpu", cpu: process.cpuUsage() });
  } catch (error) {
    process.send?.({ type: "failed", error: String(error) });
  }
});

// Ended by the load generator: exit normally, so that `node --cpu-prof` (BENCH_CPU_PROF) writes its profile.
process.on("SIGTERM", () => process.exit(0));
