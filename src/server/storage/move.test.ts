import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { openDatabase } from "#server/db/client";
import { products, storefronts, uploads } from "#server/db/schema/catalog";
import { sitePages } from "#server/db/schema/content";
import { moveUploads } from "#server/storage/move";
import { s3Storage } from "#server/storage/s3";
import { localStorage } from "#server/storage/storage";
import { createTestApp } from "#server/test/app";
import { startS3rver } from "#server/test/s3";

let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  s3 = await startS3rver();
  // A local-driver install with the demo data: its pictures in DATA_DIR/uploads, /uploads/ URLs in the rows.
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const keysIn = async (storage: { list(): AsyncIterable<string> }) => {
  const keys: string[] = [];
  for await (const key of storage.list()) keys.push(key);
  return keys.sort();
};

describe("moving local uploads into a bucket", () => {
  test("copies every file, rewrites every stored URL in place, and a second run changes nothing", async () => {
    const local = localStorage(path.join(t.dataDir, "uploads"));
    const bucket = s3Storage(s3.config);
    const localKeys = await keysIn(local);
    expect(localKeys.length).toBeGreaterThan(10);

    const [demo] = await t.db.select().from(products).where(like(products.imageUrl, "/uploads/%")).limit(1);
    if (!demo) throw new Error("the demo seed has no product pictures");
    await t.db
      .update(products)
      .set({ images: [...demo.images, "https://elsewhere.example/pic.webp"] })
      .where(eq(products.id, demo.id));
    await t.db
      .insert(uploads)
      .values({ url: demo.images[0] as string, ownerId: null })
      .onConflictDoNothing();
    const [page] = await t.db
      .insert(sitePages)
      .values({
        slug: "moved-pictures",
        title: "Moved pictures",
        content: `<p>Chart</p><img src="${demo.imageUrl}" alt="Chart"><a href="/uploads-guide">guide</a>`,
        seoMeta: { og_image_url: demo.imageUrl ?? undefined, title: "Moved" },
      })
      .returning();
    if (!page) throw new Error("page not inserted");

    const first = await moveUploads(t.db, local, bucket, s3.publicBaseUrl);
    expect(first.copied).toBe(localKeys.length);
    expect(first.alreadyThere).toBe(0);
    expect(await keysIn(bucket)).toEqual(localKeys);
    expect(first.rewritten).toMatchObject({
      "uploads.url": 1,
      "products.images": expect.any(Number),
      "site_pages.content": 1,
      "site_pages.seo_meta": 1,
    });
    expect(first.rewritten["products.image_url"]).toBeGreaterThan(0);
    expect(first.rewritten["storefronts.logo_url"]).toBeGreaterThan(0);

    const moved = (url: string) => `${s3.publicBaseUrl}/${url.slice("/uploads/".length)}`;
    const [after] = await t.db.select().from(products).where(eq(products.id, demo.id));
    expect(after?.imageUrl).toBe(moved(demo.imageUrl as string));
    // Order kept, other sites' pictures untouched.
    expect(after?.images).toEqual([...demo.images.map(moved), "https://elsewhere.example/pic.webp"]);
    expect(
      await t.db
        .select()
        .from(uploads)
        .where(eq(uploads.url, moved(demo.images[0] as string))),
    ).toHaveLength(1);
    const [pageAfter] = await t.db.select().from(sitePages).where(eq(sitePages.id, page.id));
    expect(pageAfter?.content).toBe(
      `<p>Chart</p><img src="${moved(demo.imageUrl as string)}" alt="Chart"><a href="/uploads-guide">guide</a>`,
    );
    expect(pageAfter?.seoMeta).toEqual({ og_image_url: moved(demo.imageUrl as string), title: "Moved" });
    expect(await t.db.select().from(products).where(like(products.imageUrl, "/uploads/%"))).toEqual([]);
    expect(await t.db.select().from(storefronts).where(like(storefronts.logoUrl, "/uploads/%"))).toEqual([]);

    // What the pages now show is really there.
    const served = await fetch(after?.imageUrl as string);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");

    const second = await moveUploads(t.db, local, bucket, s3.publicBaseUrl);
    expect(second.copied).toBe(0);
    expect(second.alreadyThere).toBe(localKeys.length);
    expect(Object.values(second.rewritten).every((n) => n === 0)).toBe(true);
    const [again] = await t.db.select().from(products).where(eq(products.id, demo.id));
    expect(again?.images).toEqual(after?.images);
  });

  // The command on its own embedded install, whatever database the other tests run on. Two starts of
  // the command, each loading the server's modules and opening the install: on a CI machine busy with
  // other test files, more than the default minute.
  test("npm run storage:move does it from the environment and says what it did", {
    timeout: 180_000,
  }, async () => {
    // Its own on-disk install, as the command runs on one (from the run's migrated template, not migrated
    // again here): a fresh bucket, one file, one row.
    const target = await startS3rver();
    const dataDir = path.join(t.dataDir, "cli");
    const database = await openDatabase({
      dataDir,
      snapshot: new Blob([await readFile(inject("databaseTemplates").pglite.migrated)]),
    });
    try {
      await localStorage(path.join(dataDir, "uploads")).put(
        "products/cli-1.webp",
        Buffer.from("RIFF"),
        "image/webp",
      );
      await database.db.insert(uploads).values({ url: "/uploads/products/cli-1.webp", ownerId: null });
    } finally {
      await database.close();
    }
    const run = () =>
      promisify(execFile)(process.execPath, ["src/server/storage/move-cli.ts"], {
        env: { ...process.env, ...target.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "test" },
      });
    try {
      const first = await run();
      expect(first.stdout).toContain(`Moving ${path.join(dataDir, "uploads")} into bucket ${target.bucket}`);
      expect(first.stdout).toContain("copied products/cli-1.webp");
      expect(first.stdout).toContain("uploads.url: 1 row(s) rewritten");
      expect(first.stdout).toContain(
        "Done: 1 file(s) copied, 0 already in the bucket; 1 database row(s) rewritten.",
      );
      expect(first.stdout + first.stderr).not.toContain(target.env.S3_SECRET_ACCESS_KEY);
      const second = await run();
      expect(second.stdout).toContain(
        "Done: 0 file(s) copied, 1 already in the bucket; 0 database row(s) rewritten.",
      );
      expect((await target.fetchPublic("products/cli-1.webp")).status).toBe(200);
      expect(await readdir(path.join(dataDir, "uploads", "products"))).toEqual(["cli-1.webp"]);
    } finally {
      await target.close();
    }
    const reopened = await openDatabase({ dataDir });
    try {
      expect(await reopened.db.select({ url: uploads.url }).from(uploads)).toEqual([
        { url: `${target.publicBaseUrl}/products/cli-1.webp` },
      ]);
    } finally {
      await reopened.close();
    }
  });
});
