import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PlaceOrderInput } from "#domain/checkout";
import { toUnits } from "#domain/money";
import { EU_REVERSE_CHARGE_NOTE, OUT_OF_SCOPE_NOTE, UK_REVERSE_CHARGE_NOTE } from "#domain/tax";
import { auditLog } from "#server/db/schema/audit";
import { products } from "#server/db/schema/catalog";
import { orderItems } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { orderBody } from "#server/test/orders";
import { getOrder } from "#server/test/payments";
import { startVatStandIn, type VatStandIn } from "#server/test/vat-registers-stand-in";

type Client = ReturnType<typeof createClient>;
let t: Awaited<ReturnType<typeof createTestApp>>;
let superAdmin: Client;
let admin: Client;
let buyer: Client;
const ids: Record<string, string> = {};
const prices: Record<string, number> = {};
let registers: VatStandIn;

beforeAll(async () => {
  // The two VAT numbers below are registered with the registers' stand-in (vat-check.test.ts covers
  // the numbers they do not confirm).
  registers = await startVatStandIn({ registered: ["DE136695976", "GB980780684"] });
  t = await createTestApp({
    seed: true,
    env: {
      VIES_API_BASE: registers.viesUrl,
      HMRC_API_BASE: registers.hmrcUrl,
      HMRC_CLIENT_ID: registers.hmrc.clientId,
      HMRC_CLIENT_SECRET: registers.hmrc.clientSecret,
    },
  });
  [superAdmin, admin, buyer] = await Promise.all([
    signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD),
    signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD),
    signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD),
  ]);
  const made = await t.db
    .insert(products)
    .values([
      { name: "Seat License", category: "software", price: "19.99", vendor: "Acme" },
      { name: "Sensor Call", category: "apis", price: "0.003", vendor: "Acme" },
      { name: "Dev Board", category: "hardware", price: "40", vendor: "Acme" },
    ])
    .returning({ id: products.id, name: products.name, price: products.price });
  for (const row of made) {
    ids[row.name] = row.id;
    prices[row.name] = Number(row.price);
  }
});
afterAll(async () => {
  await t?.close();
  await registers?.close();
});

const line = (name: string, quantity = 1) => ({
  productId: ids[name] ?? "",
  quantity,
  price: prices[name] ?? 0,
});
/** An Indian buyer's order of three lines; the tax on it is this file's subject. */
const order = (extra: Partial<PlaceOrderInput>): PlaceOrderInput =>
  orderBody({
    country: "IN",
    items: [line("Seat License", 3), line("Sensor Call", 7), line("Dev Board")],
    ...extra,
  });

async function place(body: PlaceOrderInput) {
  const res = await buyer.post("/api/orders", body);
  expect(res.statusCode, res.body).toBe(201);
  return getOrder(buyer, res.json().orderId);
}

async function itemsOf(orderId: string) {
  return t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
}

const rateOf = async (client: Client, jurisdiction: string) =>
  (await client.get("/api/tax/rates"))
    .json()
    .items.find((r: { jurisdiction: string }) => r.jurisdiction === jurisdiction);

describe("GET /api/tax/rates", () => {
  test("anyone reads the rates in force and the operator's TRN", async () => {
    const res = await createClient(t.app).get("/api/tax/rates");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items).toHaveLength(30);
    expect(body.items).toContainEqual({ jurisdiction: "AE", label: "UAE VAT", rate: "0.0500" });
    expect(body.items).toContainEqual({ jurisdiction: "IN", label: "India GST", rate: "0.1800" });
    expect(body.items).toContainEqual({ jurisdiction: "FI", label: "Finland VAT", rate: "0.2550" });
    expect(body.items).toContainEqual({ jurisdiction: "GB", label: "UK VAT", rate: "0.2000" });
    expect(body.operatorTrn).toBe("100000000000000 (demo)");
  });
});

