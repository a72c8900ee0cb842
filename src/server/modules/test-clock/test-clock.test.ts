import { afterAll, beforeAll, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import type { SaleLine } from "#domain/earnings";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { sellerWithProduct } from "#server/test/sellers";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

test("a test server's super admin moves the money clock forward; no one else can", async () => {
  const superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  expect((await admin.post("/api/test/clock", { advanceDays: 15 })).statusCode).toBe(403);
  const before = t.app.clock.now().getTime();
  const res = await superAdmin.post("/api/test/clock", { advanceDays: 15 });
  expect(res.statusCode).toBe(200);
  expect(new Date(res.json().now).getTime() - before).toBeGreaterThanOrEqual(15 * 86_400_000);
  expect((await superAdmin.post("/api/test/clock", { advanceDays: -1 })).statusCode).toBe(400);
  expect((await admin.post("/api/test/clock/reset", {})).statusCode).toBe(403);
  const reset = await superAdmin.post("/api/test/clock/reset", {});
  expect(reset.statusCode).toBe(200);
  expect(Math.abs(new Date(reset.json().now).getTime() - Date.now())).toBeLessThan(60_000);
  // A server that is not a test server has no such route: see crash.test.ts, which runs one.
});

test("a sale paid after the clock moved has its refund window from the clock's now, so the next release leaves it pending", async () => {
  const superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  expect((await superAdmin.post("/api/test/clock", { advanceDays: 15 })).statusCode).toBe(200);
  const seller = await sellerWithProduct(t, "seller@test-clock.test", "software");
  const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const order = await placeAndPay(t.app, buyer, {
    country: "Portugal",
    items: [{ productId: seller.product.id, price: seller.product.price }],
  });
  // Moving the clock on by a day runs the releases due by then, as the scheduled job would.
  expect((await superAdmin.post("/api/test/clock", { advanceDays: 1 })).statusCode).toBe(200);
  const [line] = (await seller.client.get("/api/earnings/sales")).json().items as SaleLine[];
  expect(line).toMatchObject({ orderId: order.id, status: "pending" });
  const opened = new Date(line?.availableAt ?? 0).getTime() - t.app.env.REFUND_WINDOW_DAYS * DAY_MS;
  expect(Math.abs(opened - (t.app.clock.now().getTime() - DAY_MS))).toBeLessThan(60_000);
});
