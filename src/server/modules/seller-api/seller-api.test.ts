import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  MAX_SELLER_API_KEYS,
  SELLER_API_CALLS_PER_MINUTE,
  SELLER_API_KEY_PATTERN,
  SELLER_API_LOG_DAYS,
  type SellerApiCallPage,
  type SellerApiKeyIssued,
  type SellerApiKeyList,
  sellerApiScopes,
} from "#domain/seller-api";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { sellerApiCalls, sellerApiKeys } from "#server/db/schema/seller-api";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { DEMO_SELLER_API_KEY } from "#server/db/seed/seller-api";
import type { AdjustableClock } from "#server/lib/clock";
import { sellerApiDepsOf, sellerApiLogPruneJob } from "#server/modules/seller-api/service";
import { createTestApp, queryRows } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let seller: Client;
let sellerId: string;
let other: Client;
let buyer: Client;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const account = await createVerifiedAccount(t.app, t.dataDir, {
    email: "other-seller@example.com",
    accountType: "seller",
  });
  other = await signedInClient(t.app, account.email, account.password);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  sellerId = row!.id;
});

afterAll(async () => {
  await t?.close();
});

let address = 0;
/** A call of the seller API as a seller's server makes it: a bearer key, no cookie, an address of its own. */
function callWith(key: string | null, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "GET",
    url,
    remoteAddress: `10.77.0.${++address % 250}`,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });
}

