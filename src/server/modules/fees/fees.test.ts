import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FeeRules, SellerFees } from "#domain/fees";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let superAdmin: Client;
let admin: Client;
let buyer: Client;
let seller: Client;
let sellerId: string;
let hardware: { id: string; price: string };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  sellerId = me?.id ?? "";
  const [row] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(
      and(eq(products.category, "hardware"), eq(products.isActive, true), eq(products.sellerId, sellerId)),
    )
    .limit(1);
  if (!row) throw new Error("the seed has no hardware product of the demo seller");
  hardware = row;
});
afterAll(() => t.close());

const put = (client: Client, body: object) => client.request("PUT", "/api/admin/fees", body);
const remove = (client: Client, path: string) => client.request("DELETE", `/api/admin/fees/${path}`);
const rules = async () => (await superAdmin.get("/api/admin/fees")).json() as FeeRules;

/** Buys the hardware product and answers the order item's fee rate and fee as booked. */
async function buyHardware() {
  const order = await placeAndPay(t.app, buyer, {
    items: [{ productId: hardware.id, price: hardware.price }],
  });
  expect(order.paymentStatus).toBe("mock_confirmed");
  const [item] = await t.db
    .select({ feeRate: orderItems.feeRate, fee: orderItems.fee })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id));
  return item;
}

/** The fee at `rate` on the hardware product's price, as the ledger rounds it (half up, 4 places). */
const feeAt = (rate: number) => (Math.round(Number(hardware.price) * rate * 10_000) / 10_000).toFixed(4);

