import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type SQL, sql } from "drizzle-orm";
import pg from "pg";
import { addIntervals, renewalInvoiceAt } from "#domain/subscriptions";
import { buildApp } from "#server/app";
import { openDatabase, rowsOf } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";
import { MAIL_QUEUE } from "#server/mail/mailer";
import { paymentDepsOf } from "#server/modules/payments/service";
import { RENEWAL_BATCH, runRenewals } from "#server/modules/renewals/service";

/**
 * The server side of the renewals benchmark (`BENCH_ONLY=renewals npm run bench`, see bench/renewals.ts),
 * in its own process so the load generator does not share its event loop. On the scratch PostgreSQL
 * database DATABASE_URL: migrates and seeds the demo (as a first start does), then writes
 * BENCH_SUBSCRIPTIONS monthly subscriptions all due now, set-based; builds the real app on that database
 * (schedules off, so the renewal job does not start by itself) and listens. Prints one JSON line, then
 * answers IPC messages: "run" runs `runRenewals` once, here, in the server's process as the job would
 * (timed, with the statements it sent), "check" counts by SQL what the run left.
 */
const count = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
/** Subscriptions per origin order: one order item each (the unique `order_item_id`), quantity 1. */
const PER_ORDER = 1_000;
const PREFIX = "bench-renewals";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL must name a scratch PostgreSQL database");
if (!Number.isInteger(count) || count < 1) throw new Error("BENCH_SUBSCRIPTIONS must be a whole number ≥ 1");

/**
 * Every statement this process sends while `profiling` is on, by pool and statement (verb and table),
 * with the time from sending it to its answer as the client sees it (round trip, execution, and any wait
 * behind another statement of the same connection). Bench instrumentation only: it wraps pg's client.
 */
type StatementFigures = { count: number; ms: number };
const statements = new Map<string, StatementFigures>();
/** Each batch's "which subscriptions are due" query (main pool, FOR UPDATE), in order: does it slow down? */
const batchQueries: number[] = [];
let profiling = false;
const poolOf = (client: pg.Client) => {
  const parameters = (client as unknown as { connectionParameters?: Record<string, unknown> })
    .connectionParameters;
  if (String(parameters?.application_name ?? "").startsWith("pgboss")) return "job queue";
  if (parameters?.statement_timeout) return "catalogue reads";
  return "main";
};
const labelOf = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim().toLowerCase();
  const verb = flat.split(" ")[0] ?? "";
  const table = /\b(?:into|update|from)\s+("?[\w]+"?(?:\."?[\w]+"?)?)/.exec(flat)?.[1]?.replaceAll('"', "");
  const locking = flat.includes("for update") ? " for update" : "";
  return table ? `${verb} ${table}${locking}` : flat.slice(0, 40);
};
const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
  this: pg.Client,
  ...args: unknown[]
) {
  if (!profiling) return originalQuery.apply(this, args);
  const first = args[0];
  const text = typeof first === "string" ? first : String((first as { text?: unknown } | null)?.text ?? "");
  const key = `${poolOf(this)}\t${labelOf(text)}`;
  const started = performance.now();
  const record = () => {
    const ms = performance.now() - started;
    const figures = statements.get(key) ?? { count: 0, ms: 0 };
    figures.count++;
    figures.ms += ms;
    statements.set(key, figures);
    if (key === "main\tselect subscriptions for update") batchQueries.push(ms);
  };
  // A pool's own query (pg-boss's) passes a callback; drizzle's awaits the promise.
  const last = args.at(-1);
  if (typeof last === "function")
    args[args.length - 1] = (...answer: unknown[]) => {
      record();
      return (last as (...a: unknown[]) => unknown)(...answer);
    };
  const result = originalQuery.apply(this, args);
  if (result instanceof Promise) result.then(record, record);
  return result;
};

const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-renewals-"));
const env = loadEnv({
  // Production's overload guard (tests turn it off by default): a saturated server answers 503 at once.
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "250",
  ...process.env,
  // Test mode: no payment provider's keys, so the renewal orders are test-mode ones.
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
  PORT: "0",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
});
const database = await openDatabase({ databaseUrl, dataDir: null });
const rows = <T>(query: SQL) => rowsOf<T>(database.db, query);

const seedStarted = performance.now();
await database.migrate();
await seedDemo(database.db, { uploadsDir: path.join(dataDir, "uploads") });
const seedSeconds = (performance.now() - seedStarted) / 1000;

const [previous] = await rows<{ n: number }>(
  sql`select count(*)::int as n from orders where idempotency_key like ${`${PREFIX}:%`}`,
);
if ((previous?.n ?? 0) > 0)
  throw new Error(
    "DATABASE_URL already holds an earlier renewals benchmark's subscriptions: give it a fresh scratch database",
  );

/**
 * The monthly subscription the demo seed started (bought and paid as a test-mode checkout pays), whose
 * order, item and subscription rows every benchmark row copies: the same buyer's tax decision, payment
 * method, product and agreed price.
 */
