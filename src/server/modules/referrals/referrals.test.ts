import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { ATTRIBUTION_DAYS } from "#domain/commissions";
import { DAY_MS } from "#domain/dates";
import { REFERRAL_CODE_PATTERN, type ResellerLinks } from "#domain/referrals";
import { commissions, referralClicks, refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { REFERRAL_COOKIE } from "#server/modules/referrals/cookie";
import { cancelCommissionForItem, settleCommissions } from "#server/modules/referrals/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let reseller: Client;
let resellerId: string;
let code: string;
const ids: Record<string, string> = {};
const prices: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "reseller@stackbay.test"));
  resellerId = row?.id ?? "";
  const made = await t.db
    .insert(products)
    .values([
      {
        name: "Referral Suite",
        category: "software",
        price: "19.99",
        vendor: "Acme",
        isResellable: true,
        commissionRate: "0.1250",
      },
      { name: "Referral Other", category: "software", price: "40", vendor: "Acme", isResellable: true },
      { name: "Referral Closed", category: "software", price: "25", vendor: "Acme", isResellable: false },
      {
        name: "Referral Retired",
        category: "software",
        price: "25",
        vendor: "Acme",
        isResellable: true,
        isActive: false,
      },
    ])
    .returning({ id: products.id, name: products.name, price: products.price });
  for (const product of made) {
    ids[product.name] = product.id;
    prices[product.name] = Number(product.price);
  }
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const id = (name: string) => ids[name] ?? "";

async function links(client: Client = reseller): Promise<ResellerLinks> {
  const res = await client.get("/api/reseller/links?pageSize=100");
  expect(res.statusCode).toBe(200);
  return res.json();
}
const row = (answer: ResellerLinks, name: string) => answer.items.find((item) => item.name === name);

const visit = (client: Client, productName: string, withCode = code) =>
  client.post("/api/referrals/visit", { code: withCode, productId: id(productName) });
const refCookie = <T extends { name: string }>(res: { cookies: T[] }) =>
  res.cookies.find((cookie) => cookie.name === REFERRAL_COOKIE);

/** A new verified buyer, signed in. */
async function newBuyer(): Promise<Client> {
  const person = await createVerifiedAccount(t.app, t.dataDir, {
    email: `buyer-${randomUUID()}@example.com`,
  });
  return signedInClient(t.app, person.email, person.password);
}

async function order(client: Client, items: { name: string; quantity: number }[]) {
  const lines = items.map((item) => ({
    productId: id(item.name),
    quantity: item.quantity,
    price: prices[item.name] ?? 0,
  }));
  return (await placeAndPay(t.app, client, { paymentMethod: "paypal", items: lines })).id;
}

const commissionsOf = (orderId: string) =>
  t.db
    .select({
      orderItemId: commissions.orderItemId,
      productId: commissions.productId,
      resellerId: commissions.resellerId,
      rate: commissions.rate,
      amount: commissions.amount,
      status: commissions.status,
      eligibleAt: commissions.eligibleAt,
    })
    .from(commissions)
    .where(eq(commissions.orderId, orderId));

async function itemOf(orderId: string, productName: string) {
  const [item] = await t.db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.productId, id(productName))));
  return item?.id ?? "";
}

/** Puts an attribution cookie in a client's jar, as the browser would send it back. */
const giveCookie = (client: Client, value: string) =>
  client.jar.set(REFERRAL_COOKIE, encodeURIComponent(value));

