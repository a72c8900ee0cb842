import { and, eq, inArray, sql } from "drizzle-orm";
import { buyerOf, MAX_QUANTITY } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import { toUnits } from "#domain/money";
import { summariseRatings, utcDay } from "#domain/reviews";
import { decideTax } from "#domain/tax";
import { createOrGrantAccount, type NewAccount } from "#server/auth/users";
import type { Database } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { licenseValidationDays, reviews } from "#server/db/schema/reviews";
import type { DemoProduct } from "#server/db/seed/catalog-data";
import { insertPaidDemoOrder } from "#server/db/seed/demo-orders";
import { releaseDue } from "#server/modules/ledger/bookings";
import { loadEffectiveTaxRates } from "#server/modules/tax/service";

/** Demo buyers who bought and reviewed the rated demo products (password: the demo password). */
export const demoReviewers = [
  { email: "priya@stackbay.test", firstName: "Priya", lastName: "Nair" },
  { email: "tom@stackbay.test", firstName: "Tom", lastName: "Becker" },
  { email: "lena@stackbay.test", firstName: "Lena", lastName: "Fischer" },
  { email: "kofi@stackbay.test", firstName: "Kofi", lastName: "Mensah" },
  { email: "aiko@stackbay.test", firstName: "Aiko", lastName: "Tanaka" },
  { email: "diego@stackbay.test", firstName: "Diego", lastName: "Ramos" },
];

const IDEMPOTENCY_KEY = "demo-reviews";

const words: Record<number, { title: string; body: (name: string) => string }[]> = {
  5: [
    {
      title: "Exactly what we needed",
      body: (n) => `${n} fitted into our stack on day one and the team uses it daily.`,
    },
    {
      title: "Excellent value",
      body: (n) => `We compared three options and ${n} was the clear winner on features and support.`,
    },
  ],
  4: [
    {
      title: "Very good, a few rough edges",
      body: (n) => `${n} does the job well; the documentation could go deeper in places.`,
    },
    {
      title: "Solid choice",
      body: (n) => `Reliable so far. ${n} saved us real time, though setup took longer than expected.`,
    },
  ],
  3: [{ title: "Does the basics", body: (n) => `${n} works, but we miss a few features we had elsewhere.` }],
  2: [
    {
      title: "Not quite there",
      body: (n) => `${n} needed more work from us than promised before it was useful.`,
    },
  ],
  1: [
    {
      title: "Did not work for us",
      body: (n) => `We could not get ${n} to fit our workflow and stopped using it.`,
    },
  ],
};

/**
 * Whole stars for `n` reviews whose mean is as close to the catalogue's figure as whole stars allow,
 * highest first.
 */
export function starsFor(rating: string, n: number): number[] {
  const total = Math.min(5 * n, Math.max(n, Math.round(Number(rating) * n)));
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => (i < total - base * n ? base + 1 : base));
}

/**
 * How many of a product a demo buyer takes. A price below a dollar is a price per API call, minute or
 * unit, and the checkout charges price × quantity to the cent: one call at $0.004 would be a line of
 * $0.00, so usage is bought as the cart's largest line (99 calls at $0.004 come to $0.40).
 */
export function demoQuantity(price: string): number {
  return toUnits(price) < toUnits(1) ? MAX_QUANTITY : 1;
}

/**
 * Real purchases and reviews behind the demo catalogue's ratings: each rated product that its buyers
 * can review (digital goods; hardware waits for delivery) is bought by three to six demo buyers in one
 * paid order each, who review it; the product's figures are then derived from those reviews. Idempotent
 * through each buyer's order key. Two reviews carry license validations on 7 days (the active-use badge).
 * Each order is booked through the ledger's sale rule like a paid checkout, so the seller's earnings, the
 * operator's books and the orders agree.
 */
