import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { paths } from "#domain/routes";
import { buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";
import { newLicenseSigningKey } from "#server/lib/license-signing";
import { webRoot } from "#server/web/build";

/**
 * The server `bench/lighthouse.ts` measures: what `npm start` runs (embedded database in a data directory,
 * the built web app), in production mode, with the demo data in a fresh temporary DATA_DIR. Production
 * does not seed by itself, so the demo data is seeded here. Prints one JSON line with the pages to measure.
 */
const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-lighthouse-"));
const uploadsDir = path.join(dataDir, "uploads");
await mkdir(uploadsDir, { recursive: true });
const env = loadEnv({
  ...process.env,
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  LOG_LEVEL: "silent",
  HOST: "127.0.0.1",
  PORT: "0",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  LICENSE_SIGNING_KEY: newLicenseSigningKey(),
  // A demo operator number and test-mode payments: nothing here takes money.
  OPERATOR_TRN: process.env.OPERATOR_TRN ?? "100-1234-5670-0003",
  ALLOW_TEST_PAYMENTS: "true",
  // No load shedding: on a busy machine a lagging event loop would answer some of the app's script with
  // 503, and Lighthouse would score a page whose app never ran (less script, no hydration, a better TBT).
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: process.env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS ?? "0",
});
const database = await openDatabase({ dataDir });
await database.migrate();
await seedDemo(database.db, { uploadsDir });
const app = await buildApp({ env, database, webRoot });
const address = await app.listen({ port: 0, host: "127.0.0.1" });
// The first product of the listing, as a visitor reaching it from /products would open it.
const [product] = (
  (await database.db.execute(
    sql`select id from products where is_active and moderation_status = 'approved' order by created_at desc, id desc limit 1`,
  )) as unknown as { rows: { id: string }[] }
).rows;
console.info(
  JSON.stringify({
    address,
    pages: [
      ["home", paths.home()],
      ["/products", paths.products()],
      ["product page", product ? paths.product(product.id) : null],
    ],
  }),
);
process.once("SIGTERM", async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
});