async function makeKey(client: Client, name: string, scopes: string[]): Promise<SellerApiKeyIssued> {
  const res = await client.post("/api/seller-api/keys", { name, scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function revokeAll(client: Client) {
  const { items } = (await client.get("/api/seller-api/keys")).json() as SellerApiKeyList;
  for (const key of items.filter((k) => !k.revokedAt))
    expect((await client.request("DELETE", `/api/seller-api/keys/${key.id}`)).statusCode).toBe(200);
}

describe("making keys", () => {
  test("a key is shown whole once; the list and the database hold only its prefix and SHA-256; the making is audited", async () => {
    const issued = await makeKey(seller, "  Order sync  ", ["subscriptions:read", "orders:read"]);
    expect(issued.secret).toMatch(SELLER_API_KEY_PATTERN);
    expect(issued.secret.startsWith(`${issued.key.prefix}_`)).toBe(true);
    expect(issued.key).toMatchObject({
      name: "Order sync",
      // In the declared order, whatever order they were chosen in.
      scopes: ["orders:read", "subscriptions:read"],
      lastUsedAt: null,
      revokedAt: null,
      rolledAt: null,
    });
    const list = await seller.get("/api/seller-api/keys");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(issued.secret.slice(issued.key.prefix.length + 1));
    expect((list.json() as SellerApiKeyList).items.map((k) => k.id)).toContain(issued.key.id);

    const [row] = await t.db.select().from(sellerApiKeys).where(eq(sellerApiKeys.id, issued.key.id));
    expect(row?.secretHash).toBe(createHash("sha256").update(issued.secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(issued.secret.slice(issued.key.prefix.length + 1));
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "api_key"), eq(auditLog.entityId, issued.key.id)));
    expect(audits.map((a) => a.action)).toEqual(["create"]);
    expect(JSON.stringify(audits)).not.toContain(issued.secret.slice(issued.key.prefix.length + 1));
  });

  test("bad input is refused on its field, and nothing is made", async () => {
    const before = (await t.db.select().from(sellerApiKeys)).length;
    const noName = await seller.post("/api/seller-api/keys", { name: "  ", scopes: ["orders:read"] });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().details).toEqual([{ path: "name", message: "Name is required" }]);
    const noScope = await seller.post("/api/seller-api/keys", { name: "Empty", scopes: [] });
    expect(noScope.statusCode).toBe(400);
    expect(noScope.json().details).toEqual([{ path: "scopes", message: "Choose at least one scope" }]);
    const unknown = await seller.post("/api/seller-api/keys", { name: "Admin", scopes: ["admin:all"] });
    expect(unknown.statusCode).toBe(400);
    expect((await t.db.select().from(sellerApiKeys)).length).toBe(before);
  });

  test("only sellers manage keys: a buyer gets 403, a stranger 401", async () => {
    expect((await buyer.get("/api/seller-api/keys")).statusCode).toBe(403);
    expect(
      (await buyer.post("/api/seller-api/keys", { name: "x", scopes: ["orders:read"] })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/seller-api/keys" })).statusCode).toBe(401);
  });

  test(`at most ${MAX_SELLER_API_KEYS} live keys, also when several are made at once; a revoked key frees its place`, async () => {
    await revokeAll(other);
    for (let i = 0; i < MAX_SELLER_API_KEYS - 2; i++) await makeKey(other, `Key ${i}`, ["orders:read"]);
    const burst = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        other.post("/api/seller-api/keys", { name: `Burst ${i}`, scopes: ["orders:read"] }),
      ),
    );
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(burst.find((r) => r.statusCode === 409)?.json().code).toBe("API_KEY_LIMIT");
    const { items } = (await other.get("/api/seller-api/keys")).json() as SellerApiKeyList;
    expect(items.filter((k) => !k.revokedAt)).toHaveLength(MAX_SELLER_API_KEYS);
    const first = items[0]!;
    await other.request("DELETE", `/api/seller-api/keys/${first.id}`);
    await makeKey(other, "After a revoke", ["orders:read"]);
    await revokeAll(other);
  });
});

describe("calling the seller API", () => {
  test("a key reads what its scopes allow, the same as its seller sees signed in; outside them 403 API_KEY_SCOPE", async () => {
    const { secret, key } = await makeKey(seller, "Orders only", ["orders:read"]);
    const me = await callWith(secret, "/api/seller/v1/key");
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toEqual({
      key: { name: "Orders only", prefix: key.prefix, scopes: ["orders:read"] },
      seller: { id: sellerId, storefront: expect.any(String) },
    });
    const orders = await callWith(secret, "/api/seller/v1/orders?page=1");
    expect(orders.statusCode, orders.body).toBe(200);
    const signedIn = await seller.get("/api/seller/orders?page=1");
    expect(orders.json()).toEqual(signedIn.json());
    expect(orders.json().items.length).toBeGreaterThan(0);

    const subscriptions = await callWith(secret, "/api/seller/v1/subscriptions");
    expect(subscriptions.statusCode).toBe(403);
    expect(subscriptions.json().code).toBe("API_KEY_SCOPE");
    expect(subscriptions.json().message).toContain("subscriptions:read");
    const both = await makeKey(seller, "Everything", ["orders:read", "subscriptions:read"]);
    const report = await callWith(both.secret, "/api/seller/v1/subscriptions");
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toEqual((await seller.get("/api/seller/subscriptions")).json());
    // Marked used, for the list.
    const listed = ((await seller.get("/api/seller-api/keys")).json() as SellerApiKeyList).items.find(
      (k) => k.id === key.id,
    );
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  test("no key, a malformed one, an unknown one, a wrong secret or a session cookie alone: 401 API_KEY_INVALID", async () => {
    const { secret, key } = await makeKey(seller, "Probe", ["orders:read"]);
    const wrongSecret = `${key.prefix}_${"A".repeat(43)}`;
    const unknownPrefix = `sbk_zzzzzzzzzz_${secret.slice(-43)}`;
    for (const attempt of [null, "", "sbk_short", secret.toUpperCase(), wrongSecret, unknownPrefix]) {
      const res = await callWith(attempt, "/api/seller/v1/orders");
      expect(res.statusCode, String(attempt)).toBe(401);
      expect(res.json().code).toBe("API_KEY_INVALID");
    }
    const basic = await callWith(null, "/api/seller/v1/orders", { authorization: `Basic ${secret}` });
    expect(basic.statusCode).toBe(401);
    // The signed-in seller's own cookie is not a key.
    const cookie = await seller.get("/api/seller/v1/orders");
    expect(cookie.statusCode).toBe(401);
    expect(cookie.json().code).toBe("API_KEY_INVALID");
  });

  test("rolling: the old secret stops at once, the new one works under the same prefix; revoking stops it; a revoked key cannot be rolled", async () => {
    const { secret, key } = await makeKey(seller, "Rolled", ["orders:read"]);
    const rolled = await seller.post(`/api/seller-api/keys/${key.id}/roll`);
    expect(rolled.statusCode, rolled.body).toBe(200);
    const fresh = rolled.json() as SellerApiKeyIssued;
    expect(fresh.key.prefix).toBe(key.prefix);
    expect(fresh.key.rolledAt).not.toBeNull();
    expect(fresh.secret).not.toBe(secret);
    expect((await callWith(secret, "/api/seller/v1/orders")).statusCode).toBe(401);
    expect((await callWith(fresh.secret, "/api/seller/v1/orders")).statusCode).toBe(200);

    const revoked = await seller.request("DELETE", `/api/seller-api/keys/${key.id}`);
    expect(revoked.statusCode).toBe(200);
    expect((revoked.json() as SellerApiKeyList).items.find((k) => k.id === key.id)?.revokedAt).not.toBeNull();
    expect((await callWith(fresh.secret, "/api/seller/v1/orders")).statusCode).toBe(401);
    // Again: nothing changes.
    expect((await seller.request("DELETE", `/api/seller-api/keys/${key.id}`)).statusCode).toBe(200);
    const again = await seller.post(`/api/seller-api/keys/${key.id}/roll`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("API_KEY_REVOKED");
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, key.id));
    expect(audits.map((a) => a.action).sort()).toEqual(["create", "delete", "update"]);
  });

  test("another seller's key is absent: 404 to roll or revoke, missing from their list, and it keeps working", async () => {
    const { secret, key } = await makeKey(seller, "Mine", ["orders:read"]);
    const roll = await other.post(`/api/seller-api/keys/${key.id}/roll`);
    expect(roll.statusCode).toBe(404);
    expect(roll.json().code).toBe("API_KEY_NOT_FOUND");
    const revoke = await other.request("DELETE", `/api/seller-api/keys/${key.id}`);
    expect(revoke.statusCode).toBe(404);
    expect(
      ((await other.get("/api/seller-api/keys")).json() as SellerApiKeyList).items.map((k) => k.id),
    ).not.toContain(key.id);
    expect((await callWith(secret, "/api/seller/v1/orders")).statusCode).toBe(200);
    // Another seller's key reads that seller's orders only: none here.
    const theirs = await makeKey(other, "Theirs", ["orders:read"]);
    const orders = await callWith(theirs.secret, "/api/seller/v1/orders");
    expect(orders.json()).toMatchObject({ items: [], total: 0 });
  });

  test("a key stops working when its owner is no longer a seller, or is disabled", async () => {
    const account = await createVerifiedAccount(t.app, t.dataDir, {
      email: "fading@example.com",
      accountType: "seller",
    });
    const fading = await signedInClient(t.app, account.email, account.password);
    const { secret } = await makeKey(fading, "Fading", ["orders:read"]);
    expect((await callWith(secret, "/api/seller/v1/orders")).statusCode).toBe(200);
    await t.db.update(user).set({ isSeller: false }).where(eq(user.email, account.email));
    expect((await callWith(secret, "/api/seller/v1/orders")).statusCode).toBe(401);
    await t.db.update(user).set({ isSeller: true, banned: true }).where(eq(user.email, account.email));
    expect((await callWith(secret, "/api/seller/v1/orders")).statusCode).toBe(401);
  });

  test(`each key may make ${SELLER_API_CALLS_PER_MINUTE} calls a minute; the next gets 429 with Retry-After, and the seller's other key is not slowed`, async () => {
    const busy = await makeKey(other, "Busy", ["orders:read"]);
    const calm = await makeKey(other, "Calm", ["orders:read"]);
    for (let i = 0; i < SELLER_API_CALLS_PER_MINUTE; i++)
      expect((await callWith(busy.secret, "/api/seller/v1/key")).statusCode).toBe(200);
    const limited = await callWith(busy.secret, "/api/seller/v1/key");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await callWith(calm.secret, "/api/seller/v1/key")).statusCode).toBe(200);
    await revokeAll(other);
  });
});

