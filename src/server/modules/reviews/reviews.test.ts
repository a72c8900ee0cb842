import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import { type Review, type ReviewList, summariseRatings } from "#domain/reviews";
import { licenses } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems } from "#server/db/schema/orders";
import { licenseValidationDays, reviews } from "#server/db/schema/reviews";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { payOrder } from "#server/test/payments";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
const ids: Record<string, string> = {};
const prices: Record<string, number> = {};
let seller: Client;
let admin: Client;
let buyer: Client;
let otherBuyer: Client;
let unpaidBuyer: Client;
let stranger: Client;
const buyerEmail = "reviewer@example.com";

const review = {
  rating: 4,
  title: "Solid seat license",
  body: "Installed on the whole team in an afternoon.",
};

async function account(email: string, firstName: string): Promise<Client> {
  const made = await createVerifiedAccount(t.app, t.dataDir, { email, firstName });
  return signedInClient(t.app, made.email, made.password);
}

async function place(client: Client, email: string, names: string[], pay = true) {
  const items = names.map((name) => ({ productId: ids[name] ?? "", price: prices[name] ?? 0 }));
  const { orderId } = await placeOrder(client, { email, items });
  if (pay) await payOrder(t.app, client, orderId);
  return orderId;
}

const productFigures = async (name: string) => {
  const res = await createClient(t.app).get(`/api/products/${ids[name]}`);
  const { rating, reviewsCount } = res.json() as { rating: number | null; reviewsCount: number };
  return { rating, reviewsCount };
};
const list = async (client: Client, name: string) =>
  (await client.get(`/api/products/${ids[name]}/reviews`)).json() as ReviewList;
const clock = () => t.app.clock as AdjustableClock;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const [demoSeller] = await t.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, "seller@stackbay.test"));
  const made = await t.db
    .insert(products)
    .values([
      { name: "Review Seat", category: "software", price: "19.99", vendor: "Acme", sellerId: demoSeller?.id },
      { name: "Other Seat", category: "software", price: "9.99", vendor: "Acme", sellerId: demoSeller?.id },
      { name: "Review Board", category: "hardware", price: "40", vendor: "Acme", sellerId: demoSeller?.id },
    ])
    .returning({ id: products.id, name: products.name, price: products.price });
  for (const row of made) {
    ids[row.name] = row.id;
    prices[row.name] = Number(row.price);
  }
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  buyer = await account(buyerEmail, "Rita");
  otherBuyer = await account("other-buyer@example.com", "Omar");
  unpaidBuyer = await account("unpaid-buyer@example.com", "Uma");
  stranger = await account("stranger@example.com", "Stan");
  await place(buyer, buyerEmail, ["Review Seat", "Review Board"]);
  await place(otherBuyer, "other-buyer@example.com", ["Other Seat"]);
  await place(unpaidBuyer, "unpaid-buyer@example.com", ["Review Seat"], false);
});
afterAll(() => t.close());

describe("who may review", () => {
  test("a stranger, a buyer of another product, an unpaid order and the seller are refused", async () => {
    const url = `/api/products/${ids["Review Seat"]}/reviews`;
    expect((await createClient(t.app).post(url, review)).statusCode).toBe(401);
    for (const client of [stranger, otherBuyer, unpaidBuyer]) {
      const res = await client.post(url, review);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("NOT_ELIGIBLE");
    }
    const own = await seller.post(url, review);
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe("OWN_PRODUCT");
    expect((await list(stranger, "Review Seat")).viewer.canReview).toBe(false);
    expect(
      await t.db
        .select()
        .from(reviews)
        .where(eq(reviews.productId, ids["Review Seat"] ?? "")),
    ).toEqual([]);
  });

  test("hardware counts only once received: not while awaiting shipment or on its way, once delivered", async () => {
    const url = `/api/products/${ids["Review Board"]}/reviews`;
    const [item] = await t.db
      .select({ id: orderItems.id, orderId: orderItems.orderId })
      .from(orderItems)
      .where(eq(orderItems.productId, ids["Review Board"] ?? ""));
    if (!item) throw new Error("no hardware item");
    expect((await buyer.post(url, review)).json().code).toBe("NOT_ELIGIBLE");
    const shipped = await seller.post(`/api/shipments/${item.id}/ship`, {
      carrier: "DHL",
      trackingNumber: "JD014600006281234567",
    });
    expect(shipped.statusCode).toBe(200);
    expect((await buyer.post(url, review)).json().code).toBe("NOT_ELIGIBLE");
    const confirmed = await buyer.post(`/api/orders/${item.orderId}/items/${item.id}/confirm-delivery`);
    expect(confirmed.statusCode).toBe(200);
    expect((await buyer.post(url, review)).statusCode).toBe(201);
  });

  test("a refunded item does not count", async () => {
    const refunded = await account("refunded-buyer@example.com", "Rafa");
    const orderId = await place(refunded, "refunded-buyer@example.com", ["Other Seat"]);
    await t.db.update(orderItems).set({ refundStatus: "refunded" }).where(eq(orderItems.orderId, orderId));
    const res = await refunded.post(`/api/products/${ids["Other Seat"]}/reviews`, review);
    expect(res.json().code).toBe("NOT_ELIGIBLE");
  });

  test("stars, title and text are validated", async () => {
    const res = await buyer.post(`/api/products/${ids["Review Seat"]}/reviews`, { ...review, rating: 6 });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
  });
});

