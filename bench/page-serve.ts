import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildApp } from "#server/app";
import { createOrGrantAccount } from "#server/auth/users";
import { openDatabase } from "#server/db/client";
import { products } from "#server/db/schema/catalog";
import { seedDemo } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";
import { newLicenseSigningKey } from "#server/lib/license-signing";
import { webRoot } from "#server/web/build";

/**
 * The server of `bench/pages.ts`: the built app drawing public pages (decision 0020) over the demo data,
 * in production mode, with SELLERS self-registered (untrusted) sellers who each have a listing in review.
 * Prints one JSON line: its address and, per seller, a signed-in cookie and the edit to send. Answers
 * any IPC message with its own CPU time, so the load generator can divide it by the requests served, and
 * how many times its catalogue cache was cleared.
 */
const SELLERS = 20;
const PASSWORD = "bench seller password";
const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-pages-"));
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
  OPERATOR_TRN: process.env.OPERATOR_TRN ?? "100-1234-5670-0003",
  ALLOW_TEST_PAYMENTS: "true",
  // Measured is the work a request costs, not the overload guard's fast refusals.
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0",
});
const database = await openDatabase({ dataDir });
await database.migrate();
await seedDemo(database.db, { uploadsDir });
const app = await buildApp({ env, database, webRoot });
const address = await app.listen({ port: 0, host: "127.0.0.1" });

const listing = (price: number) => ({
  name: "Bench Ledger",
  description: "A listing in review, saved again and again.",
  category: "software",
  price,
  features: ["Bank feeds"],
  specifications: [{ key: "Platform", value: "Web" }],
  images: [],
  imageUrl: null,
  isResellable: false,
});
const edits: { cookie: string; url: string; body: ReturnType<typeof listing> }[] = [];
for (let n = 0; n < SELLERS; n++) {
  const email = `bench-seller-${n}@pages.example`;
  const { id } = await createOrGrantAccount(database.db, {
    email,
    password: PASSWORD,
    firstName: "Bench",
    lastName: `Seller ${n}`,
    roles: ["seller"],
  });
  const [product] = await database.db
    .insert(products)
    .values({
      name: "Bench Ledger",
      category: "software",
      price: "10",
      sellerId: id,
      moderationStatus: "pending",
    })
    .returning({ id: products.id });
  if (!product) throw new Error("no bench listing");
  const signIn = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in",
    payload: { email, password: PASSWORD },
    remoteAddress: `10.77.0.${n + 1}`,
  });
  const cookie = [signIn.headers["set-cookie"] ?? []]
    .flat()
    .map((c) => c.split(";")[0])
    .join("; ");
  edits.push({ cookie, url: `/api/manage/products/${product.id}`, body: listing(11) });
}
console.info(JSON.stringify({ address, edits }));

process.on("message", () =>
  process.send?.({ cpu: process.cpuUsage(), clears: app.catalogueCache.stats.clears }),
);
process.once("SIGTERM", async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
});
