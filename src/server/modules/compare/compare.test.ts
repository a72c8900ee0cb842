import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CompareAnswer, RelatedAnswer } from "#domain/compare";
import { categories, productFeatures, productSpecifications, products } from "#server/db/schema/catalog";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
const ids = { alpha: "", beta: "", gamma: "", inactive: "", pending: "", rejected: "", other: "" };

async function addProduct(
  values: Partial<typeof products.$inferInsert> & { name: string },
  specifications: [string, string][] = [],
  features: string[] = [],
) {
  const [row] = await t.db
    .insert(products)
    .values({ vendor: "Compare Test Co", category: "hardware", price: "100.0000", ...values })
    .returning({ id: products.id });
  const id = row!.id;
  if (specifications.length > 0)
    await t.db.insert(productSpecifications).values(
      specifications.map(([specKey, specValue], position) => ({
        productId: id,
        specKey,
        specValue,
        position,
      })),
    );
  if (features.length > 0)
    await t.db
      .insert(productFeatures)
      .values(features.map((feature, position) => ({ productId: id, feature, position })));
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  // A category of their own, so the order inside it is known whatever the seeded catalogue holds.
  const category = "compare-routers";
  await t.db.insert(categories).values({ name: "Compare routers", slug: category });
  ids.alpha = await addProduct(
    { name: "Compare Alpha Router", category, price: "120.0000" },
    [
      ["Ports", "8"],
      ["Weight", "1.2 kg"],
      ["Warranty", "2 years"],
    ],
    ["Fanless", "Rack mount"],
  );
  ids.beta = await addProduct(
    { name: "Compare Beta Router", category, price: "130.0000" },
    [
      ["ports", "8"],
      ["Wi-Fi", "6E"],
      ["Weight", "0.9 kg"],
    ],
    ["Wi-Fi 6E"],
  );
  ids.gamma = await addProduct({ name: "Compare Gamma Router", category, price: "125.0000" }, [
    ["Warranty", "3 years"],
  ]);
  ids.inactive = await addProduct({
    name: "Compare Retired Router",
    category,
    price: "121.0000",
    isActive: false,
  });
  ids.pending = await addProduct({
    name: "Compare Pending Router",
    category,
    price: "122.0000",
    moderationStatus: "pending",
  });
  ids.rejected = await addProduct({
    name: "Compare Rejected Router",
    category,
    price: "123.0000",
    moderationStatus: "rejected",
  });
  ids.other = await addProduct({ name: "Compare Other Category", category: "saas", price: "120.0000" });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: "GET", url });

describe("GET /api/compare", () => {
  test("answers the products in the asked order with every specification key aligned", async () => {
    const res = await get(`/api/compare?ids=${ids.beta},${ids.alpha},${ids.gamma}`);
    expect(res.statusCode, res.body).toBe(200);
    const body: CompareAnswer = res.json();
    expect(body.products.map((p) => p.name)).toEqual([
      "Compare Beta Router",
      "Compare Alpha Router",
      "Compare Gamma Router",
    ]);
    expect(body.missing).toEqual([]);
    // The union of keys, first-seen order, "ports" and "Ports" one row, null where a product lacks a key.
    expect(body.specifications).toEqual([
      { key: "ports", values: ["8", "8", null] },
      { key: "Wi-Fi", values: ["6E", null, null] },
      { key: "Weight", values: ["0.9 kg", "1.2 kg", null] },
      { key: "Warranty", values: [null, "2 years", "3 years"] },
    ]);
    expect(body.products[1]).toMatchObject({
      price: 120,
      features: ["Fanless", "Rack mount"],
      category: "compare-routers",
      vendor: "Compare Test Co",
    });
    expect(res.headers["cache-control"]).toBe("public, no-cache");
  });

  test("leaves out products that are inactive, in review or rejected, and names them as missing", async () => {
    const asked = [ids.alpha, ids.inactive, ids.pending, ids.rejected];
    const body: CompareAnswer = (await get(`/api/compare?ids=${asked.join(",")}`)).json();
    expect(body.products.map((p) => p.id)).toEqual([ids.alpha]);
    expect(body.missing).toEqual([ids.inactive, ids.pending, ids.rejected]);
    expect(body.specifications.every((row) => row.values.length === 1)).toBe(true);
  });

  test("an unknown id is missing, not an error", async () => {
    const unknown = randomUUID();
    const body: CompareAnswer = (await get(`/api/compare?ids=${ids.alpha},${unknown},${ids.beta}`)).json();
    expect(body.products.map((p) => p.id)).toEqual([ids.alpha, ids.beta]);
    expect(body.missing).toEqual([unknown]);
  });

  test.each([
    ["no ids", "", "Choose the products to compare"],
    ["one id", `?ids=${randomUUID()}`, "Pick at least two products to compare"],
    ["one id twice", "?ids=SAME,SAME", "Pick at least two products to compare"],
    [
      "five ids",
      `?ids=${Array.from({ length: 5 }, () => randomUUID()).join(",")}`,
      "You can compare at most 4 products",
    ],
    ["a malformed id", `?ids=${randomUUID()},not-an-id`, "Each product id must be a valid id"],
    ["a very long list", `?ids=${"a".repeat(500)}`, "You can compare at most 4 products"],
  ])("refuses %s with a clear 400", async (_name, query, message) => {
    const res = await get(`/api/compare${query.replaceAll("SAME", ids.alpha)}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
    expect(res.body).toContain(message);
  });

  test("accepts the largest list: four products", async () => {
    const res = await get(`/api/compare?ids=${[ids.alpha, ids.beta, ids.gamma, ids.other].join(",")}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as CompareAnswer).products).toHaveLength(4);
  });
});

