import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentTypeOf, localStorage } from "./storage";

describe("local file storage", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists and reads back what it stored, and nothing it removed", async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "stackbay-storage-"));
    const storage = localStorage(path.join(dir, "uploads"));
    const none: string[] = [];
    for await (const key of storage.list()) none.push(key);
    expect(none).toEqual([]);

    expect(await storage.put("products/a.webp", Buffer.from("one"), "image/webp")).toBe(
      "/uploads/products/a.webp",
    );
    await storage.put("logos/b.png", Buffer.from("two"), "image/png");
    await storage.put("products/c.webp", Buffer.from("three"), "image/webp");
    await storage.remove("products/c.webp");

    const keys: string[] = [];
    for await (const key of storage.list()) keys.push(key);
    expect(keys.sort()).toEqual(["logos/b.png", "products/a.webp"]);
    expect((await storage.get("logos/b.png")).toString()).toBe("two");
    await expect(storage.get("../etc/passwd")).rejects.toThrow(/Unsafe storage key/);
  });

  it("names a stored file's type from its key's extension", () => {
    expect(contentTypeOf("products/a.webp")).toBe("image/webp");
    expect(contentTypeOf("logos/b.JPG")).toBe("image/jpeg");
    expect(contentTypeOf("invoices/c.pdf")).toBe("application/pdf");
    expect(contentTypeOf("misc/d.bin")).toBe("application/octet-stream");
  });
});