describe("fee rules", () => {
  test("only super admins manage rules; only sellers read their fees", async () => {
    const anonymous = createClient(t.app);
    expect((await anonymous.get("/api/admin/fees")).statusCode).toBe(401);
    expect((await admin.get("/api/admin/fees")).statusCode).toBe(403);
    expect((await put(admin, { scope: "default", percent: 5 })).statusCode).toBe(403);
    expect((await remove(seller, "default")).statusCode).toBe(403);
    expect((await anonymous.get("/api/fees/mine")).statusCode).toBe(401);
    expect((await buyer.get("/api/fees/mine")).statusCode).toBe(403);
  });

  test("bad input is refused with the schema's message", async () => {
    const tooHigh = await put(superAdmin, { scope: "default", percent: 51 });
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.json().message).toContain("The fee can be at most 50%");
    expect((await put(superAdmin, { scope: "default", percent: 10.125 })).statusCode).toBe(400);
    expect((await put(superAdmin, { scope: "category", category: "", percent: 5 })).statusCode).toBe(400);
    expect((await put(superAdmin, { scope: "planet", percent: 5 })).statusCode).toBe(400);
    expect((await remove(superAdmin, "planet/x")).statusCode).toBe(400);
    const unknownCategory = await put(superAdmin, { scope: "category", category: "nope", percent: 5 });
    expect(unknownCategory.statusCode).toBe(404);
    // A buyer's address and an unknown one get the same answer: no account is revealed.
    for (const email of ["buyer@stackbay.test", "nobody@stackbay.test"]) {
      const res = await put(superAdmin, { scope: "seller", sellerEmail: email, percent: 5 });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: "SELLER_NOT_FOUND", message: "No seller with that e-mail." });
    }
    expect((await remove(superAdmin, "category/nope")).statusCode).toBe(404);
  });

  test("a category rule sets the fee of later sales, a seller's rule beats it, removal falls back", async () => {
    expect(await buyHardware()).toEqual({ feeRate: "0.1000", fee: feeAt(0.1) });

    const set = await put(superAdmin, { scope: "category", category: "hardware", percent: 12.5 });
    expect(set.statusCode).toBe(200);
    expect(set.json().rule).toMatchObject({
      scope: "category",
      subject: "hardware",
      label: "Hardware",
      rate: "0.1250",
    });
    expect(await buyHardware()).toEqual({ feeRate: "0.1250", fee: feeAt(0.125) });

    const mine = (await seller.get("/api/fees/mine")).json() as SellerFees;
    expect(mine.defaultRate).toBe("0.1000");
    expect(mine.sellerRate).toBeNull();
    expect(mine.categories.find((c) => c.slug === "hardware")?.rate).toBe("0.1250");
    expect(mine.categories.find((c) => c.slug === "software")?.rate).toBe("0.1000");

    const deal = await put(superAdmin, { scope: "seller", sellerEmail: "Seller@Stackbay.test", percent: 7 });
    expect(deal.statusCode).toBe(200);
    expect(deal.json().rule).toMatchObject({ scope: "seller", subject: sellerId, rate: "0.0700" });
    expect(deal.json().rule.label).toContain("seller@stackbay.test");
    // The list names the seller's e-mail apart from the label, for the edit form.
    const listedRules = (await superAdmin.get("/api/admin/fees")).json().rules as {
      scope: string;
      sellerEmail: string | null;
    }[];
    expect(listedRules.find((rule) => rule.scope === "seller")?.sellerEmail).toBe("seller@stackbay.test");
    expect(listedRules.find((rule) => rule.scope === "category")?.sellerEmail).toBeNull();
    expect(await buyHardware()).toEqual({ feeRate: "0.0700", fee: feeAt(0.07) });
    const withDeal = (await seller.get("/api/fees/mine")).json() as SellerFees;
    expect(withDeal.sellerRate).toBe("0.0700");
    expect(withDeal.categories.every((c) => c.rate === "0.0700")).toBe(true);

    const listed = await rules();
    expect(listed.builtInDefault).toBe("0.1000");
    expect(listed.rules.map((r) => [r.scope, r.subject, r.rate])).toEqual([
      ["category", "hardware", "0.1250"],
      ["seller", sellerId, "0.0700"],
    ]);

    expect((await remove(superAdmin, `seller/${sellerId}`)).statusCode).toBe(204);
    expect(await buyHardware()).toEqual({ feeRate: "0.1250", fee: feeAt(0.125) });
    expect((await remove(superAdmin, "category/hardware")).statusCode).toBe(204);
    expect((await rules()).rules).toEqual([]);
  });

  test("the default rule can be set and removed; every change is audited with the rate before and after", async () => {
    expect((await put(superAdmin, { scope: "default", percent: 15 })).statusCode).toBe(200);
    expect((await put(superAdmin, { scope: "default", percent: 20 })).statusCode).toBe(200);
    expect((await seller.get("/api/fees/mine")).json().defaultRate).toBe("0.2000");
    expect((await rules()).rules).toMatchObject([{ scope: "default", subject: "", rate: "0.2000" }]);
    expect(await buyHardware()).toEqual({ feeRate: "0.2000", fee: feeAt(0.2) });
    expect((await remove(superAdmin, "default")).statusCode).toBe(204);
    expect((await seller.get("/api/fees/mine")).json().defaultRate).toBe("0.1000");
    expect((await remove(superAdmin, "default")).statusCode).toBe(404);

    const trail = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "fee_rule"), eq(auditLog.entityId, "default")))
      .orderBy(auditLog.createdAt);
    expect(trail.map((e) => [e.action, e.actorEmail, e.changes])).toEqual([
      [
        "create",
        "superadmin@stackbay.test",
        expect.objectContaining({ rate: { before: null, after: "0.1500" } }),
      ],
      ["update", "superadmin@stackbay.test", { rate: { before: "0.1500", after: "0.2000" } }],
      [
        "delete",
        "superadmin@stackbay.test",
        expect.objectContaining({ rate: { before: "0.2000", after: null } }),
      ],
    ]);
    const sellerTrail = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "fee_rule"), eq(auditLog.entityId, `seller:${sellerId}`)));
    expect(sellerTrail.map((e) => e.action).sort()).toEqual(["create", "delete"]);
  });
});
