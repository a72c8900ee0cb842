import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AuditEntry } from "#domain/audit";
import { user } from "#server/db/schema/auth";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { recordAudit } from "#server/lib/audit";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let superAdmin: ReturnType<typeof createClient>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  // Another person's edits, as the admin screens write them.
  const [admin] = await t.db.select().from(user).where(eq(user.email, "admin@stackbay.test"));
  if (!admin) throw new Error("no admin");
  await recordAudit(t.db, admin, {
    action: "create",
    entityType: "category",
    entityId: "5b3c1a9e-0000-4000-8000-000000000001",
    entityLabel: "Drones",
    before: null,
    after: { name: "Drones", slug: "drones" },
  });
  await recordAudit(t.db, admin, {
    action: "update",
    entityType: "page",
    entityId: "7d1e2f3a-0000-4000-8000-000000000002",
    entityLabel: "About us",
    before: { title: "About" },
    after: { title: "About us" },
  });
  // And the super admin's own, through the API.
  const put = await superAdmin.request("PUT", "/api/admin/fx-rates/INR", { rateToUsd: 84.1, fxBuffer: 0.02 });
  expect(put.statusCode).toBe(200);
});
afterAll(() => t.close());

const list = async (query = "") => {
  const res = await superAdmin.get(`/api/admin/audit${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { items: AuditEntry[]; total: number; page: number; pageSize: number };
};

describe("audit log", () => {
  test("newest first, 50 a page, each entry with its changes", async () => {
    const body = await list();
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 50 });
    expect(body.items.map((e) => e.entityLabel)).toEqual(["INR", "About us", "Drones"]);
    expect(body.items[0]).toEqual({
      id: expect.any(String),
      actorId: expect.any(String),
      actorEmail: "superadmin@stackbay.test",
      action: "update",
      entityType: "fx_rate",
      entityId: "INR",
      entityLabel: "INR",
      changes: { rateToUsd: { before: 83.2, after: 84.1 } },
      createdAt: expect.any(String),
    });
    expect((await list("?page=2")).items).toEqual([]);
  });

  test("filters by entity type, action, actor e-mail (any part) and entity id (or its beginning)", async () => {
    const labels = async (query: string) => (await list(query)).items.map((e) => e.entityLabel);
    expect(await labels("?entityType=fx_rate")).toEqual(["INR"]);
    expect(await labels("?entityType=user")).toEqual([]);
    expect(await labels("?action=create")).toEqual(["Drones"]);
    expect(await labels("?actor=ADMIN%40stackbay")).toEqual(["INR", "About us", "Drones"]);
    expect(await labels("?actor=superadmin")).toEqual(["INR"]);
    expect(await labels("?actor=%5Fadmin")).toEqual([]);
    expect(await labels("?entityId=7d1e2f3a")).toEqual(["About us"]);
    expect(await labels("?entityType=page&action=create")).toEqual([]);
  });

  test("bad filters are refused with the schema's messages", async () => {
    const res = await superAdmin.get("/api/admin/audit?entityType=spaceship");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("Unknown entity type");
    expect((await superAdmin.get("/api/admin/audit?action=explode")).json().message).toContain(
      "Unknown action",
    );
  });

  test("only super admins read the trail", async () => {
    expect((await createClient(t.app).get("/api/admin/audit")).statusCode).toBe(401);
    for (const email of ["admin@stackbay.test", "seller@stackbay.test", "buyer@stackbay.test"]) {
      const client = await signedInClient(t.app, email, DEMO_PASSWORD);
      expect((await client.get("/api/admin/audit")).statusCode).toBe(403);
    }
  });
});
