import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contentBlockRegistry, knownContentBlockKeys } from "#domain/content-blocks";
import { auditLog } from "#server/db/schema/audit";
import { siteContentBlocks } from "#server/db/schema/content";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Awaited<ReturnType<typeof signedInClient>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

type Block = { key: string; content: string; updatedAt: string | null; isDefault: boolean };
const list = async (query = "") =>
  (await admin.get(`/api/admin/content-blocks${query}`)).json().items as Block[];
const auditOf = (key: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.entityId, key)).orderBy(desc(auditLog.createdAt));

describe("admin content blocks", () => {
  test("every known block is listed by key, unsaved ones with their default; rows of unknown keys too", async () => {
    await t.db.delete(siteContentBlocks).where(eq(siteContentBlocks.key, "home.values.secure"));
    await t.db.insert(siteContentBlocks).values({ key: "legacy.banner", content: "Old banner" });
    const res = await admin.get("/api/admin/content-blocks");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const items = res.json().items as Block[];
    const keys = items.map((b) => b.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toEqual(expect.arrayContaining([...knownContentBlockKeys, "legacy.banner"]));
    expect(items.find((b) => b.key === "home.values.secure")).toEqual({
      key: "home.values.secure",
      content: contentBlockRegistry["home.values.secure"].defaultText,
      updatedAt: null,
      isDefault: true,
    });
    expect(items.find((b) => b.key === "home.hero.title")).toMatchObject({
      content: "Welcome to Stackbay",
      isDefault: false,
      updatedAt: expect.any(String),
    });
    expect(items.find((b) => b.key === "legacy.banner")).toMatchObject({
      content: "Old banner",
      isDefault: false,
    });
  });

  test("search matches a part of the key, in any case", async () => {
    expect((await list("?search=HERO")).map((b) => b.key)).toEqual(["home.hero.subtitle", "home.hero.title"]);
    expect(await list("?search=nothing-like-this")).toEqual([]);
  });

  test("saving creates the row the first time and updates it after; both are audited; visitors see it", async () => {
    await t.db.delete(siteContentBlocks).where(eq(siteContentBlocks.key, "home.values.instant"));
    const first = await admin.request("PUT", "/api/admin/content-blocks/home.values.instant", {
      content: "  Keys arrive at once.  ",
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().block).toMatchObject({
      key: "home.values.instant",
      content: "Keys arrive at once.",
      isDefault: false,
    });
    const [created] = await auditOf("home.values.instant");
    expect(created).toMatchObject({
      action: "create",
      entityType: "content_block",
      entityLabel: "Home: Instant Access card",
      changes: { content: { before: null, after: "Keys arrive at once." } },
    });

    const second = await admin.request("PUT", "/api/admin/content-blocks/home.values.instant", {
      content: "<b>Keys</b> arrive at once.",
    });
    // Plain text: stored as typed, shown as text by the site.
    expect(second.json().block.content).toBe("<b>Keys</b> arrive at once.");
    const [updated] = await auditOf("home.values.instant");
    expect(updated).toMatchObject({
      action: "update",
      changes: { content: { before: "Keys arrive at once.", after: "<b>Keys</b> arrive at once." } },
    });
    expect(
      await t.db.select().from(siteContentBlocks).where(eq(siteContentBlocks.key, "home.values.instant")),
    ).toHaveLength(1);

    const publicBlocks = (await createClient(t.app).get("/api/content-blocks")).json();
    expect(publicBlocks).toContainEqual({
      key: "home.values.instant",
      content: "<b>Keys</b> arrive at once.",
    });

    // Saving the same text again changes nothing and writes no audit row.
    await admin.request("PUT", "/api/admin/content-blocks/home.values.instant", {
      content: "<b>Keys</b> arrive at once.",
    });
    expect(await auditOf("home.values.instant")).toHaveLength(2);
  });

  test("bad keys and bad text are refused", async () => {
    const badKey = await admin.request("PUT", "/api/admin/content-blocks/Bad%20Key", { content: "x" });
    expect(badKey.statusCode).toBe(400);
    const empty = await admin.request("PUT", "/api/admin/content-blocks/home.hero.title", { content: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0].message).toBe("Content is required");
    const long = await admin.request("PUT", "/api/admin/content-blocks/home.hero.title", {
      content: "x".repeat(5001),
    });
    expect(long.json().details[0].message).toBe("Content must be at most 5,000 characters");
    const [row] = await t.db
      .select()
      .from(siteContentBlocks)
      .where(eq(siteContentBlocks.key, "home.hero.title"));
    expect(row?.content).toBe("Welcome to Stackbay");
  });

  test("only admins: anonymous 401, buyer 403", async () => {
    const anonymous = createClient(t.app);
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    for (const client of [anonymous, buyer]) {
      const expected = client === anonymous ? 401 : 403;
      expect((await client.get("/api/admin/content-blocks")).statusCode).toBe(expected);
      const put = await client.request("PUT", "/api/admin/content-blocks/home.hero.title", {
        content: "Hacked",
      });
      expect(put.statusCode).toBe(expected);
    }
    const [row] = await t.db
      .select()
      .from(siteContentBlocks)
      .where(eq(siteContentBlocks.key, "home.hero.title"));
    expect(row?.content).toBe("Welcome to Stackbay");
  });
});