const [source] = await rows<{
  subscription_id: string;
  order_id: string;
  order_item_id: string;
  product_name: string;
  unit_price: string;
}>(
  sql`select s.id as subscription_id, s.order_id, s.order_item_id, i.product_name, s.unit_price::text
      from subscriptions s join order_items i on i.id = s.order_item_id
      where s.interval = 'month' and i.pricing_unit = 'month' and s.quantity = 1 and s.ended_at is null
      order by s.paid_through desc limit 1`,
);
if (!source) throw new Error("the demo seed started no monthly subscription to copy");

/** A table's columns a copy takes from its source row: all but the overridden, generated or numbered ones. */
async function copiedColumns(table: string, overridden: string[]) {
  const columns = await rows<{ name: string }>(
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
          and is_identity = 'NO' and coalesce(column_default, '') not like 'nextval(%'
        order by ordinal_position`,
  );
  return columns.map((c) => c.name).filter((name) => !overridden.includes(name));
}
const list = (names: string[], alias?: string) =>
  sql.raw(names.map((name) => (alias ? `${alias}."${name}"` : `"${name}"`)).join(", "));

// Set-based, in a few statements: one buyer and one paid origin order per PER_ORDER subscriptions, an
// order item per subscription, and each subscription a month old, paid through a minute ago: due now.
const subscriptionsStarted = performance.now();
const orderCount = Math.ceil(count / PER_ORDER);
const anchor = addIntervals(new Date(Date.now() - 60_000), "month", -1);
const paidThrough = addIntervals(anchor, "month", 1);
await database.db.transaction(async (tx) => {
  const run = (query: SQL) => tx.execute(query);
  await run(sql`insert into users (id, name, email, email_verified, first_name, last_name, country, created_at, updated_at)
    select ${`${PREFIX}-buyer-`} || k, 'Bench Buyer ' || k, ${`${PREFIX}-buyer-`} || k || '@renewals.example', true,
      'Bench', 'Buyer ' || k, 'United States', ${anchor.toISOString()}::timestamptz, ${anchor.toISOString()}::timestamptz
    from generate_series(0, ${orderCount - 1}::int) k`);
  const orderOwn = ["id", "user_id", "idempotency_key", "customer_info", "created_at", "updated_at"];
  const orderRest = await copiedColumns("orders", orderOwn);
  await run(sql`insert into orders (${list(orderOwn)}, ${list(orderRest)})
    select gen_random_uuid(), ${`${PREFIX}-buyer-`} || k, ${`${PREFIX}:`} || k,
      o.customer_info || jsonb_build_object('email', ${`${PREFIX}-buyer-`} || k || '@renewals.example', 'fullName', 'Bench Buyer ' || k),
      ${anchor.toISOString()}::timestamptz, ${anchor.toISOString()}::timestamptz, ${list(orderRest, "o")}
    from orders o, generate_series(0, ${orderCount - 1}::int) k where o.id = ${source.order_id}`);
  const itemOwn = ["id", "order_id"];
  const itemRest = await copiedColumns("order_items", itemOwn);
  await run(sql`insert into order_items (${list(itemOwn)}, ${list(itemRest)})
    select gen_random_uuid(), o.id, ${list(itemRest, "i")}
    from order_items i, orders o
      cross join lateral generate_series(1, least(${PER_ORDER}::int, ${count}::int - split_part(o.idempotency_key, ':', 2)::int * ${PER_ORDER}::int)) j
    where i.id = ${source.order_item_id} and o.idempotency_key like ${`${PREFIX}:%`}`);
  const subscriptionOwn = [
    "id",
    "user_id",
    "order_item_id",
    "order_id",
    "anchor",
    "periods_paid",
    "paid_through",
    "created_at",
    "updated_at",
  ];
  const subscriptionRest = await copiedColumns("subscriptions", subscriptionOwn);
  await run(sql`insert into subscriptions (${list(subscriptionOwn)}, ${list(subscriptionRest)})
    select gen_random_uuid(), o.user_id, i.id, o.id, ${anchor.toISOString()}::timestamptz, 1,
      ${paidThrough.toISOString()}::timestamptz, ${anchor.toISOString()}::timestamptz, ${anchor.toISOString()}::timestamptz,
      ${list(subscriptionRest, "s")}
    from subscriptions s, orders o join order_items i on i.order_id = o.id
    where s.id = ${source.subscription_id} and o.idempotency_key like ${`${PREFIX}:%`}`);
});
// What autovacuum would soon know of tables that grew by N rows at once.
await database.db.execute(sql`analyze users, orders, order_items, subscriptions, subscription_renewals`);
const subscriptionsSeconds = (performance.now() - subscriptionsStarted) / 1000;

/**
 * The subscriptions the renewal job would invoice at `now`: its query's conditions (subscriptionsToInvoice),
 * counted without its FOR UPDATE, which would write a lock into every row before the measured run.
 */
const dueNow = async (now: Date) => {
  const until = (interval: "month" | "year") =>
    new Date(2 * now.getTime() - renewalInvoiceAt(now, interval).getTime()).toISOString();
  const [row] = await rows<{ n: number }>(
    sql`select count(*)::int as n from subscriptions s
        where s.ended_at is null and not s.cancel_at_period_end and s.claimed_period is distinct from s.periods_paid
          and s.paid_through <= case s.interval when 'year' then ${until("year")}::timestamptz else ${until("month")}::timestamptz end
          and not exists (select 1 from subscription_renewals r where r.subscription_id = s.id and r.period_index = s.periods_paid)`,
  );
  return row?.n ?? 0;
};
const due = await dueNow(new Date());
const [settings] = await rows<Record<string, string>>(
  sql`select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers,
        current_setting('fsync') as fsync, current_setting('synchronous_commit') as synchronous_commit,
        current_setting('max_connections') as max_connections`,
);

// E-mail is handed to a transport that only counts (no SMTP server, no outbox files): the mail job's
// queue work is real, the delivery is not. BENCH_WORKERS=0 leaves the queued mail undelivered.
let mailsDelivered = 0;
const workers = process.env.BENCH_WORKERS !== "0";
const app = await buildApp({
  env,
  database,
  webRoot: null,
  schedules: false,
  workers,
  mailTransport: {
    send: async () => {
      mailsDelivered++;
    },
  },
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.info(
  JSON.stringify({
    address,
    kind: database.kind,
    settings,
    subscriptions: count,
    orders: orderCount,
    due,
    product: source.product_name,
    unitPrice: source.unit_price,
    paidThrough: paidThrough.toISOString(),
    seedSeconds,
    subscriptionsSeconds,
    batch: RENEWAL_BATCH,
    workers,
  }),
);

/** What the run left, by SQL: one claim and one renewal order (with its one item) per subscription. */
async function check(runStartedAt: Date) {
  const [figures] = await rows<Record<string, number>>(sql`
    with bench as (
      select s.id from subscriptions s join orders o on o.id = s.order_id
      where o.idempotency_key like ${`${PREFIX}:%`}
    )
    select
      (select count(*)::int from bench) as subscriptions,
      (select count(*)::int from subscription_renewals r join bench b on b.id = r.subscription_id) as claims,
      (select count(distinct r.subscription_id)::int from subscription_renewals r join bench b on b.id = r.subscription_id) as subscriptions_claimed,
      (select count(*)::int from subscription_renewals r join bench b on b.id = r.subscription_id where r.period_index <> 1) as claims_of_another_period,
      (select count(*)::int from orders o join bench b on o.idempotency_key = 'renewal:' || b.id || ':1') as renewal_orders,
      (select count(*)::int from order_items i join orders o on o.id = i.order_id join bench b on o.idempotency_key = 'renewal:' || b.id || ':1') as renewal_order_items,
      (select count(*)::int from orders o where o.idempotency_key like 'renewal:%'
         and not exists (select from subscription_renewals r where r.order_id = o.id)) as orders_without_claim,
      (select count(*)::int from subscription_renewals r join bench b on b.id = r.subscription_id
         join orders o on o.id = r.order_id where o.idempotency_key <> 'renewal:' || b.id || ':1') as claims_on_another_order,
      (select count(*)::int from pgboss.job where name = ${MAIL_QUEUE} and created_on >= ${runStartedAt.toISOString()}::timestamptz) as mails_queued
  `);
  return figures ?? {};
}

const reply = (message: object) => {
  if (process.connected) process.send?.(message);
};
let runStartedAt = new Date();
process.on("message", async (message: { type: string }) => {
  try {
    if (message.type === "run") {
      const now = app.clock.now();
      runStartedAt = new Date();
      const cpu = process.cpuUsage();
      const delivered = mailsDelivered;
      statements.clear();
      batchQueries.length = 0;
      // How long the server's event loop was held at a time: a listing request waits that long.
      const loopDelay = monitorEventLoopDelay({ resolution: 5 });
      loopDelay.enable();
      profiling = true;
      const started = performance.now();
      const run = await runRenewals(paymentDepsOf(app), now);
      const seconds = (performance.now() - started) / 1000;
      profiling = false;
      loopDelay.disable();
      const used = process.cpuUsage(cpu);
      reply({
        type: "ran",
        run,
        seconds,
        cpuSeconds: (used.user + used.system) / 1e6,
        mailsDelivered: mailsDelivered - delivered,
        loopDelayMs: {
          p50: loopDelay.percentile(50) / 1e6,
          p99: loopDelay.percentile(99) / 1e6,
          max: loopDelay.max / 1e6,
        },
        batchQueries,
        statements: [...statements].map(([key, figures]) => {
          const [pool, statement] = key.split("\t");
          return { pool, statement, ...figures };
        }),
      });
    } else if (message.type === "check") {
      reply({ type: "checked", figures: await check(runStartedAt) });
    }
  } catch (error) {
    reply({ type: "failed", error: error instanceof Error ? error.stack : String(error) });
  }
});
const stop = async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once("SIGTERM", stop);
// The load generator is gone (stopped or killed): nobody will read the answers.
process.once("disconnect", stop);
