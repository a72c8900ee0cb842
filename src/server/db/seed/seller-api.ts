import { createHash } from "node:crypto";
import { DAY_MS } from "#domain/dates";
import { sellerApiScopes } from "#domain/seller-api";
import type { Database } from "#server/db/client";
import { sellerApiCalls, sellerApiKeys } from "#server/db/schema/seller-api";

/**
 * The demo seller's API key, published like the demo password: the demo's seller API can be tried at
 * once (`curl -H "Authorization: Bearer …" http://127.0.0.1:3000/api/seller/v1/orders`). Production never
 * seeds demo data.
 */
export const DEMO_SELLER_API_KEY = "sbk_demoseller_stackbay-demo-key-for-trying-the-seller-api";

/** The demo seller's key, with every scope, and a few calls of the last days in its access log. Idempotent. */
export async function seedDemoSellerKey(db: Database, { now, sellerId }: { now: Date; sellerId: string }) {
  const [key] = await db
    .insert(sellerApiKeys)
    .values({
      sellerId,
      name: "Demo integration",
      prefix: DEMO_SELLER_API_KEY.slice(0, "sbk_demoseller".length),
      secretHash: createHash("sha256").update(DEMO_SELLER_API_KEY).digest("hex"),
      scopes: [...sellerApiScopes],
      createdAt: new Date(now.getTime() - 20 * DAY_MS),
      lastUsedAt: new Date(now.getTime() - DAY_MS),
    })
    .onConflictDoNothing({ target: sellerApiKeys.prefix })
    .returning();
  if (!key) return;
  const calls = [
    { daysAgo: 6, operation: "GET /seller/v1/key", status: 200 },
    { daysAgo: 6, operation: "GET /seller/v1/orders", status: 200 },
    { daysAgo: 3, operation: "GET /seller/v1/subscriptions", status: 200 },
    { daysAgo: 2, operation: "GET /seller/v1/orders", status: 429 },
    { daysAgo: 1, operation: "GET /seller/v1/orders", status: 200 },
  ];
  await db.insert(sellerApiCalls).values(
    calls.map((call, i) => ({
      keyId: key.id,
      sellerId,
      operation: call.operation,
      status: call.status,
      at: new Date(now.getTime() - call.daysAgo * DAY_MS + i * 60_000),
    })),
  );
}
