import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { License } from "#domain/license-schemas";
import { generateLicenseKey, LICENSE_KEY_PATTERN } from "#domain/licenses";
import { createOrGrantAccount } from "#server/auth/users";
import { licenses } from "#server/db/schema/after-sale";
import { categories, products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { issueLicenses, revokeLicensesForItem } from "#server/modules/licenses/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { orderBody, placeAndPay } from "#server/test/orders";
import { payOrder } from "#server/test/payments";

// The real generator, wrapped so one test can force a key that is already taken.
vi.mock("#domain/licenses", async (original) => {
  const actual = await original<typeof import("#domain/licenses")>();
  return { ...actual, generateLicenseKey: vi.fn(actual.generateLicenseKey) };
});

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
const ids: Record<string, string> = {};
const prices: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const made = await t.db
    .insert(products)
    .values([
      { name: "Seat License", category: "software", price: "19.99", vendor: "Acme" },
      { name: "Cloud Seat", category: "saas", price: "12", vendor: "Acme" },
      { name: "Dev Board", category: "hardware", price: "40", vendor: "Acme" },
    ])
    .returning({ id: products.id, name: products.name, price: products.price });
  for (const row of made) {
    ids[row.name] = row.id;
    prices[row.name] = Number(row.price);
  }
});
afterAll(() => t.close());

const place = (client: ReturnType<typeof createClient>, items: { name: string; quantity: number }[]) =>
  placeAndPay(t.app, client, {
    items: items.map(({ name, quantity }) => ({
      productId: ids[name] ?? "",
      quantity,
      price: prices[name] ?? 0,
    })),
  });

const licensesOf = (orderId: string) => t.db.select().from(licenses).where(eq(licenses.orderId, orderId));
const validate = (client: ReturnType<typeof createClient>, key: unknown) =>
  client.post("/api/licenses/validate", { key });

describe("issuing licenses on a confirmed order", () => {
  test("one unique key per unit of software, a yearly renewal for SaaS, nothing for hardware", async () => {
    const placed = await place(buyer, [
      { name: "Seat License", quantity: 2 },
      { name: "Cloud Seat", quantity: 1 },
      { name: "Dev Board", quantity: 1 },
    ]);
    const rows = await licensesOf(placed.id);
    const software = rows.filter((r) => r.productName === "Seat License");
    const saas = rows.filter((r) => r.productName === "Cloud Seat");
    expect(rows).toHaveLength(3);
    expect(software).toHaveLength(2);
    expect(new Set(software.map((r) => r.key)).size).toBe(2);
    for (const row of rows) {
      expect(row.key).toMatch(LICENSE_KEY_PATTERN);
      expect(row).toMatchObject({ status: "active", revokedAt: null, orderId: placed.id });
    }
    expect(software.every((r) => r.renewsAt === null && r.productId === ids["Seat License"])).toBe(true);
    const [sub] = saas;
    const oneYearOn = new Date(sub?.issuedAt ?? 0);
    oneYearOn.setUTCFullYear(oneYearOn.getUTCFullYear() + 1);
    expect(sub?.renewsAt?.toISOString()).toBe(oneYearOn.toISOString());
    expect(rows.some((r) => r.productName === "Dev Board")).toBe(false);
  });

  test("issuing twice for the same order does not double-issue", async () => {
    const placed = await place(buyer, [{ name: "Seat License", quantity: 3 }]);
    await t.db.transaction((tx) => issueLicenses(tx, placed.id, new Date()));
    expect(await licensesOf(placed.id)).toHaveLength(3);
  });

  test("a key that is already taken is drawn again, not dropped", async () => {
    const [taken] = await t.db.select({ key: licenses.key }).from(licenses).limit(1);
    if (!taken) throw new Error("an earlier test issues keys");
    vi.mocked(generateLicenseKey).mockReturnValueOnce(taken.key);
    const placed = await place(buyer, [{ name: "Seat License", quantity: 2 }]);
    const rows = await licensesOf(placed.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.key)).not.toContain(taken.key);
  });

  test("a declined payment issues none; the retry that succeeds issues once", async () => {
    const payer = await createTestApp();
    try {
      await payer.db.insert(categories).values({ name: "Software Licenses", slug: "software" });
      const [product] = await payer.db
        .insert(products)
        .values({ name: "Editor Pro", category: "software", price: "30" })
        .returning({ id: products.id });
      await createOrGrantAccount(payer.db, {
        email: "payer@example.com",
        password: "payer-password",
        firstName: "Pat",
        lastName: "Payer",
        roles: ["buyer"],
      });
      const client = await signedInClient(payer.app, "payer@example.com", "payer-password");
      const body = orderBody({ items: [{ productId: product?.id ?? "", quantity: 2, price: 30 }] });
      const placed = await client.post("/api/orders", body);
      expect(placed.statusCode).toBe(201);
      const { orderId } = placed.json();
      expect(await payOrder(payer.app, client, orderId, "decline")).toMatchObject({
        paymentStatus: "failed",
      });
      expect(await payer.db.select().from(licenses)).toHaveLength(0);
      expect((await client.get("/api/licenses")).json().items).toEqual([]);

      expect(await payOrder(payer.app, client, orderId)).toMatchObject({ paymentStatus: "mock_confirmed" });
      expect(await payer.db.select().from(licenses)).toHaveLength(2);
      // The same checkout once more answers with the confirmed order; nothing new is issued.
      expect((await client.post("/api/orders", body)).statusCode).toBe(200);
      expect(await payOrder(payer.app, client, orderId)).toMatchObject({ paymentStatus: "mock_confirmed" });
      expect((await client.get("/api/licenses")).json().items).toHaveLength(2);
    } finally {
      await payer.close();
    }
  });
});

