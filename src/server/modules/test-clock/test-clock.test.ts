import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";

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
  // A server that is not a test server has no such route: see crash.test.ts, which runs one.
});