describe("GET /api/products/:id/related", () => {
  test("lists up to eight products on sale, same category first, nearest price first, never the product itself", async () => {
    const res = await get(`/api/products/${ids.alpha}/related`);
    expect(res.statusCode, res.body).toBe(200);
    const { items }: RelatedAnswer = res.json();
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(8);
    const returned = items.map((p) => p.id);
    expect(returned).not.toContain(ids.alpha);
    for (const hidden of [ids.inactive, ids.pending, ids.rejected]) expect(returned).not.toContain(hidden);
    // $120: gamma ($125) is nearer than beta ($130); the $120 product of another category comes later.
    expect(returned.indexOf(ids.gamma)).toBeLessThan(returned.indexOf(ids.beta));
    expect(returned.slice(0, 2)).toEqual([ids.gamma, ids.beta]);
    // Only three others share the category; the rest come from elsewhere, after them.
    expect(items.slice(0, 2).every((p) => p.category === "compare-routers")).toBe(true);
    expect(items.slice(2).every((p) => p.category !== "compare-routers")).toBe(true);
    expect(items).toHaveLength(8);
    expect(res.headers["cache-control"]).toBe("public, no-cache");
  });

  test("prefers the same seller within the category over a closer price", async () => {
    const [seller] = await t.db
      .select({ sellerId: products.sellerId })
      .from(products)
      .where(and(eq(products.isActive, true), eq(products.moderationStatus, "approved")))
      .limit(1);
    const sellerId = seller?.sellerId ?? null;
    if (!sellerId) throw new Error("no seeded product with a seller");
    await t.db
      .update(products)
      .set({ sellerId })
      .where(inArray(products.id, [ids.alpha, ids.beta]));
    const { items }: RelatedAnswer = (await get(`/api/products/${ids.alpha}/related`)).json();
    expect(items[0]?.id).toBe(ids.beta);
    await t.db
      .update(products)
      .set({ sellerId: null })
      .where(inArray(products.id, [ids.alpha, ids.beta]));
  });

  test("fills from other categories when the category has too few", async () => {
    await t.db.insert(categories).values({ name: "Compare lonely", slug: "compare-lonely" });
    const lonely = await addProduct({
      name: "Compare Lonely Service",
      category: "compare-lonely",
      price: "120.0000",
    });
    const { items }: RelatedAnswer = (await get(`/api/products/${lonely}/related`)).json();
    expect(items.map((p) => p.id)).not.toContain(lonely);
    expect(items).toHaveLength(8);
  });

  test("a product that is not on sale, unknown or malformed has no related products: 404", async () => {
    for (const id of [ids.inactive, ids.pending, randomUUID(), "nope"]) {
      const res = await get(`/api/products/${id}/related`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().code).toBe("PRODUCT_NOT_FOUND");
    }
  });
});