describe("checkout taxes by the buyer's country", () => {
  test("an Indian business pays 18% GST; its GSTIN is normalised; each line holds its share", async () => {
    const placed = await place(
      order({ business: true, company: "Acme Software Pvt Ltd", taxId: "27aapfu 0939 f1zv" }),
    );
    // 59.97 + 0.02 (7 × 0.003 = 0.021, to the cent) + 40 = 99.99; 18% is 17.9982, to the cent 18.00.
    expect(placed).toMatchObject({
      subtotal: 99.99,
      tax: 18,
      totalAmount: 117.99,
      buyerCountry: "IN",
      buyerCompany: "Acme Software Pvt Ltd",
      buyerTaxId: "27AAPFU0939F1ZV",
      taxJurisdiction: "IN",
      taxLabel: "India GST",
      taxRate: "0.1800",
      reverseCharge: false,
      taxNote: null,
      customerInfo: { country: "IN" },
    });
    const items = await itemsOf(placed.id);
    expect(items.every((item) => item.taxRate === "0.1800")).toBe(true);
    expect(items.reduce((sum, item) => sum + toUnits(item.tax), 0)).toBe(toUnits("18.00"));
  });

  test("an EU business with a VAT number VIES confirms: reverse charge, no tax", async () => {
    const placed = await place(
      order({ country: "DE", business: true, company: "Acme GmbH", taxId: "136 695 976" }),
    );
    expect(placed).toMatchObject({
      subtotal: 99.99,
      tax: 0,
      totalAmount: 99.99,
      buyerTaxId: "DE136695976",
      taxJurisdiction: "DE",
      taxLabel: "Reverse charge",
      taxRate: "0.0000",
      reverseCharge: true,
      taxNote: EU_REVERSE_CHARGE_NOTE,
    });
  });

  test("a UK business HMRC confirms: reverse charge with HMRC's wording; a UK consumer pays 20%", async () => {
    const business = await place(
      order({ country: "GB", business: true, company: "Acme Ltd", taxId: "GB 980 7806 84" }),
    );
    expect(business).toMatchObject({ tax: 0, reverseCharge: true, taxNote: UK_REVERSE_CHARGE_NOTE });
    const consumer = await place(order({ country: "GB", items: [line("Dev Board")] }));
    expect(consumer).toMatchObject({ tax: 8, totalAmount: 48, taxLabel: "UK VAT", taxRate: "0.2000" });
  });

  test("elsewhere no tax is charged, and the order says why", async () => {
    const placed = await place(order({ country: "US", items: [line("Dev Board")] }));
    expect(placed).toMatchObject({
      tax: 0,
      totalAmount: 40,
      taxJurisdiction: null,
      taxLabel: "No tax",
      taxRate: "0.0000",
      taxNote: OUT_OF_SCOPE_NOTE,
    });
  });

  test("a country sent by name still reads as its code (UAE: 5% VAT, as before)", async () => {
    const placed = await place(order({ country: "United Arab Emirates", items: [line("Dev Board")] }));
    expect(placed).toMatchObject({ tax: 2, buyerCountry: "AE", taxLabel: "UAE VAT", taxRate: "0.0500" });
  });

  test("a business's tax ID is checked on the server with the checkout's messages", async () => {
    const cases: [Partial<PlaceOrderInput>, string][] = [
      [
        { country: "IN", taxId: "27AAPFU0939F1ZW" },
        "This GSTIN's last character does not match the rest: check it for a typo",
      ],
      [
        { country: "IN", taxId: "27AAPFU0939F1Z" },
        "Enter a valid GSTIN: 15 characters, e.g. 27AAPFU0939F1ZV",
      ],
      [
        { country: "AE", taxId: "200123456700003" },
        "Enter a valid TRN: 15 digits starting with 100, e.g. 100123456700003",
      ],
      [
        { country: "DE", taxId: "FR40303265045" },
        "This VAT number is from France, not Germany: choose that country or enter the Germany number",
      ],
      [
        { country: "DE", taxId: "DE136695977" },
        "This VAT number's check digits do not match: check it for a typo",
      ],
    ];
    for (const [extra, message] of cases) {
      const res = await buyer.post("/api/orders", order({ business: true, company: "Acme", ...extra }));
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([expect.objectContaining({ path: "taxId", message })]);
    }
    const noCompany = await buyer.post("/api/orders", order({ business: true, taxId: "27AAPFU0939F1ZV" }));
    expect(noCompany.json().details).toEqual([
      expect.objectContaining({ path: "company", message: "Enter your company name" }),
    ]);
    const noCountry = await buyer.post("/api/orders", order({ country: "Atlantis" }));
    expect(noCountry.json().details).toEqual([
      expect.objectContaining({ path: "country", message: "Please select a country" }),
    ]);
  });

  test("a tax sent by the browser is ignored", async () => {
    const res = await buyer.post("/api/orders", {
      ...order({ country: "IN", items: [line("Dev Board")] }),
      taxRate: "0",
      reverseCharge: true,
      tax: 0,
    });
    expect(res.statusCode).toBe(201);
    expect(await getOrder(buyer, res.json().orderId)).toMatchObject({
      tax: 7.2,
      taxRate: "0.1800",
      reverseCharge: false,
    });
  });
});