describe("a verified buyer's review", () => {
  let written: Review;

  test("is published with its badge and moves the product's rating; a second one is refused", async () => {
    expect((await list(buyer, "Review Seat")).viewer.canReview).toBe(true);
    const res = await buyer.post(`/api/products/${ids["Review Seat"]}/reviews`, review);
    expect(res.statusCode).toBe(201);
    written = res.json();
    expect(written).toMatchObject({
      rating: 4,
      authorFirstName: "Rita",
      verifiedPurchase: true,
      isMine: true,
    });
    expect(written.verifiedActiveUse).toBe(false);
    expect(await productFigures("Review Seat")).toEqual({ rating: 4, reviewsCount: 1 });
    const again = await buyer.post(`/api/products/${ids["Review Seat"]}/reviews`, { ...review, rating: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("ALREADY_REVIEWED");
    const publicList = await list(createClient(t.app), "Review Seat");
    expect(publicList.items.map((r) => r.title)).toEqual([review.title]);
    expect(publicList.items[0]?.isMine).toBe(false);
  });

  test("its author edits it, and the rating follows", async () => {
    const res = await buyer.patch(`/api/reviews/${written.id}`, { ...review, rating: 2 });
    expect(res.statusCode).toBe(200);
    expect(await productFigures("Review Seat")).toEqual({ rating: 2, reviewsCount: 1 });
    const notTheirs = await otherBuyer.patch(`/api/reviews/${written.id}`, review);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().code).toBe("REVIEW_NOT_FOUND");
  });

  test("the product's seller replies once; nobody else can", async () => {
    const url = `/api/reviews/${written.id}/reply`;
    expect((await otherBuyer.post(url, { text: "Not my product" })).statusCode).toBe(403);
    const res = await seller.post(url, { text: "Thanks, Rita!" });
    expect(res.statusCode).toBe(200);
    expect(res.json().sellerReply.text).toBe("Thanks, Rita!");
    const twice = await seller.post(url, { text: "Thanks again" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe("ALREADY_REPLIED");
  });

  test("anyone signed in reports it once", async () => {
    const url = `/api/reviews/${written.id}/report`;
    expect((await createClient(t.app).post(url)).statusCode).toBe(401);
    expect((await stranger.post(url)).statusCode).toBe(204);
    const twice = await stranger.post(url);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe("ALREADY_REPORTED");
    expect((await list(stranger, "Review Seat")).items[0]?.reportedByMe).toBe(true);
    expect((await list(admin, "Review Seat")).items[0]?.reportsCount).toBe(1);
    expect((await list(stranger, "Review Seat")).items[0]?.reportsCount).toBeNull();
  });

  test("only admins hide and restore it; hidden it leaves the rating, restored it counts again", async () => {
    const hide = `/api/admin/reviews/${written.id}/hide`;
    for (const client of [buyer, seller, stranger]) {
      expect((await client.post(hide, { reason: "Off topic" })).statusCode).toBe(403);
    }
    const hidden = await admin.post(hide, { reason: "Mentions a competitor's coupon" });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ status: "hidden", hiddenReason: "Mentions a competitor's coupon" });
    expect(await productFigures("Review Seat")).toEqual({ rating: null, reviewsCount: 0 });
    expect((await list(createClient(t.app), "Review Seat")).items).toEqual([]);
    const own = (await list(buyer, "Review Seat")).viewer.ownReview;
    expect(own).toMatchObject({ status: "hidden", hiddenReason: "Mentions a competitor's coupon" });
    expect((await admin.post(hide, { reason: "again" })).json().code).toBe("REVIEW_UNCHANGED");

    const restored = await admin.post(`/api/admin/reviews/${written.id}/restore`, {
      reason: "Coupon removed",
    });
    expect(restored.statusCode).toBe(200);
    expect(await productFigures("Review Seat")).toEqual({ rating: 2, reviewsCount: 1 });

    const trail = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "review"), eq(auditLog.entityId, written.id)));
    expect(trail.map((e) => e.action).sort()).toEqual(["restore", "update"]);
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === buyerEmail);
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        "Your review of Review Seat has been hidden",
        "Your review of Review Seat is visible again",
      ]),
    );
    expect(mails.find((m) => m.subject.endsWith("hidden"))?.body).toContain("Mentions a competitor's coupon");
  });

  test("the Verified active use badge comes with license validations on 7 distinct days", async () => {
    const licenses = (await buyer.get("/api/licenses")).json().items as { key: string; productId: string }[];
    const key = licenses.find((l) => l.productId === ids["Review Seat"])?.key;
    expect(key).toBeDefined();
    const validate = () => createClient(t.app).post("/api/licenses/validate", { key });
    const badge = async () => (await list(createClient(t.app), "Review Seat")).items[0]?.verifiedActiveUse;
    for (let day = 1; day <= 6; day++) {
      expect((await validate()).json().valid).toBe(true);
      expect((await validate()).json().valid).toBe(true);
      clock().advance(DAY_MS);
    }
    expect(await badge()).toBe(false);
    await validate();
    expect(await badge()).toBe(true);
  });

  test("after 30 days it can no longer be edited", async () => {
    clock().advance(31 * DAY_MS);
    const res = await buyer.patch(`/api/reviews/${written.id}`, { ...review, rating: 5 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("EDIT_WINDOW_CLOSED");
    expect(await productFigures("Review Seat")).toEqual({ rating: 2, reviewsCount: 1 });
  });
});