describe("reseller codes and links", () => {
  test("a reseller's code is random, stable and not their account id; links point at resellable products", async () => {
    const res = await reseller.get("/api/reseller/links?pageSize=100");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const first: ResellerLinks = res.json();
    code = first.code;
    expect(code).toMatch(REFERRAL_CODE_PATTERN);
    expect(resellerId).not.toBe("");
    expect(resellerId.toLowerCase()).not.toContain(code);
    expect(code).not.toContain(resellerId.toLowerCase().slice(0, 6));
    expect((await links()).code).toBe(code);

    expect(row(first, "Referral Suite")).toMatchObject({
      productId: id("Referral Suite"),
      price: 19.99,
      commissionRate: 0.125,
      linkable: true,
      link: `http://127.0.0.1:3000/products/${id("Referral Suite")}?ref=${code}`,
      clicks: 0,
      orders: 0,
      commission: { pending: 0, held: 0, approved: 0, cancelled: 0 },
    });
    expect(row(first, "Referral Other")?.commissionRate).toBe(0.1);
    expect(row(first, "Referral Closed")).toBeUndefined();
    expect(row(first, "Referral Retired")).toBeUndefined();
    expect(first.totals).toEqual({ clicks: 0, orders: 0, pending: 0, held: 0, approved: 0, cancelled: 0 });
  });

  test("links come a page at a time by name, searchable by name or category; the totals cover them all", async () => {
    const all: ResellerLinks = (await reseller.get("/api/reseller/links?pageSize=100")).json();
    expect(all.total).toBe(all.items.length);
    expect(all.total).toBeGreaterThan(20);
    const first: ResellerLinks = (await reseller.get("/api/reseller/links")).json();
    expect(first).toMatchObject({ page: 1, pageSize: 20, total: all.total, totals: all.totals });
    expect(first.items.map((i) => i.productId)).toEqual(all.items.slice(0, 20).map((i) => i.productId));
    const second: ResellerLinks = (await reseller.get("/api/reseller/links?page=2")).json();
    expect(second.items.map((i) => i.productId)).toEqual(all.items.slice(20, 40).map((i) => i.productId));

    const found: ResellerLinks = (await reseller.get("/api/reseller/links?search=REFERRAL%20s")).json();
    expect(found.items.map((i) => i.name)).toEqual(["Referral Suite"]);
    expect(found.total).toBe(1);
    const byCategory: ResellerLinks = (
      await reseller.get("/api/reseller/links?search=hardware&pageSize=100")
    ).json();
    expect(byCategory.total).toBeGreaterThan(0);
    expect(byCategory.items.every((i) => i.category === "hardware" || /hardware/i.test(i.name))).toBe(true);
    const none: ResellerLinks = (await reseller.get("/api/reseller/links?search=no%20such%20product")).json();
    expect(none).toMatchObject({ items: [], total: 0, totals: all.totals });
    // A search is text, never a pattern.
    expect(((await reseller.get("/api/reseller/links?search=%25")).json() as ResellerLinks).total).toBe(0);
    expect((await reseller.get("/api/reseller/links?pageSize=101")).statusCode).toBe(400);
  });

  test("only resellers may read links: buyer, seller and admin get 403, strangers 401", async () => {
    for (const who of ["buyer", "seller", "admin"]) {
      const client = await signedInClient(t.app, `${who}@stackbay.test`, DEMO_PASSWORD);
      const res = await client.get("/api/reseller/links?pageSize=100");
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ code: "FORBIDDEN" });
    }
    const res = await createClient(t.app).get("/api/reseller/links?pageSize=100");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("visits through a reseller link", () => {
  test("a visit counts once per visitor, product and day; the signed cookie is set each time", async () => {
    const visitor = createClient(t.app);
    const res = await visit(visitor, "Referral Suite");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ counted: true });
    expect(res.headers["cache-control"]).toBe("no-store");
    const cookie = refCookie(res);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
      maxAge: ATTRIBUTION_DAYS * 24 * 60 * 60,
    });
    expect(cookie?.secure).toBeFalsy();
    const unsigned = t.app.unsignCookie(decodeURIComponent(cookie?.value ?? ""));
    expect(unsigned.valid).toBe(true);
    expect(unsigned.value).toMatch(new RegExp(`^${resellerId}:\\d+$`));

    const again = await visit(visitor, "Referral Suite");
    expect(again.json()).toEqual({ counted: false });
    expect(refCookie(again)).toBeDefined();

    // Another visitor (another address) counts, and so does the same visitor on another product.
    expect((await visit(createClient(t.app), "Referral Suite")).json()).toEqual({ counted: true });
    expect((await visit(visitor, "Referral Other")).json()).toEqual({ counted: true });

    const answer = await links();
    expect(row(answer, "Referral Suite")?.clicks).toBe(2);
    expect(row(answer, "Referral Other")?.clicks).toBe(1);
    expect(answer.totals.clicks).toBe(3);
  });

  test("the visitor key is a keyed hash, not an address", async () => {
    const keys = await t.db.select({ key: referralClicks.visitorKey }).from(referralClicks);
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  test("bots, the reseller themself, unknown codes and products not on offer count nothing and set no cookie", async () => {
    for (const agent of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "facebookexternalhit/1.1",
      "Mozilla/5.0 (compatible; bingbot/2.0)",
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/referrals/visit",
        remoteAddress: "10.77.0.1",
        headers: { "user-agent": agent },
        payload: { code, productId: id("Referral Suite") },
      });
      expect(res.json(), agent).toEqual({ counted: false });
      expect(refCookie(res), agent).toBeUndefined();
    }

    const own = await visit(reseller, "Referral Suite");
    expect(own.json()).toEqual({ counted: false });
    expect(refCookie(own)).toBeUndefined();

    const stranger = createClient(t.app);
    for (const res of [
      await visit(stranger, "Referral Suite", "zzzzzzzzzz"),
      await visit(stranger, "Referral Closed"),
      await visit(stranger, "Referral Retired"),
      await stranger.post("/api/referrals/visit", { code, productId: randomUUID() }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ counted: false });
      expect(refCookie(res)).toBeUndefined();
    }
    expect(stranger.jar.has(REFERRAL_COOKIE)).toBe(false);

    const malformed = await stranger.post("/api/referrals/visit", { code: "../x", productId: "nope" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "VALIDATION_ERROR" });

    expect((await links()).totals.clicks).toBe(3);
  });

  test("a headless browser (our own journeys) is a visitor, not a bot", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/referrals/visit",
      remoteAddress: "10.77.0.2",
      headers: {
        "user-agent":
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36",
      },
      payload: { code, productId: id("Referral Other") },
    });
    expect(res.json()).toEqual({ counted: true });
    expect(refCookie(res)).toBeDefined();
  });

  test("a reseller who lost the flag earns no clicks", async () => {
    await t.db.update(user).set({ isReseller: false }).where(eq(user.id, resellerId));
    try {
      const res = await visit(createClient(t.app), "Referral Suite");
      expect(res.json()).toEqual({ counted: false });
      expect(refCookie(res)).toBeUndefined();
    } finally {
      await t.db.update(user).set({ isReseller: true }).where(eq(user.id, resellerId));
    }
  });
});

