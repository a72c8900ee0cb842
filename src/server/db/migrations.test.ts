import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { openDatabase, openPglite } from "#server/db/client";
import { createTestDatabase, queryRows } from "#server/test/app";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const rows = <T>(query: SQL) => queryRows<T>(database.db, query);

test("migrations create every table of the spec on an empty database, and a second run changes nothing", async () => {
  const before = await rows<{ n: number }>(
    sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
  );
  expect(before[0]?.n).toBe(0);
  await database.migrate();
  await database.migrate();
  const tables = (
    await rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )
  ).map((r) => r.table_name);
  expect(tables).toEqual([
    "accounts",
    "audit_log",
    "bank_transfer_orders",
    "bank_transfers",
    "categories",
    "commissions",
    "contact_messages",
    "email_code_sends",
    "faq_votes",
    "featured_products",
    "fee_rules",
    "fx_rates",
    "job_runs",
    "journal_entries",
    "journal_lines",
    "ledger_accounts",
    "license_activations",
    "license_validation_days",
    "licenses",
    "newsletter_subscriptions",
    "notifications",
    "order_items",
    "orders",
    "partner_applications",
    "payment_customers",
    "payment_events",
    "payment_method_setups",
    "payment_methods",
    "payments",
    "payout_accounts",
    "payout_batches",
    "payouts",
    "product_features",
    "product_plans",
    "product_questions",
    "product_specifications",
    "products",
    "question_reports",
    "rate_limits",
    "referral_clicks",
    "refund_messages",
    "refund_payouts",
    "refund_requests",
    "reseller_codes",
    "reseller_fingerprints",
    "retired_storefront_slugs",
    "review_reports",
    "reviews",
    "saved_items",
    "search_synonyms",
    "seller_api_calls",
    "seller_api_keys",
    "seller_webhook_deliveries",
    "seller_webhook_endpoints",
    "seller_webhook_events",
    "sessions",
    "sign_in_failures",
    "site_content_blocks",
    "site_pages",
    "storefront_changes",
    "storefronts",
    "subscription_changes",
    "subscription_renewals",
    "subscriptions",
    "tax_rates",
    "test_payment_sessions",
    "test_setup_sessions",
    "two_factors",
    "uploads",
    "usage_periods",
    "usage_records",
    "users",
    "vat_checks",
    "verifications",
  ]);
});

test("products are search-ready: one trigram index over name, vendor and description, btree on the sort keys", async () => {
  const indexes = await rows<{ indexname: string; indexdef: string }>(
    sql`select indexname, indexdef from pg_indexes where tablename = 'products'`,
  );
  const defs = indexes.map((i) => i.indexdef).join("\n");
  expect(defs).toMatch(/USING gin \(search_text gin_trgm_ops\)/);
  expect(defs).toMatch(/USING btree \(rating_score DESC NULLS LAST, id\)/);
  expect(defs).toMatch(/USING btree \(price, id\)/);
  expect(defs).toMatch(/USING btree \(created_at, id\)/);
  expect(defs).toMatch(/USING btree \(category, price, id\)/);
});

test("money columns keep four decimals exactly and the database refuses impossible values", async () => {
  await database.db.execute(sql`insert into categories (name, slug) values ('APIs', 'apis')`);
  const [row] = await rows<{ price: string }>(
    sql`insert into products (name, category, price) values ('Geo API', 'apis', 0.004) returning price`,
  );
  expect(row?.price).toBe("0.0040");
  await expect(
    database.db.execute(sql`insert into products (name, category, price) values ('Bad', 'apis', -1)`),
  ).rejects.toThrow();
  await expect(
    database.db.execute(
      sql`insert into products (name, category, price, rating) values ('Bad', 'apis', 1, 5.5)`,
    ),
  ).rejects.toThrow();
  await expect(
    database.db.execute(sql`insert into products (name, category, price) values ('Orphan', 'nope', 1)`),
  ).rejects.toThrow();
});

/** What a migrated embedded database holds: its objects' definitions and the migrator's record. */
async function schemaOf(client: PGlite) {
  const all = async (query: string) => (await client.query(query)).rows;
  return {
    columns: await all(
      `select table_name, column_name, data_type, is_nullable, column_default, generation_expression
       from information_schema.columns where table_schema = 'public' order by table_name, column_name`,
    ),
    indexes: await all(`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`),
    constraints: await all(
      `select conrelid::regclass::text as tab, conname, pg_get_constraintdef(oid) as def from pg_constraint
       where connamespace = 'public'::regnamespace order by 1, 2`,
    ),
    triggers: await all(
      `select tgname, pg_get_triggerdef(oid) from pg_trigger where not tgisinternal order by 1`,
    ),
    functions: await all(
      `select proname, prosrc from pg_proc where pronamespace = 'public'::regnamespace order by 1`,
    ),
    extensions: await all(`select extname from pg_extension order by 1`),
    migrations: await all(`select hash, created_at from drizzle.__drizzle_migrations order by id`),
  };
}

// A first start migrates the embedded database before it can seed: every statement sent on its own was
// a round of parse, describe, bind and execute through PGlite. On PGlite whatever DATABASE_URL says.
test("the embedded database migrates in a few rounds to what drizzle's migrator builds, and records it alike", async () => {
  const reference = await openPglite(undefined);
  const embedded = await openPglite(undefined);
  try {
    await migrate(drizzle({ client: reference }), {
      migrationsFolder: fileURLToPath(new URL("./migrations", import.meta.url)),
    });
    const handle = await openDatabase({ dataDir: null, pglite: embedded });
    const rounds = vi.spyOn(embedded, "execProtocolStream");
    await handle.migrate();
    expect(rounds.mock.calls.length).toBeLessThan(20);
    expect(await schemaOf(embedded)).toEqual(await schemaOf(reference));
    // Either migrator takes over from the other: nothing is left to apply.
    rounds.mockClear();
    await handle.migrate();
    await migrate(drizzle({ client: embedded }), {
      migrationsFolder: fileURLToPath(new URL("./migrations", import.meta.url)),
    });
    expect((await schemaOf(embedded)).migrations).toHaveLength(46);
  } finally {
    await Promise.all([reference.close(), embedded.close()]);
  }
});
