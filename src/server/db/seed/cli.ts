import { parseArgs } from "node:util";
import { openDatabase } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { seedSyntheticProducts } from "#server/db/seed/synthetic";
import { loadEnv } from "#server/env";
import { configuredStorage } from "#server/storage/configured";

const usage = `Usage: npm run seed -- [--demo] [--products N]
  --demo         add the demo catalogue and accounts (refused when NODE_ENV=production)
  --products N   add N generated products for benchmarks
With no option, --demo is assumed.`;

const { values } = parseArgs({
  options: { demo: { type: "boolean" }, products: { type: "string" }, help: { type: "boolean" } },
});
if (values.help) {
  console.info(usage);
  process.exit(0);
}
const productCount = values.products === undefined ? 0 : Number(values.products);
if (!Number.isInteger(productCount) || productCount < 0) {
  console.error(`--products must be a whole number, got "${values.products}".\n${usage}`);
  process.exit(1);
}

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  // The demo seed runs under the migration lock, so it never meets a server starting at the same time.
  await database.migrate(async (db) => {
    if (!values.demo && productCount > 0) return;
    if (env.NODE_ENV === "production")
      throw new Error("Demo accounts are never seeded when NODE_ENV=production.");
    const result = await seedDemo(db, { storage: configuredStorage(env), webhookSecret: env.AUTH_SECRET });
    console.info(`Demo data: ${result.products} new products, ${result.accounts} accounts checked.`);
  });
  if (productCount > 0) {
    const started = performance.now();
    await seedSyntheticProducts(database.db, productCount, (done) =>
      process.stdout.write(`\r${done} products`),
    );
    console.info(
      `\nAdded ${productCount} products in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
} finally {
  await database.close();
}