export async function seedDemoReviews(
  db: Database,
  options: {
    now: Date;
    password: NewAccount["password"];
    catalogue: readonly (DemoProduct & { id: string })[];
  },
) {
  const { now } = options;
  const rated = options.catalogue.filter((p) => p.rating !== null && p.category !== "hardware");
  const reviewerIds: string[] = [];
  for (const reviewer of demoReviewers) {
    const { id } = await createOrGrantAccount(db, {
      ...reviewer,
      roles: ["buyer"],
      password: options.password,
    });
    reviewerIds.push(id);
  }
  const done = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.userId, reviewerIds), eq(orders.idempotencyKey, IDEMPOTENCY_KEY)));
  if (done.length > 0) return 0;

  // Bought three weeks ago: past the refund window, so the sellers' nets are available, as on a live site.
  const boughtAt = new Date(now.getTime() - 21 * DAY_MS);
  // Whoever owns each product when the seed runs is its seller, as a checkout would record.
  const sellerOf = new Map(
    (
      await db
        .select({ id: products.id, sellerId: products.sellerId })
        .from(products)
        .where(inArray(products.id, rated.length ? rated.map((p) => p.id) : [""]))
    ).map((p) => [p.id, p.sellerId]),
  );
  // Every demo buyer is a consumer in the United States, taxed as a checkout there would be.
  const buyer = buyerOf({ country: "US", business: false, company: "", taxId: "" });
  const tax = decideTax(buyer, await loadEffectiveTaxRates(db), null);
  let written = 0;
  await db.transaction(async (tx) => {
    for (const [r, userId] of reviewerIds.entries()) {
      const reviewer = demoReviewers[r];
      if (!reviewer) continue;
      const mine = rated.filter((_, i) => r < 3 + (i % 4));
      if (mine.length === 0) continue;
      const { items } = await insertPaidDemoOrder(tx, {
        userId,
        customer: {
          fullName: `${reviewer.firstName} ${reviewer.lastName}`,
          email: reviewer.email,
          address: "1 Demo Street",
          city: "Austin",
          country: "United States",
        },
        country: buyer.country,
        tax,
        lines: mine.map((p) => ({
          product: p,
          quantity: demoQuantity(p.price),
          sellerId: sellerOf.get(p.id) ?? null,
        })),
        idempotencyKey: IDEMPOTENCY_KEY,
        at: boughtAt,
      });
      const itemOf = new Map(items.map((i) => [i.productId, i.id]));
      const at = new Date(boughtAt.getTime() + DAY_MS + r * 60_000);
      // The buyer's reviews in one statement: on a first start every statement is a round through
      // the embedded database, and the seed runs before the server listens.
      const buyerReviews = mine.flatMap((p) => {
        const index = rated.indexOf(p);
        const n = 3 + (index % 4);
        const rating = starsFor(p.rating ?? "0", n)[r] ?? 5;
        const pool = words[rating] ?? [];
        const text = pool[(index + r) % pool.length];
        if (!text) return [];
        return [
          {
            productId: p.id,
            userId,
            orderItemId: itemOf.get(p.id) ?? null,
            rating,
            title: text.title,
            body: text.body(p.name),
            createdAt: at,
            updatedAt: at,
          },
        ];
      });
      if (buyerReviews.length > 0) await tx.insert(reviews).values(buyerReviews);
      written += buyerReviews.length;
    }
    // The first reviewer's licenses for the first two licensed products were checked on 7 days.
    const active = await tx
      .select({ id: licenses.id })
      .from(licenses)
      .where(eq(licenses.userId, reviewerIds[0] ?? ""))
      .orderBy(licenses.productName)
      .limit(2);
    for (const license of active)
      await tx
        .insert(licenseValidationDays)
        .values(
          Array.from({ length: 7 }, (_, d) => ({
            licenseId: license.id,
            day: utcDay(new Date(now.getTime() - d * DAY_MS)),
          })),
        )
        .onConflictDoNothing();
    // Every rated product's reviews, read at once.
    const starsOf = new Map<string, number[]>();
    if (rated.length > 0) {
      const rows = await tx
        .select({ productId: reviews.productId, rating: reviews.rating })
        .from(reviews)
        .where(
          inArray(
            reviews.productId,
            rated.map((p) => p.id),
          ),
        );
      for (const row of rows) starsOf.set(row.productId, [...(starsOf.get(row.productId) ?? []), row.rating]);
    }
    // Every rated product's figures in one statement: each statement is a round through the embedded
    // database on a first start, before the server listens.
    const figures = rated.map((p) => {
      const stars = starsOf.get(p.id) ?? [];
      const summary = summariseRatings(
        stars.length,
        stars.reduce((sum, rating) => sum + rating, 0),
      );
      return sql`(${p.id}::uuid, ${summary.rating}::numeric, ${summary.reviewsCount}::integer, ${summary.score}::numeric)`;
    });
    if (figures.length > 0)
      await tx.execute(
        sql`update ${products} set rating = figures.rating, reviews_count = figures.reviews_count,
          rating_score = figures.score
          from (values ${sql.join(figures, sql`, `)}) as figures (id, rating, reviews_count, score)
          where ${products.id} = figures.id`,
      );
  });
  await releaseDue(db, now);
  return written;
}
