import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type AdminOverview, OVERVIEW_CHART_DAYS } from "#domain/admin-overview";
import type { FinanceSummary } from "#domain/finance";
import { toUnits } from "#domain/money";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { contactMessages, partnerApplications } from "#server/db/schema/inbound";
import { orderItems } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeAndPay, placeOrder } from "#server/test/orders";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let superAdmin: Client;
let admin: Client;
let buyer: Client;
let seller: Client;
let product: { id: string; price: string; name: string };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const [row] = await t.db
    .select({ id: products.id, price: products.price, name: products.name })
    .from(products)
    .where(and(eq(products.category, "software"), eq(products.isActive, true)))
    .limit(1);
  if (!row) throw new Error("the seed has no software product");
  product = row;
});
afterAll(() => t.close());

const overview = async (client: Client = admin) => {
  const res = await client.get("/api/admin/overview");
  expect(res.statusCode).toBe(200);
  return res.json() as AdminOverview;
};
const u = (usd: number) => Math.round(usd * 10_000);

async function sold(quantity: number, bought = product): Promise<string> {
  return (
    await placeAndPay(t.app, buyer, { items: [{ productId: bought.id, quantity, price: bought.price }] })
  ).id;
}

describe("admin overview", () => {
  test("admins and super admins only: strangers 401, buyers and sellers 403", async () => {
    expect((await createClient(t.app).get("/api/admin/overview")).statusCode).toBe(401);
    expect((await buyer.get("/api/admin/overview")).statusCode).toBe(403);
    expect((await seller.get("/api/admin/overview")).statusCode).toBe(403);
    await overview(admin);
    await overview(superAdmin);
  });

  test("a paid order counts today and this month, in the chart and the top products", async () => {
    const before = await overview();
    // The month's best seller (the demo has paid orders) stays on the list after two more are sold.
    const leaderId = before.topProducts[0]?.productId ?? product.id;
    const [leader] = await t.db
      .select({ id: products.id, price: products.price, name: products.name })
      .from(products)
      .where(eq(products.id, leaderId));
    if (!leader) throw new Error("the best seller is gone");
    const orderId = await sold(2, leader);
    // An order placed and not paid counts nowhere.
    await placeOrder(buyer, { items: [{ productId: product.id, price: product.price }] });
    const after = await overview();

    const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    if (!item) throw new Error("order not stored");
    const line = toUnits(item.price) * item.quantity;
    expect(after.figures.today.orders - before.figures.today.orders).toBe(1);
    expect(after.figures.month.orders - before.figures.month.orders).toBe(1);
    expect(u(after.figures.today.grossSales) - u(before.figures.today.grossSales)).toBe(line);
    expect(u(after.figures.month.grossSales) - u(before.figures.month.grossSales)).toBe(line);

    expect(after.daily).toHaveLength(OVERVIEW_CHART_DAYS);
    const todayBefore = before.daily.at(-1);
    const todayAfter = after.daily.at(-1);
    expect(todayAfter?.date).toBe(after.today.from);
    expect((todayAfter?.orders ?? 0) - (todayBefore?.orders ?? 0)).toBe(1);
    expect(u(todayAfter?.grossSales ?? 0) - u(todayBefore?.grossSales ?? 0)).toBe(line);
    expect(after.daily.map((d) => d.date)).toEqual([...after.daily.map((d) => d.date)].sort());

    const top = (o: AdminOverview) => o.topProducts.find((p) => p.productId === leader.id);
    expect(top(after)?.name).toBe(leader.name);
    expect((top(after)?.unitsSold ?? 0) - (top(before)?.unitsSold ?? 0)).toBe(2);
    expect(u(top(after)?.grossSales ?? 0) - u(top(before)?.grossSales ?? 0)).toBe(line);
    const sales = after.topProducts.map((p) => p.grossSales);
    expect(sales).toEqual([...sales].sort((a, b) => b - a));
  });

  test("gross sales agree with the Finance screen for today and for this month", async () => {
    await sold(1);
    const now = await overview(superAdmin);
    for (const [period, figures] of [
      [now.today, now.figures.today],
      [now.month, now.figures.month],
    ] as const) {
      const res = await superAdmin.get(`/api/admin/finance?from=${period.from}&to=${period.to}`);
      expect(res.statusCode).toBe(200);
      expect(figures.grossSales).toBe((res.json() as FinanceSummary).grossSales);
      expect(figures.grossSales).toBeGreaterThan(0);
    }
  });

  test("new users, pending listings, open applications and messages count as they arrive", async () => {
    const before = await overview();
    await t.db
      .insert(user)
      .values({ id: randomUUID(), name: "Nia New", email: `nia-${randomUUID()}@example.test` });
    await t.db.update(products).set({ moderationStatus: "pending" }).where(eq(products.id, product.id));
    await t.db.insert(partnerApplications).values({
      companyName: "Acme",
      contactPerson: "Ada",
      email: "ada@example.test",
      productType: "saas",
      country: "DE",
      website: "https://acme.example",
      companySize: "1-10",
      message: "We would like to sell here.",
    });
    await t.db.insert(contactMessages).values({
      name: "Carl",
      email: "carl@example.test",
      subject: "Hello",
      message: "A question about invoices.",
    });
    const after = await overview();
    expect(after.figures.today.newUsers - before.figures.today.newUsers).toBe(1);
    expect(after.figures.month.newUsers - before.figures.month.newUsers).toBe(1);
    expect(after.pendingModeration - before.pendingModeration).toBe(1);
    expect(after.inbox.openApplications - before.inbox.openApplications).toBe(1);
    expect(after.inbox.messagesThisMonth - before.inbox.messagesThisMonth).toBe(1);
    expect(after.refunds).toEqual(before.refunds);
  });
});