describe("admin-set rates", () => {
  const put = (client: Client, jurisdiction: string, ratePercent: string) =>
    client.request("PUT", `/api/admin/tax-rates/${jurisdiction}`, { ratePercent });

  test("only a super admin may list or change a rate: anonymous 401, buyer and admin 403", async () => {
    const anonymous = createClient(t.app);
    expect((await put(anonymous, "IN", "12")).statusCode).toBe(401);
    expect((await put(buyer, "IN", "12")).statusCode).toBe(403);
    expect((await put(admin, "IN", "12")).statusCode).toBe(403);
    expect((await admin.request("DELETE", "/api/admin/tax-rates/IN")).statusCode).toBe(403);
    expect((await admin.get("/api/admin/tax-rates")).statusCode).toBe(403);
    expect((await buyer.get("/api/admin/tax-rates")).statusCode).toBe(403);
    expect((await rateOf(anonymous, "IN")).rate).toBe("0.1800");
  });

  test("the rate is 0 to 50% with at most 2 decimals, for a known jurisdiction", async () => {
    for (const bad of ["50.01", "-1", "12.345", "abc", ""]) {
      const res = await put(superAdmin, "IN", bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].message).toBe("Enter a rate from 0 to 50%, with at most 2 decimals");
    }
    const unknown = await put(superAdmin, "US", "5");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].message).toBe("Unknown tax jurisdiction");
  });

  test("a super admin's change is audited and the checkout charges it; back to the default likewise", async () => {
    const res = await put(superAdmin, "IN", "12.5");
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toContainEqual({
      jurisdiction: "IN",
      label: "India GST",
      rate: "0.1250",
      defaultRate: "0.1800",
      updatedAt: expect.any(String),
      updatedBy: "superadmin@stackbay.test",
    });
    expect(await rateOf(buyer, "IN")).toEqual({ jurisdiction: "IN", label: "India GST", rate: "0.1250" });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "tax_rate"), eq(auditLog.entityId, "IN")));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorEmail: "superadmin@stackbay.test",
      action: "update",
      entityLabel: "India GST",
      changes: {
        rate: { before: "0.1800", after: "0.1250" },
        isDefault: { before: true, after: false },
      },
    });

    const placed = await place(order({ items: [line("Dev Board")] }));
    expect(placed).toMatchObject({ tax: 5, totalAmount: 45, taxRate: "0.1250", taxLabel: "India GST" });

    const back = await superAdmin.request("DELETE", "/api/admin/tax-rates/IN");
    expect(back.statusCode).toBe(200);
    expect((await rateOf(buyer, "IN")).rate).toBe("0.1800");
    const after = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "tax_rate"), eq(auditLog.entityId, "IN")));
    expect(after).toHaveLength(2);
    expect((await place(order({ items: [line("Dev Board")] }))).tax).toBe(7.2);
    // The order placed at 12.5% keeps it.
    expect((await getOrder(buyer, placed.id)).taxRate).toBe("0.1250");
  });
});
