import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeVendorLogo } from "#server/db/seed/images";
import { s3Storage } from "#server/storage/s3";
import { startS3rver } from "#server/test/s3";

describe("S3 file storage", () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  beforeAll(async () => {
    s3 = await startS3rver();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it("puts, reads back, lists (across pages) and removes objects, served at the public URL", async () => {
    const storage = s3Storage(s3.config);
    expect(storage.driver).toBe("s3");
    const none: string[] = [];
    for await (const key of storage.list()) none.push(key);
    expect(none).toEqual([]);

    const url = await storage.put("products/a.webp", Buffer.from("one"), "image/webp");
    expect(url).toBe(`${s3.publicBaseUrl}/products/a.webp`);
    expect(storage.keyOf(url)).toBe("products/a.webp");
    expect(storage.keyOf("/uploads/products/a.webp")).toBeNull();
    expect(storage.keyOf(`${s3.publicBaseUrl}/../secret.webp`)).toBeNull();
    expect(storage.keyOf("https://elsewhere.example/products/a.webp")).toBeNull();

    const served = await s3.fetchPublic("products/a.webp");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await served.arrayBuffer()).toString()).toBe("one");

    // More keys than one ListObjectsV2 page (1000) holds, so paging is exercised.
    // (One at a time: s3rver's file store trips over parallel writes into a new folder.)
    const many = Array.from({ length: 1002 }, (_, i) => `bulk/f-${i}.txt`);
    for (const key of many) await storage.put(key, Buffer.from(key), "text/plain");
    await storage.put("logos/b.png", Buffer.from("two"), "image/png");
    await storage.remove("products/a.webp");
    await storage.remove("products/never-there.webp");

    const keys: string[] = [];
    for await (const key of storage.list()) keys.push(key);
    expect(keys.sort()).toEqual([...many, "logos/b.png"].sort());
    expect((await storage.get("logos/b.png")).toString()).toBe("two");
    await expect(storage.get("products/a.webp")).rejects.toThrow();
  });

  it("refuses keys it did not make", async () => {
    const storage = s3Storage(s3.config);
    await expect(storage.put("../escape.webp", Buffer.from("x"), "image/webp")).rejects.toThrow(
      "Unsafe storage key",
    );
    await expect(storage.get("Products/A.webp")).rejects.toThrow("Unsafe storage key");
    await expect(storage.remove("a/../b.webp")).rejects.toThrow("Unsafe storage key");
  });

  it("takes the demo seed's pictures, again on a second seed, at their public URLs", async () => {
    const storage = s3Storage(s3.config);
    const vendor = { slug: "acme-cloud", name: "Acme Cloud", accent: "#336699" };
    const url = await writeVendorLogo(storage, vendor);
    expect(url).toBe(`${s3.publicBaseUrl}/vendors/acme-cloud.webp`);
    expect(await writeVendorLogo(storage, vendor)).toBe(url);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
  });
});
