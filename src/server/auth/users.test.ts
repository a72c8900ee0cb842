import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createOrGrantAccount } from "#server/auth/users";
import { user } from "#server/db/schema/auth";
import { createTestApp } from "#server/test/app";
import { createClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test("the first admin of an install can log in at once and sees the admin role", async () => {
  const created = await createOrGrantAccount(t.db, {
    email: "root@example.com",
    password: "first-admin-pw",
    firstName: "Root",
    lastName: "",
    roles: ["admin"],
  });
  expect(created.created).toBe(true);
  const res = await createClient(t.app).post("/api/auth/sign-in", {
    email: "root@example.com",
    password: "first-admin-pw",
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().user.roles).toMatchObject({ isAdmin: true, isSuperAdmin: false, isBuyer: false });
});

test("running it again for the same address grants roles and leaves the password alone", async () => {
  const again = await createOrGrantAccount(t.db, {
    email: "root@example.com",
    password: "ignored-password",
    firstName: "Other",
    lastName: "Name",
    roles: ["superAdmin"],
  });
  expect(again.created).toBe(false);
  const [row] = await t.db.select().from(user).where(eq(user.email, "root@example.com"));
  expect(row).toMatchObject({ isAdmin: true, isSuperAdmin: true, firstName: "Root" });
  const client = createClient(t.app);
  expect(
    (await client.post("/api/auth/sign-in", { email: "root@example.com", password: "ignored-password" }))
      .statusCode,
  ).toBe(401);
  expect(
    (await client.post("/api/auth/sign-in", { email: "root@example.com", password: "first-admin-pw" }))
      .statusCode,
  ).toBe(200);
});
