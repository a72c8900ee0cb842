import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { licenses } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { session, user } from "#server/db/schema/auth";
import { products, storefronts } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { payOrder } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
let productId = "";
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const [made] = await t.db
    .insert(products)
    .values({ name: "Privacy Seat", category: "software", price: "19.99", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
});
afterAll(() => t.close());

type Client = ReturnType<typeof createClient>;
let n = 0;
async function newBuyer(accountType: "buyer" | "seller" = "buyer") {
  const email = `privacy.${++n}.${Date.now()}@example.com`;
  const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, accountType });
  return { email, password, client: await signedInClient(t.app, email, password) };
}

async function placeOrder(client: Client, email: string) {
  const res = await client.post("/api/orders", {
    fullName: "Priya Private",
    email,
    address: "7 Quiet Lane",
    city: "Dubai",
    country: "United Arab Emirates",
    paymentMethod: "stripe",
    items: [{ productId, quantity: 1, price: 19.99 }],
    currency: "USD",
    idempotencyKey: randomUUID(),
  });
  expect(res.statusCode).toBe(201);
  return res.json().orderId as string;
}

const orderRow = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0];

describe("download my data", () => {
  test("a file with the person's own data only, keys masked and no secrets", async () => {
    const { email, client } = await newBuyer();
    const paid = await placeOrder(client, email);
    await payOrder(t.app, client, paid);
    expect((await client.patch("/api/me/preferences", { theme: "system" })).statusCode).toBe(200);
    const other = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const othersOrder = await placeOrder(other, "buyer@stackbay.test");

    const res = await client.get("/api/me/export");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="stackbay-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const data = res.json();
    expect(data.profile).toMatchObject({ email, preferences: { theme: "system" } });
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({ id: paid, customerInfo: { fullName: "Priya Private" } });
    expect(data.orders[0].items).toEqual([
      expect.objectContaining({ productName: "Privacy Seat", quantity: 1 }),
    ]);

    const [license] = await t.db.select().from(licenses).where(eq(licenses.orderId, paid));
    expect(data.licenses).toHaveLength(1);
    expect(data.licenses[0].key).toBe(`••••${license?.key.slice(-4)}`);
    const body = res.body;
    expect(body).not.toContain(license?.key);
    expect(body).not.toContain(othersOrder);
    expect(body).not.toContain("buyer@stackbay.test");
    expect(body).not.toMatch(/\$argon2|password|secret|token|idempotency/i);
    const [sessionRow] = await t.db.select().from(session).limit(1);
    expect(body).not.toContain(sessionRow?.token);
  });
});

describe("delete my account", () => {
  test("refused with an open order, then allowed once it is settled; the person is erased and signed out", async () => {
    const { email, password, client } = await newBuyer();
    const invoiced = await placeOrder(client, email);
    await payOrder(t.app, client, invoiced);
    const open = await placeOrder(client, email);
    const me = (await client.get("/api/me")).json().user;

    const wrong = await client.request("DELETE", "/api/me", { password: "not my password" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("INVALID_PASSWORD");

    const refused = await client.request("DELETE", "/api/me", { password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "ACCOUNT_DELETION_BLOCKED",
      message: `Your order #${open.slice(0, 8).toUpperCase()} is still awaiting payment. Your account can be deleted once it is paid, cancelled or expired.`,
      details: { reason: "order_in_progress" },
    });
    expect((await client.get("/api/me")).json().user.email).toBe(email);

    // The buyer cancels on the payment page: the order is settled as failed.
    expect((await payOrder(t.app, client, open, "cancel")).paymentStatus).toBe("failed");
    const otherBefore = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const othersMe = (await otherBefore.get("/api/me")).json().user;

    const deleted = await client.request("DELETE", "/api/me", { password });
    expect(deleted.statusCode).toBe(204);
    const cleared = deleted.cookies.find((c) => c.name === "stackbay.session_token");
    expect(cleared?.value).toBe("");
    expect((await client.get("/api/me")).json()).toEqual({ user: null });
    expect(await t.db.select().from(session).where(eq(session.userId, me.id))).toEqual([]);

    const [row] = await t.db.select().from(user).where(eq(user.id, me.id));
    expect(row).toMatchObject({
      firstName: "Former customer",
      lastName: "",
      phone: null,
      banned: true,
      isBuyer: false,
    });
    expect(row?.email).toMatch(/^deleted-[0-9a-f-]{36}@deleted\.stackbay\.invalid$/);
    // The issued invoice stays as issued; the order that never got one loses the person's details.
    expect((await orderRow(invoiced))?.customerInfo).toMatchObject({ fullName: "Priya Private", email });
    expect((await orderRow(open))?.customerInfo).toEqual({
      fullName: "Former customer",
      email: row?.email,
      address: "",
      city: "",
      country: "",
    });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, me.id));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(email);

    const login = await createClient(t.app).post("/api/auth/sign-in", { email, password });
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe("INVALID_CREDENTIALS");
    // The address is free again: a new, separate account.
    await createVerifiedAccount(t.app, t.dataDir, { email, password: "a brand new password" });
    const again = await signedInClient(t.app, email, "a brand new password");
    const newMe = (await again.get("/api/me")).json().user;
    expect(newMe.id).not.toBe(me.id);
    expect(newMe.firstName).toBe("Test");

    const otherAfter = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect((await otherAfter.get("/api/me")).json().user).toEqual(othersMe);
  });

  test("a seller's listings come off sale and the storefront goes", async () => {
    const { password, client } = await newBuyer("seller");
    const me = (await client.get("/api/me")).json().user;
    const [listing] = await t.db
      .insert(products)
      .values({ name: "Leaving Soon", category: "software", price: "5", vendor: "Me", sellerId: me.id })
      .returning({ id: products.id });
    expect(await t.db.select().from(storefronts).where(eq(storefronts.userId, me.id))).toHaveLength(1);

    expect((await client.request("DELETE", "/api/me", { password })).statusCode).toBe(204);
    const [after] = await t.db
      .select()
      .from(products)
      .where(eq(products.id, listing?.id ?? ""));
    expect(after?.isActive).toBe(false);
    expect(await t.db.select().from(storefronts).where(eq(storefronts.userId, me.id))).toEqual([]);
  });
});