describe("GET /api/licenses", () => {
  test("lists only the caller's licenses, newest first, never cached", async () => {
    const stranger = await createVerifiedAccount(t.app, t.dataDir, {
      email: `licenses.${Date.now()}@example.com`,
    });
    const other = await signedInClient(t.app, stranger.email, stranger.password);
    const theirs = await place(other, [{ name: "Cloud Seat", quantity: 1 }]);
    const mine = await place(buyer, [{ name: "Seat License", quantity: 1 }]);

    const res = await buyer.get("/api/licenses");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const items = res.json().items as License[];
    expect(items.some((l) => l.orderId === theirs.id)).toBe(false);
    expect(items[0]).toMatchObject({ orderId: mine.id, productName: "Seat License", status: "active" });
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(
      [
        "id",
        "key",
        "productId",
        "productName",
        "orderId",
        "status",
        "issuedAt",
        "renewsAt",
        "revokedAt",
        "seats",
        "activations",
      ].sort(),
    );
    const issued = items.map((l) => l.issuedAt);
    expect(issued).toEqual([...issued].sort().reverse());

    const theirList = (await other.get("/api/licenses")).json().items as License[];
    expect(theirList).toHaveLength(1);
    expect(theirList[0]).toMatchObject({ orderId: theirs.id, productName: "Cloud Seat" });
    expect(theirList[0]?.renewsAt).not.toBeNull();

    expect((await createClient(t.app).get("/api/licenses")).statusCode).toBe(401);
  });
});

describe("revoking and validating", () => {
  let active: string;
  let revoked: string;

  beforeAll(async () => {
    const placed = await place(buyer, [
      { name: "Seat License", quantity: 2 },
      { name: "Cloud Seat", quantity: 1 },
    ]);
    const item = (name: string) => placed.items.find((i) => i.productName === name)?.id ?? "";
    const count = await t.db.transaction((tx) =>
      revokeLicensesForItem(tx, item("Seat License"), new Date("2026-04-01T00:00:00Z")),
    );
    expect(count).toBe(2);
    // Nothing left to revoke the second time.
    expect(await t.db.transaction((tx) => revokeLicensesForItem(tx, item("Seat License"), new Date()))).toBe(
      0,
    );
    const rows = await licensesOf(placed.id);
    const seats = rows.filter((r) => r.orderItemId === item("Seat License"));
    expect(seats.every((r) => r.status === "revoked")).toBe(true);
    expect(seats.every((r) => r.revokedAt?.toISOString() === "2026-04-01T00:00:00.000Z")).toBe(true);
    const saas = rows.find((r) => r.orderItemId === item("Cloud Seat"));
    expect(saas?.status).toBe("active");
    active = saas?.key ?? "";
    revoked = seats[0]?.key ?? "";
    // The buyer's list shows the revocation too.
    const listed = (await buyer.get("/api/licenses")).json().items as License[];
    expect(listed.find((l) => l.key === revoked)).toMatchObject({
      status: "revoked",
      revokedAt: "2026-04-01T00:00:00.000Z",
    });
  });

  test("an active key is valid, names the product and nothing personal", async () => {
    const res = await validate(createClient(t.app), active);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const answer = res.json();
    expect(Object.keys(answer).sort()).toEqual([
      "activated",
      "product",
      "renewsAt",
      "seats",
      "seatsUsed",
      "status",
      "valid",
    ]);
    expect(answer).toMatchObject({ valid: true, status: "active", product: "Cloud Seat" });
    expect(Date.parse(answer.renewsAt)).toBeGreaterThan(Date.now());
    expect(res.body).not.toContain("buyer@stackbay.test");
  });

  test("typed in lower case with spaces around it, the key still validates", async () => {
    const res = await validate(createClient(t.app), `  ${active.toLowerCase()} `);
    expect(res.json()).toMatchObject({ valid: true, status: "active" });
  });

  test("a revoked key is not valid and says so", async () => {
    const res = await validate(createClient(t.app), revoked);
    expect(res.json()).toEqual({
      valid: false,
      status: "revoked",
      product: "Seat License",
      renewsAt: null,
      seats: 1,
      seatsUsed: 0,
      activated: null,
    });
  });

  test.each([
    ["an unknown key", "ABCD-EFGH-JKMN-PQRS"],
    ["a malformed key", "not a key"],
    ["an empty key", ""],
    ["a key with excluded letters", "OOOO-IIII-LLLL-0000"],
  ])("%s answers unknown, like any other miss", async (_, key) => {
    const res = await validate(createClient(t.app), key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: false,
      status: "unknown",
      product: null,
      renewsAt: null,
      seats: null,
      seatsUsed: null,
      activated: null,
    });
  });

  test("a malformed body is refused", async () => {
    const client = createClient(t.app);
    expect((await validate(client, 1234)).statusCode).toBe(400);
    expect((await client.post("/api/licenses/validate", {})).statusCode).toBe(400);
    const long = await validate(client, "A".repeat(65));
    expect(long.statusCode).toBe(400);
    expect(long.json().details[0].message).toBe("A license key is at most 64 characters");
  });

  test("callers are limited to 60 checks a minute per address", async () => {
    const client = createClient(t.app);
    for (let i = 0; i < 60; i++) {
      expect((await validate(client, "ABCD-EFGH-JKMN-PQRS")).statusCode).toBe(200);
    }
    const limited = await validate(client, active);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("RATE_LIMITED");
    // Another address is not affected.
    expect((await validate(createClient(t.app), active)).json().valid).toBe(true);
  });
});
