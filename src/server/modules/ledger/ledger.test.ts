import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import { commissions } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { journalEntries, journalLines } from "#server/db/schema/ledger";
import { orderItems } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { bookSale, releaseDue } from "#server/modules/ledger/bookings";
import { settleCommissions } from "#server/modules/referrals/service";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay, placeOrder } from "#server/test/orders";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let sellerId: string;
let resellerId: string;
let product: { id: string; price: number };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const [s] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  const [r] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "reseller@stackbay.test"));
  sellerId = s?.id ?? "";
  resellerId = r?.id ?? "";
  const [row] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(
      and(eq(products.sellerId, sellerId), eq(products.isActive, true), eq(products.category, "software")),
    )
    .limit(1);
  product = { id: row?.id ?? "", price: Number(row?.price) };
});
afterAll(() => t.close());

async function buy(): Promise<Order> {
  return placeAndPay(t.app, buyer, { items: [{ productId: product.id, quantity: 2, price: product.price }] });
}

/** Each account's sum of lines for the order's entries, in money units. */
async function linesOf(where: ReturnType<typeof eq>) {
  const rows = await t.db
    .select({
      account: journalLines.accountId,
      amount: sql<number>`sum(${journalLines.amount})`.mapWith(Number),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(where)
    .groupBy(journalLines.accountId);
  return Object.fromEntries(rows.map((r) => [r.account, r.amount]));
}

/** The database's own message for a refused statement (drizzle wraps it as the cause). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? String(error);
  }
  return "not refused";
}

const units = (usd: number) => Math.round(usd * 10_000);

describe("the ledger", () => {
  test("a paid order books one balanced sale: the charge, the tax, the 10% fee and the seller's net, pending until the window ends", async () => {
    const order = await buy();
    const entries = await t.db.select().from(journalEntries).where(eq(journalEntries.orderId, order.id));
    expect(entries.map((e) => e.kind)).toEqual(["sale"]);
    const line = units(product.price) * 2;
    const fee = Math.round(line / 10);
    const tax = units(order.tax);
    expect(await linesOf(eq(journalEntries.orderId, order.id))).toEqual({
      clearing: Math.round(units(order.totalAmount) / 100) * 100,
      "tax:AE": -tax,
      platform_fees: -fee,
      [`seller_pending:${sellerId}`]: -(line - fee),
      ...(Math.round(units(order.totalAmount) / 100) * 100 !== line + tax
        ? { rounding: line + tax - Math.round(units(order.totalAmount) / 100) * 100 }
        : {}),
    });
    const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(item?.feeRate).toBe("0.1000");
    expect(Number(item?.fee)).toBe(fee / 10_000);
    const window = (item?.settlesAt?.getTime() ?? 0) - Date.now();
    expect(window).toBeGreaterThan(14 * DAY_MS - 60_000);
    expect(window).toBeLessThanOrEqual(14 * DAY_MS);

    // Booking the same sale again (a replayed confirmation) changes nothing.
    await t.db.transaction((tx) => bookSale(tx, order.id, new Date(), 14));
    expect(await t.db.$count(journalEntries, eq(journalEntries.orderId, order.id))).toBe(1);

    // Nothing is released before the window ends; after it, the net is available, once.
    expect(await releaseDue(t.db, new Date(Date.now() + 13 * DAY_MS))).toBe(0);
    expect(await releaseDue(t.db, new Date(Date.now() + 15 * DAY_MS))).toBeGreaterThanOrEqual(1);
    expect(await releaseDue(t.db, new Date(Date.now() + 15 * DAY_MS))).toBe(0);
    expect(await linesOf(eq(journalEntries.sourceKey, `release:${item?.id}`))).toEqual({
      [`seller_pending:${sellerId}`]: line - fee,
      [`seller_available:${sellerId}`]: -(line - fee),
    });
  });

  test("a reseller's commission is booked with the sale, comes out of the seller's net, and is theirs once approved", async () => {
    // A bank-transfer order waits unpaid; the commission a referral would record goes in before its sale is booked.
    const { orderId: second } = await placeOrder(buyer, {
      paymentMethod: "bank-transfer",
      items: [{ productId: product.id, price: product.price }],
    });
    const [secondItem] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, second));
    await t.db.insert(commissions).values({
      orderItemId: secondItem?.id ?? "",
      orderId: second,
      resellerId,
      productId: product.id,
      rate: "0.1000",
      amount: "1.0000",
      status: "pending",
      eligibleAt: new Date(Date.now() - 1000),
    });
    await t.db.transaction((tx) => bookSale(tx, second, new Date(), 14));
    const booked = await linesOf(eq(journalEntries.sourceKey, `sale:${second}`));
    expect(booked[`reseller_pending:${resellerId}`]).toBe(-10_000);
    const line = units(product.price);
    expect(booked[`seller_pending:${sellerId}`]).toBe(-(line - Math.round(line / 10) - 10_000));

    expect(await settleCommissions(t.db, new Date())).toBe(1);
    expect(await linesOf(eq(journalEntries.kind, "commission_approved"))).toEqual({
      [`reseller_pending:${resellerId}`]: 10_000,
      [`reseller_available:${resellerId}`]: -10_000,
    });
  });

  test("the database refuses an entry that does not balance, and any change or deletion of booked lines", async () => {
    const [entry] = await t.db.select().from(journalEntries).limit(1);
    const [line] = await t.db.select().from(journalLines).limit(1);
    expect(
      await refusal(t.db.execute(sql`update journal_lines set amount = amount + 1 where id = ${line?.id}`)),
    ).toMatch(/immutable/);
    expect(await refusal(t.db.execute(sql`delete from journal_entries where id = ${entry?.id}`))).toMatch(
      /immutable/,
    );
    expect(
      await refusal(
        t.db.transaction(async (tx) => {
          const [e] = await tx
            .insert(journalEntries)
            .values({ kind: "sale", sourceKey: `forged:${randomUUID()}`, memo: "forged" })
            .returning();
          await tx.insert(journalLines).values({ entryId: e?.id ?? "", accountId: "clearing", amount: 100 });
        }),
      ),
    ).toMatch(/does not balance/);
    const unbalanced = await t.db
      .select({ entryId: journalLines.entryId })
      .from(journalLines)
      .groupBy(journalLines.entryId)
      .having(sql`sum(${journalLines.amount}) <> 0`);
    expect(unbalanced).toEqual([]);
  });
});