test("the demo seller's published key works, and its access log has calls to show", async () => {
  const res = await callWith(DEMO_SELLER_API_KEY, "/api/seller/v1/key");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().key).toEqual({
    name: "Demo integration",
    prefix: "sbk_demoseller",
    scopes: [...sellerApiScopes],
  });
  const log = (await seller.get("/api/seller-api/calls")).json() as SellerApiCallPage;
  expect(log.items.filter((call) => call.keyPrefix === "sbk_demoseller").length).toBeGreaterThanOrEqual(5);
});

describe("the access log", () => {
  test("lists each call made with a known key, newest first (operation and status, never contents); calls with no known key are not the seller's", async () => {
    const { secret, key } = await makeKey(seller, "Logged", ["orders:read"]);
    await callWith(secret, "/api/seller/v1/orders?page=1");
    await callWith(secret, "/api/seller/v1/subscriptions");
    await callWith(`${key.prefix}_${"B".repeat(43)}`, "/api/seller/v1/orders");
    const page = (await seller.get("/api/seller-api/calls")).json() as SellerApiCallPage;
    const mine = page.items.filter((call) => call.keyPrefix === key.prefix);
    expect(
      mine.map(({ operation, status, keyName }) => ({ operation, status, keyName })),
      JSON.stringify(page.items),
    ).toEqual([
      { operation: "GET /seller/v1/subscriptions", status: 403, keyName: "Logged" },
      { operation: "GET /seller/v1/orders", status: 200, keyName: "Logged" },
    ]);
    expect(page).toMatchObject({ page: 1, pageSize: 25 });
    // What the log keeps: no query, body, answer or address.
    const columns = await queryRows<{ column_name: string }>(
      t.db,
      sql`select column_name from information_schema.columns where table_name = 'seller_api_calls' order by ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      "id",
      "key_id",
      "seller_id",
      "at",
      "operation",
      "status",
    ]);
    // Another seller's log shows none of it.
    const theirs = (await other.get("/api/seller-api/calls")).json() as SellerApiCallPage;
    expect(theirs.items.some((call) => call.keyPrefix === key.prefix)).toBe(false);
  });

  test(`calls older than ${SELLER_API_LOG_DAYS} days are forgotten by the daily job`, async () => {
    const clock = t.app.clock as AdjustableClock;
    const [row] = await t.db
      .select()
      .from(sellerApiKeys)
      .where(eq(sellerApiKeys.sellerId, sellerId))
      .limit(1);
    const now = clock.now();
    await t.db.insert(sellerApiCalls).values([
      {
        keyId: row!.id,
        sellerId,
        operation: "GET /seller/v1/key",
        status: 200,
        at: new Date(now.getTime() - (SELLER_API_LOG_DAYS + 1) * DAY_MS),
      },
      {
        keyId: row!.id,
        sellerId,
        operation: "GET /seller/v1/key",
        status: 201,
        at: new Date(now.getTime() - (SELLER_API_LOG_DAYS - 1) * DAY_MS),
      },
    ]);
    await sellerApiLogPruneJob(sellerApiDepsOf(t.app)).run({}, { id: "test", retryCount: 0 });
    const left = await t.db.select().from(sellerApiCalls).where(eq(sellerApiCalls.sellerId, sellerId));
    expect(left.every((call) => call.at.getTime() >= now.getTime() - SELLER_API_LOG_DAYS * DAY_MS)).toBe(
      true,
    );
    expect(left.some((call) => call.status === 201)).toBe(true);
  });
});

test("the OpenAPI document lists the seller API in its own section, with the key scheme and its errors", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain("seller-api");
  expect(doc.components.securitySchemes.sellerApiKey).toMatchObject({ type: "http", scheme: "bearer" });
  const orders = doc.paths["/api/seller/v1/orders"].get;
  expect(orders.tags).toEqual(["seller-api"]);
  expect(orders.security).toEqual([{ sellerApiKey: [] }]);
  expect(orders.responses["401"].description ?? JSON.stringify(orders.responses["401"])).toContain(
    "API_KEY_INVALID",
  );
  expect(JSON.stringify(orders.responses["403"])).toContain("API_KEY_SCOPE");
  expect(JSON.stringify(orders.responses["429"])).toContain("RATE_LIMITED");
  expect(doc.paths["/api/seller/v1/key"].get.responses["403"]).toBeUndefined();
});