describe("a refunded purchase", () => {
  const url = () => `/api/products/${ids["Refund Seat"]}/reviews`;
  const score = async () =>
    (
      await t.db
        .select({ score: products.ratingScore })
        .from(products)
        .where(eq(products.id, ids["Refund Seat"] ?? ""))
    )[0]?.score;

  test("withdraws the review from the rating and the sort, keeps it visible and marked, and ends editing", async () => {
    const [demoSeller] = await t.db.select().from(user).where(eq(user.email, "seller@stackbay.test"));
    const [made] = await t.db
      .insert(products)
      .values({
        name: "Refund Seat",
        category: "software",
        price: "15",
        vendor: "Acme",
        sellerId: demoSeller?.id,
      })
      .returning({ id: products.id });
    ids["Refund Seat"] = made?.id ?? "";
    prices["Refund Seat"] = 15;
    const refunder = await account("refunder@example.com", "Ravi");
    const orderId = await place(refunder, "refunder@example.com", ["Refund Seat"]);
    const written = await refunder.post(url(), { ...review, rating: 5 });
    expect(written.statusCode).toBe(201);
    const id = written.json().id as string;
    expect(await productFigures("Refund Seat")).toEqual({ rating: 5, reviewsCount: 1 });
    expect(await score()).toBe(summariseRatings(1, 5).score);

    // A week of license checks earned the active-use badge too; a refund ends that badge as well.
    const [license] = await t.db.select().from(licenses).where(eq(licenses.orderId, orderId));
    await t.db
      .insert(licenseValidationDays)
      .values(
        Array.from({ length: 7 }, (_, i) => ({ licenseId: license?.id ?? "", day: `2026-01-0${i + 1}` })),
      );
    expect((await list(createClient(t.app), "Refund Seat")).items[0]?.verifiedActiveUse).toBe(true);

    const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const asked = await refunder.post(`/api/orders/${orderId}/items/${item?.id}/refund`, {
      reason: "It does not do what the page says.",
    });
    expect(asked.statusCode).toBe(201);
    const approved = await seller.post(`/api/refunds/${asked.json().refund.id}/decision`, {
      decision: "approve",
    });
    expect(approved.statusCode).toBe(200);

    expect(await productFigures("Refund Seat")).toEqual({ rating: null, reviewsCount: 0 });
    expect(await score()).toBeNull();
    const shown = (await list(createClient(t.app), "Refund Seat")).items;
    expect(shown).toEqual([
      expect.objectContaining({
        id,
        status: "published",
        refunded: true,
        verifiedPurchase: false,
        verifiedActiveUse: false,
      }),
    ]);
    const own = (await list(refunder, "Refund Seat")).viewer.ownReview;
    expect(own).toMatchObject({ id, refunded: true, editableUntil: null });
    const edit = await refunder.patch(`/api/reviews/${id}`, { ...review, rating: 5, title: "Still great" });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().code).toBe("PURCHASE_REFUNDED");
    const [stored] = await t.db.select().from(reviews).where(eq(reviews.id, id));
    expect(stored?.title).toBe(review.title);
  });

  test("eligibility is checked on every edit, whatever refunded the purchase", async () => {
    const late = await account("late-refund@example.com", "Lea");
    const orderId = await place(late, "late-refund@example.com", ["Refund Seat"]);
    const written = await late.post(url(), review);
    expect(written.statusCode).toBe(201);
    await t.db.update(orderItems).set({ refundStatus: "refunded" }).where(eq(orderItems.orderId, orderId));
    const edit = await late.patch(`/api/reviews/${written.json().id}`, { ...review, rating: 5 });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().code).toBe("PURCHASE_REFUNDED");
  });

  test("a buyer who bought the product again keeps a counted review, citing the other purchase", async () => {
    const twice = await account("twice@example.com", "Tara");
    const first = await place(twice, "twice@example.com", ["Refund Seat"]);
    const second = await place(twice, "twice@example.com", ["Refund Seat"]);
    const written = await twice.post(url(), { ...review, rating: 2 });
    expect(written.statusCode).toBe(201);
    const id = written.json().id as string;
    const [cited] = await t.db.select().from(reviews).where(eq(reviews.id, id));
    const refundedOrder = cited?.orderItemId
      ? (await t.db.select().from(orderItems).where(eq(orderItems.id, cited.orderItemId)))[0]?.orderId
      : undefined;
    const [item] = await t.db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, refundedOrder ?? ""));
    const asked = await twice.post(`/api/orders/${refundedOrder}/items/${item?.id}/refund`, {
      reason: "Bought it twice by mistake.",
    });
    expect(asked.statusCode).toBe(201);
    expect(
      (await seller.post(`/api/refunds/${asked.json().refund.id}/decision`, { decision: "approve" }))
        .statusCode,
    ).toBe(200);
    const [after] = await t.db.select().from(reviews).where(eq(reviews.id, id));
    const other = refundedOrder === first ? second : first;
    const [otherItem] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, other));
    expect(after?.orderItemId).toBe(otherItem?.id);
    expect(await productFigures("Refund Seat")).toEqual({ rating: 2, reviewsCount: 1 });
    expect((await twice.patch(`/api/reviews/${id}`, { ...review, rating: 3 })).statusCode).toBe(200);
  });
});

describe("the seeded catalogue", () => {
  test("every product's rating and review count are what its counted reviews give", async () => {
    const published = await t.db
      .select({ productId: reviews.productId, rating: reviews.rating })
      .from(reviews)
      .leftJoin(orderItems, eq(orderItems.id, reviews.orderItemId))
      .where(
        and(eq(reviews.status, "published"), sql`${orderItems.refundStatus} is distinct from 'refunded'`),
      );
    const stars = new Map<string, number[]>();
    for (const r of published) stars.set(r.productId, [...(stars.get(r.productId) ?? []), r.rating]);
    const all = await t.db
      .select({
        id: products.id,
        rating: products.rating,
        count: products.reviewsCount,
        score: products.ratingScore,
      })
      .from(products);
    for (const p of all) {
      const mine = stars.get(p.id) ?? [];
      const expected = summariseRatings(
        mine.length,
        mine.reduce((a, b) => a + b, 0),
      );
      expect({ id: p.id, rating: p.rating, count: p.count, score: p.score }).toEqual({
        id: p.id,
        rating: expected.rating,
        count: expected.reviewsCount,
        score: expected.score,
      });
    }
    expect(all.filter((p) => p.rating !== null).length).toBeGreaterThan(20);
  });
});
