import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AdminUser } from "#domain/admin-users";
import { session, user } from "#server/db/schema/auth";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { updateUserAccess } from "#server/modules/users/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let superAdmin: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

async function idOf(email: string): Promise<string> {
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

const patchUser = (client: ReturnType<typeof createClient>, id: string, body: object) =>
  client.patch(`/api/admin/users/${id}`, body);

async function userAudit(id: string) {
  const res = await superAdmin.get(`/api/admin/audit?entityType=user&entityId=${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().items as { actorEmail: string; entityLabel: string; changes: Record<string, unknown> }[];
}

describe("who may manage users", () => {
  test("anonymous callers get 401; buyers, sellers and admins get 403", async () => {
    const buyerId = await idOf("buyer@stackbay.test");
    const anonymous = createClient(t.app);
    expect((await anonymous.get("/api/admin/users")).statusCode).toBe(401);
    expect((await patchUser(anonymous, buyerId, { isSeller: true })).statusCode).toBe(401);
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    for (const client of [buyer, seller, admin]) {
      expect((await client.get("/api/admin/users")).statusCode).toBe(403);
      const res = await patchUser(client, buyerId, { isSeller: true });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("FORBIDDEN");
    }
    const [row] = await t.db.select().from(user).where(eq(user.id, buyerId));
    expect(row?.isSeller).toBe(false);
  });

  test("the rule that only super admins change admin rights holds below the route too", async () => {
    const [adminRow] = await t.db.select().from(user).where(eq(user.email, "admin@stackbay.test"));
    if (!adminRow) throw new Error("no admin");
    const buyerId = await idOf("buyer@stackbay.test");
    await expect(updateUserAccess(t.db, adminRow, buyerId, { isAdmin: true })).rejects.toMatchObject({
      statusCode: 403,
      code: "SUPER_ADMIN_REQUIRED",
    });
    await expect(updateUserAccess(t.db, adminRow, buyerId, { isSuperAdmin: true })).rejects.toMatchObject({
      code: "SUPER_ADMIN_REQUIRED",
    });
    const [row] = await t.db.select().from(user).where(eq(user.id, buyerId));
    expect(row).toMatchObject({ isAdmin: false, isSuperAdmin: false });
  });
});

describe("listing users", () => {
  test("newest first, 25 a page, with role flags and the disabled state; private columns stay out", async () => {
    const res = await superAdmin.get("/api/admin/users");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: 25 });
    expect(body.total).toBeGreaterThanOrEqual(5);
    const times = body.items.map((u: AdminUser) => u.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const reseller = body.items.find((u: AdminUser) => u.email === "reseller@stackbay.test");
    expect(reseller).toEqual({
      id: expect.any(String),
      email: "reseller@stackbay.test",
      firstName: "Rhea",
      lastName: "Reseller",
      emailVerified: true,
      isBuyer: true,
      isSeller: false,
      isReseller: true,
      isAdmin: false,
      isSuperAdmin: false,
      isTrustedSeller: false,
      disabled: false,
      createdAt: expect.any(String),
    });
  });

  test("search matches e-mail and names case-insensitively; the role filter narrows", async () => {
    const emails = async (query: string) =>
      (await superAdmin.get(`/api/admin/users?${query}`)).json().items.map((u: AdminUser) => u.email);
    expect(await emails("search=RESELLER%40stackbay")).toEqual(["reseller@stackbay.test"]);
    expect(await emails("search=sofia")).toEqual(["superadmin@stackbay.test"]);
    expect(await emails("search=buyer")).toEqual(["buyer@stackbay.test"]);
    // A typed wildcard is a character, not a pattern.
    expect(await emails("search=%25")).toEqual([]);
    // The demo vendors' sellers live at @vendors.stackbay.test; among the demo's own accounts, one sells.
    expect(await emails("role=seller&search=%40stackbay.test")).toEqual(["seller@stackbay.test"]);
    expect(await emails("role=superAdmin")).toEqual(["superadmin@stackbay.test"]);
    expect((await emails("role=admin")).sort()).toEqual(["admin@stackbay.test", "superadmin@stackbay.test"]);
    expect(await emails("role=reseller&search=nobody")).toEqual([]);

    const bad = await superAdmin.get("/api/admin/users?role=owner");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("Role must be seller, reseller, admin, superAdmin or disabled");
  });
});

describe("changing roles", () => {
  test("granting seller lets the buyer manage products, is audited, and revoking takes it back", async () => {
    const buyerId = await idOf("buyer@stackbay.test");
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect((await buyer.get("/api/manage/products")).statusCode).toBe(403);

    const granted = await patchUser(superAdmin, buyerId, { isSeller: true });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().user).toMatchObject({
      email: "buyer@stackbay.test",
      isSeller: true,
      isBuyer: true,
    });
    expect((await buyer.get("/api/me")).json().user.roles).toMatchObject({ isSeller: true });
    expect((await buyer.get("/api/manage/products")).statusCode).toBe(200);

    const [entry] = await userAudit(buyerId);
    expect(entry).toMatchObject({
      actorEmail: "superadmin@stackbay.test",
      entityLabel: "buyer@stackbay.test",
      changes: { isSeller: { before: false, after: true } },
    });

    const revoked = await patchUser(superAdmin, buyerId, { isSeller: false });
    expect(revoked.json().user.isSeller).toBe(false);
    expect((await buyer.get("/api/manage/products")).statusCode).toBe(403);
    const entries = await userAudit(buyerId);
    expect(entries).toHaveLength(2);
    expect(entries[0]?.changes).toEqual({ isSeller: { before: true, after: false } });

    // Saving what is already stored changes nothing and adds no entry.
    expect((await patchUser(superAdmin, buyerId, { isSeller: false })).statusCode).toBe(200);
    expect(await userAudit(buyerId)).toHaveLength(2);
  });

  test("keys the screen does not offer are dropped; a body with nothing left, or a bad value, is refused", async () => {
    const resellerId = await idOf("reseller@stackbay.test");
    const res = await patchUser(superAdmin, resellerId, {
      isReseller: true,
      isBuyer: false,
      email: "taken@evil.example",
      banned: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      email: "reseller@stackbay.test",
      isBuyer: true,
      isReseller: true,
      disabled: false,
    });

    const empty = await patchUser(superAdmin, resellerId, { isBuyer: false });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain("Nothing to change");
    const wrongType = await patchUser(superAdmin, resellerId, { isSeller: "yes" });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toContain("isSeller must be true or false");
  });

  test("an unknown user is a 404", async () => {
    const res = await patchUser(superAdmin, "no-such-user", { isSeller: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "USER_NOT_FOUND", message: "This user does not exist." });
  });
});

describe("super admins", () => {
  test("the last active super admin cannot be revoked or disabled; with a second one it can", async () => {
    const firstId = await idOf("superadmin@stackbay.test");
    const last = await patchUser(superAdmin, firstId, { isSuperAdmin: false });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({
      code: "LAST_SUPER_ADMIN",
      message:
        "superadmin@stackbay.test is the only active super admin. Make someone else a super admin first.",
    });

    // A second super admin who is disabled does not count.
    const second = await createVerifiedAccount(t.app, t.dataDir, { email: "second.super@example.com" });
    const secondId = await idOf(second.email);
    expect((await patchUser(superAdmin, secondId, { isSuperAdmin: true, disabled: true })).statusCode).toBe(
      200,
    );
    expect((await patchUser(superAdmin, firstId, { isSuperAdmin: false })).json().code).toBe(
      "LAST_SUPER_ADMIN",
    );

    // Once enabled, the first may step down, and the second cannot then be removed.
    expect((await patchUser(superAdmin, secondId, { disabled: false })).json().user).toMatchObject({
      isSuperAdmin: true,
      disabled: false,
    });
    const stepDown = await patchUser(superAdmin, firstId, { isSuperAdmin: false });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().user.isSuperAdmin).toBe(false);
    expect((await superAdmin.get("/api/admin/users")).statusCode).toBe(403);

    const secondClient = await signedInClient(t.app, second.email, second.password);
    const lastOne = await patchUser(secondClient, secondId, { isSuperAdmin: false });
    expect(lastOne.json().code).toBe("LAST_SUPER_ADMIN");
    expect((await patchUser(secondClient, firstId, { isSuperAdmin: true })).statusCode).toBe(200);
    expect((await patchUser(secondClient, secondId, { isSuperAdmin: false })).statusCode).toBe(200);
    expect((await superAdmin.get("/api/admin/users")).statusCode).toBe(200);
  });

  test("a super admin cannot disable themselves", async () => {
    const res = await patchUser(superAdmin, await idOf("superadmin@stackbay.test"), { disabled: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: "CANNOT_DISABLE_SELF",
      message: "You can't disable your own account. Ask another super admin if it must be disabled.",
    });
  });
});

describe("disabling accounts", () => {
  test("disabling ends the user's sessions at once and blocks sign-in; enabling restores it", async () => {
    const person = await createVerifiedAccount(t.app, t.dataDir, { email: "dana@example.com" });
    const id = await idOf(person.email);
    const dana = await signedInClient(t.app, person.email, person.password);
    const phone = await signedInClient(t.app, person.email, person.password);
    expect((await dana.get("/api/me")).json().user.email).toBe(person.email);

    const disabled = await patchUser(superAdmin, id, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user.disabled).toBe(true);
    expect(await t.db.select().from(session).where(eq(session.userId, id))).toEqual([]);
    expect((await dana.get("/api/me")).json()).toEqual({ user: null });
    expect((await phone.get("/api/me")).json()).toEqual({ user: null });

    const refused = await createClient(t.app).post("/api/auth/sign-in", person);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("ACCOUNT_DISABLED");
    const listed = (await superAdmin.get("/api/admin/users?role=disabled")).json().items;
    expect(listed.map((u: AdminUser) => u.email)).toEqual([person.email]);

    const [entry] = await userAudit(id);
    expect(entry?.changes).toEqual({ disabled: { before: false, after: true } });

    expect((await patchUser(superAdmin, id, { disabled: false })).json().user.disabled).toBe(false);
    // The old sessions stay ended; signing in again works.
    expect((await dana.get("/api/me")).json()).toEqual({ user: null });
    const again = await signedInClient(t.app, person.email, person.password);
    expect((await again.get("/api/me")).json().user.email).toBe(person.email);
  });
});
