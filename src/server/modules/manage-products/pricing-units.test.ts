import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import type { EditableProduct, ManagedProductList } from "#domain/product-admin";
import { products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { type createClient, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Client;
let seller: Client;
let buyer: Client;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

const product = (overrides: Record<string, unknown> = {}) => ({
  name: "Tallyhook Seats",
  vendor: "Tallyhook",
  category: "saas",
  price: 9,
  pricingUnit: "user_month",
  ...overrides,
});

const publicProduct = async (id: string) => {
  const res = await t.app.inject({ method: "GET", url: `/api/products/${id}` });
  expect(res.statusCode).toBe(200);
  return res.json() as ProductDetail;
};

describe("pricing units", () => {
  test("a unit set in the form reaches the catalogue, the order and the invoice; the order keeps the unit it was bought in", async () => {
    const created = await admin.post("/api/manage/products", product());
    expect(created.statusCode, created.body).toBe(201);
    const { id } = (created.json() as { product: EditableProduct }).product;
    expect((created.json() as { product: EditableProduct }).product.pricingUnit).toBe("user_month");

    expect((await publicProduct(id)).pricingUnit).toBe("user_month");
    // The back office's product list says what the price buys too (issue 30, low).
    const managed = await admin.get("/api/manage/products?search=Tallyhook");
    expect(managed.statusCode, managed.body).toBe(200);
    const row = (managed.json() as ManagedProductList).items.find((item) => item.id === id);
    expect(row?.pricingUnit).toBe("user_month");
    const list = await t.app.inject({ method: "GET", url: "/api/products?search=Tallyhook" });
    const card = (list.json() as ProductList).items.find((item) => item.id === id);
    expect(card?.pricingUnit).toBe("user_month");

    const order = await placeAndPay(t.app, buyer, {
      paymentMethod: "paypal",
      items: [{ productId: id, quantity: 2, price: 9 }],
    });
    expect(order.items[0]?.pricingUnit).toBe("user_month");

    // The seller of record re-prices per year: the product says so, the order still reads as bought.
    const edited = await admin.patch(`/api/manage/products/${id}`, product({ pricingUnit: "year" }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await publicProduct(id)).pricingUnit).toBe("year");
    const again = await buyer.get(`/api/orders/${order.id}`);
    expect(
      (again.json() as { order: { items: { pricingUnit: string | null }[] } }).order.items[0]?.pricingUnit,
    ).toBe("user_month");

    const invoice = await buyer.get(`/api/orders/${order.id}/invoice.html`);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.body).toContain("$9.00 / user / month");
    expect(invoice.body).toContain("$18.00");
  });

  test("a product without a unit answers null, and clearing the unit in the form stores null", async () => {
    const res = await seller.post(
      "/api/manage/products",
      product({ name: "Unitless Probe", pricingUnit: "" }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { id, pricingUnit } = (res.json() as { product: EditableProduct }).product;
    expect(pricingUnit).toBeNull();
    const [row] = await t.db.select({ unit: products.pricingUnit }).from(products).where(eq(products.id, id));
    expect(row?.unit).toBeNull();
  });

  test("an unknown unit is refused with the form's message", async () => {
    const res = await admin.post("/api/manage/products", product({ pricingUnit: "fortnight" }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "pricingUnit", message: "Please choose a pricing unit from the list" }],
    });
  });

  test("the demo catalogue prices its products in sensible units", async () => {
    const rows = await t.db
      .select({ name: products.name, category: products.category, unit: products.pricingUnit })
      .from(products);
    const unitOf = (name: string) => rows.find((row) => row.name === name)?.unit;
    expect(unitOf("Nimbus CRM Pro")).toBe("user_month");
    expect(unitOf("Geocode API")).toBe("api_call");
    expect(unitOf("Speech Transcription API")).toBe("minute");
    expect(rows.filter((row) => row.category === "hardware").every((row) => row.unit === "one_time")).toBe(
      true,
    );
  });
});