describe("attribution and commission", () => {
  let referredOrder: string;
  let olderOrder: string;

  test("an order after the visit earns commission on its resellable item only: rate × item subtotal", async () => {
    const buyer = await newBuyer();
    expect((await visit(buyer, "Referral Suite")).json()).toEqual({ counted: true });
    const before = Date.now();
    referredOrder = await order(buyer, [
      { name: "Referral Suite", quantity: 3 },
      { name: "Referral Closed", quantity: 1 },
    ]);
    const rows = await commissionsOf(referredOrder);
    expect(rows).toHaveLength(1);
    const [earned] = rows;
    expect(earned).toMatchObject({
      orderItemId: await itemOf(referredOrder, "Referral Suite"),
      productId: id("Referral Suite"),
      resellerId,
      rate: "0.1250",
      // 0.125 × (19.99 × 3 = 59.97) = 7.49625, rounded half up to the fourth decimal.
      amount: "7.4963",
      status: "pending",
    });
    const wait = (earned?.eligibleAt.getTime() ?? 0) - before;
    expect(wait).toBeGreaterThanOrEqual(14 * DAY_MS);
    expect(wait).toBeLessThan(14 * DAY_MS + 60_000);

    const answer = await links();
    expect(row(answer, "Referral Suite")).toMatchObject({
      orders: 1,
      commission: { pending: 7.4963, held: 0, approved: 0, cancelled: 0 },
    });
    expect(answer.totals).toMatchObject({ orders: 1, pending: 7.4963, approved: 0, cancelled: 0 });
  });

  test("the reseller's own purchase earns nothing, even with their own attribution cookie", async () => {
    const mine = createClient(t.app);
    for (const [name, value] of reseller.jar) mine.jar.set(name, value);
    giveCookie(mine, t.app.signCookie(`${resellerId}:${Date.now()}`));
    const orderId = await order(mine, [{ name: "Referral Suite", quantity: 1 }]);
    expect(await commissionsOf(orderId)).toEqual([]);
  });

  test("a tampered or forged cookie is ignored", async () => {
    const buyer = await newBuyer();
    giveCookie(buyer, `${resellerId}:${Date.now()}`);
    expect(await commissionsOf(await order(buyer, [{ name: "Referral Suite", quantity: 1 }]))).toEqual([]);

    const signed = t.app.signCookie(`${resellerId}:${Date.now() - DAY_MS}`);
    giveCookie(buyer, signed.replace(/:\d+\./, `:${Date.now()}.`));
    expect(await commissionsOf(await order(buyer, [{ name: "Referral Suite", quantity: 1 }]))).toEqual([]);

    giveCookie(buyer, `${resellerId}:${Date.now()}.forgedSignature`);
    expect(await commissionsOf(await order(buyer, [{ name: "Referral Suite", quantity: 1 }]))).toEqual([]);
  });

  test("the attribution window: a click 31 days before the order earns nothing, 29 days earns", async () => {
    const now = Date.now();
    for (const [daysAgo, earns] of [
      [ATTRIBUTION_DAYS + 1, false],
      [ATTRIBUTION_DAYS - 1, true],
    ] as const) {
      const visitor = createClient(t.app);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(now - daysAgo * DAY_MS);
      expect((await visit(visitor, "Referral Other")).json()).toEqual({ counted: true });
      vi.useRealTimers();

      // The visitor signs up later and buys from the same browser.
      const buyer = await newBuyer();
      const cookie = visitor.jar.get(REFERRAL_COOKIE);
      expect(cookie).toBeDefined();
      buyer.jar.set(REFERRAL_COOKIE, cookie ?? "");
      const orderId = await order(buyer, [{ name: "Referral Other", quantity: 2 }]);
      const rows = await commissionsOf(orderId);
      expect(
        rows.map((r) => r.amount),
        `${daysAgo} days`,
      ).toEqual(earns ? ["8.0000"] : []);
      if (earns) olderOrder = orderId;
    }
  });

  test("the last link followed wins", async () => {
    const [other] = await t.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "superadmin@stackbay.test"));
    await t.db
      .update(user)
      .set({ isReseller: true })
      .where(eq(user.id, other?.id ?? ""));
    try {
      const rival = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
      const rivalCode = (await links(rival)).code;
      expect(rivalCode).not.toBe(code);
      const buyer = await newBuyer();
      await visit(buyer, "Referral Other");
      await visit(buyer, "Referral Other", rivalCode);
      const rows = await commissionsOf(await order(buyer, [{ name: "Referral Other", quantity: 1 }]));
      expect(rows.map((r) => r.resellerId)).toEqual([other?.id]);
    } finally {
      await t.db
        .update(user)
        .set({ isReseller: false })
        .where(eq(user.id, other?.id ?? ""));
    }
  });

  test("after the refund window commissions are approved, except one whose item has an open refund", async () => {
    const held = await itemOf(olderOrder, "Referral Other");
    const [placed] = await t.db
      .select({ buyerId: orders.userId })
      .from(orders)
      .where(eq(orders.id, olderOrder));
    await t.db.insert(refundRequests).values({
      orderItemId: held,
      orderId: olderOrder,
      buyerId: placed?.buyerId ?? "",
      reason: "Not what I expected",
      sellerDueAt: new Date(Date.now() + 3 * DAY_MS),
    });

    expect(await settleCommissions(t.db, new Date(Date.now() + 13 * DAY_MS))).toBe(0);
    const approvedCount = await settleCommissions(t.db, new Date(Date.now() + 15 * DAY_MS));
    expect(approvedCount).toBeGreaterThanOrEqual(1);
    expect((await commissionsOf(referredOrder)).map((r) => r.status)).toEqual(["approved"]);
    expect((await commissionsOf(olderOrder)).map((r) => r.status)).toEqual(["pending"]);

    // A refund cancels a pending commission; an approved one stays approved.
    await t.db.transaction((tx) => cancelCommissionForItem(tx, held, new Date()));
    const referredItem = await itemOf(referredOrder, "Referral Suite");
    await t.db.transaction((tx) => cancelCommissionForItem(tx, referredItem, new Date()));
    expect((await commissionsOf(olderOrder)).map((r) => r.status)).toEqual(["cancelled"]);
    expect((await commissionsOf(referredOrder)).map((r) => r.status)).toEqual(["approved"]);

    const answer = await links();
    expect(row(answer, "Referral Suite")?.commission).toEqual({
      pending: 0,
      held: 0,
      approved: 7.4963,
      cancelled: 0,
    });
    expect(row(answer, "Referral Other")?.commission).toEqual({
      pending: 0,
      held: 0,
      approved: 0,
      cancelled: 8,
    });
    expect(answer.totals).toMatchObject({ orders: 2, pending: 0, approved: 7.4963, cancelled: 8 });
  });

  test("a product withdrawn from reselling keeps its earnings in the list, without a live link", async () => {
    await t.db
      .update(products)
      .set({ isResellable: false })
      .where(eq(products.id, id("Referral Suite")));
    const answer = await links();
    expect(row(answer, "Referral Suite")).toMatchObject({
      linkable: false,
      commission: { approved: 7.4963 },
    });
    const res = await visit(createClient(t.app), "Referral Suite");
    expect(res.json()).toEqual({ counted: false });
  });
});
