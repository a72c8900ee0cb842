import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { crc32 } from "node:zlib";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let seller: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
let buyer: ReturnType<typeof createClient>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

type Part = { name: string; filename?: string; contentType?: string; data: Buffer | string };

/** A multipart/form-data body as a browser sends it. */
function formData(parts: Part[]) {
  const boundary = `----stackbay${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : "";
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(
  client: ReturnType<typeof createClient> | null,
  file: Buffer | string,
  options: { filename?: string; contentType?: string; field?: string; origin?: string } = {},
) {
  const { payload, contentType } = formData([
    {
      name: options.field ?? "file",
      filename: options.filename ?? "photo.png",
      contentType: options.contentType ?? "image/png",
      data: file,
    },
  ]);
  return t.app.inject({
    method: "POST",
    url: "/api/uploads/images",
    payload,
    headers: {
      "content-type": contentType,
      ...(client ? { cookie: client.cookieHeader() } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    },
  });
}

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

/** The file a returned /uploads/ URL points at, inside the test's DATA_DIR. */
const storedFile = (url: string) => readFile(path.join(t.dataDir, url));

/** Rewrites a PNG's declared size (and the header's CRC): a tiny file that claims a huge picture. */
function withPngSize(png: Buffer, width: number, height: number) {
  const out = Buffer.from(png);
  // Signature (8 bytes), IHDR length (4) and type (4), then width and height; the CRC covers type + data.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

describe("POST /api/uploads/images", () => {
  test("a seller's JPEG with EXIF comes back as an upright WebP without metadata, fitted to 1600 px", async () => {
    const jpeg = await photo(2400, 1200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Artist: "GPS 51.5,-0.1" } })
      .toBuffer();
    const res = await upload(seller, jpeg, { filename: "holiday.jpg", contentType: "image/jpeg" });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    // Turned upright first (1200 × 2400), then fitted inside 1600 × 1600.
    expect(body).toMatchObject({ width: 800, height: 1600 });
    expect(body.url).toMatch(/^\/uploads\/products\/[0-9a-f-]{36}\.webp$/);
    expect(body.thumbnailUrl).toBe(body.url.replace(".webp", "-thumb.webp"));

    const stored = await storedFile(body.url);
    expect(await fileTypeFromBuffer(stored)).toMatchObject({ mime: "image/webp" });
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 800, height: 1600 });
    expect(meta.exif).toBeUndefined();
    expect(await sharp(await storedFile(body.thumbnailUrl)).metadata()).toMatchObject({
      width: 400,
      height: 300,
    });
  });

  test("an admin's PNG is accepted and served with nosniff and immutable caching", async () => {
    const res = await upload(admin, await photo(640, 480).png().toBuffer(), {
      origin: "http://127.0.0.1:3000",
    });
    expect(res.statusCode).toBe(201);
    const { url, width, height } = res.json();
    expect({ width, height }).toEqual({ width: 640, height: 480 });

    const served = await t.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await fileTypeFromBuffer(served.rawPayload))?.ext).toBe("webp");
  });

  test("a PHP script named .png with an image/png type is refused", async () => {
    const res = await upload(seller, "<?php echo shell_exec($_GET['cmd']); ?>", {
      filename: "shell.png",
      contentType: "image/png",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: "NOT_AN_IMAGE", message: "Please select an image file" });
  });

  test("an SVG with a script is refused", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>';
    const res = await upload(seller, svg, { filename: "logo.svg", contentType: "image/svg+xml" });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("NOT_AN_IMAGE");
  });

  test("a 6 MB file is refused as too large; a file just under 5 MB is not", async () => {
    const png = await photo(100, 100).png().toBuffer();
    // Bytes after IEND are ignored by decoders, so this is a real PNG of the chosen size.
    const padded = (size: number) => Buffer.concat([png, Buffer.alloc(size - png.length, 0)]);
    const tooLarge = await upload(seller, padded(6 * 1024 * 1024));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ code: "IMAGE_TOO_LARGE", message: "Image size must be less than 5MB" });
    expect((await upload(seller, padded(5 * 1024 * 1024))).statusCode).toBe(413);
    expect((await upload(seller, padded(5 * 1024 * 1024 - 1))).statusCode).toBe(201);
  });

  test("a 20,000 × 20,000 PNG is refused by the pixel limit without being decoded", async () => {
    const bomb = withPngSize(await photo(8, 8).png().toBuffer(), 20_000, 20_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({
      width: 20_000,
      height: 20_000,
    });
    const res = await upload(seller, bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "IMAGE_DIMENSIONS_TOO_LARGE" });
    expect(res.json().message).toMatch(/too large/);

    // Our 40-megapixel limit, not sharp's default of 268: 49 MP is refused for its size, while 36 MP
    // passes the size check and fails only because the rewritten header no longer matches the pixel data.
    const code = async (side: number) =>
      (await upload(seller, withPngSize(await photo(8, 8).png().toBuffer(), side, side))).json().code;
    expect(await code(7000)).toBe("IMAGE_DIMENSIONS_TOO_LARGE");
    expect(await code(6000)).toBe("NOT_AN_IMAGE");
  });

  test("the uploader's file name is never used: '../../etc/passwd.png' lands under a generated name", async () => {
    const before = await readdir(t.dataDir, { recursive: true });
    const res = await upload(seller, await photo(50, 50).png().toBuffer(), {
      filename: "../../etc/passwd.png",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toMatch(/^\/uploads\/products\/[0-9a-f-]{36}\.webp$/);
    const added = (await readdir(t.dataDir, { recursive: true })).filter((f) => !before.includes(f));
    expect(added.sort()).toEqual(
      [res.json().url, res.json().thumbnailUrl].map((u: string) => u.replace(/^\//, "")).sort(),
    );
    expect(added.some((f) => f.includes("passwd"))).toBe(false);
  });

  test("a request without a file, or with the file in another field, says what is missing", async () => {
    const json = await seller.post("/api/uploads/images", {});
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe("NO_FILE");
    const otherField = await upload(seller, await photo(10, 10).png().toBuffer(), { field: "image" });
    expect(otherField.statusCode).toBe(400);
    expect(otherField.json().message).toMatch(/Please select an image file/);
    const onlyText = formData([{ name: "note", data: "hello" }]);
    const textOnly = await t.app.inject({
      method: "POST",
      url: "/api/uploads/images",
      payload: onlyText.payload,
      headers: { "content-type": onlyText.contentType, cookie: seller.cookieHeader() },
    });
    expect(textOnly.statusCode).toBe(400);
    expect(textOnly.json().code).toBe("NO_FILE");
  });

  test("buyers get 403, strangers 401, other sites 403; nothing is stored", async () => {
    const png = await photo(20, 20).png().toBuffer();
    const before = await readdir(t.dataDir, { recursive: true });
    const asBuyer = await upload(buyer, png);
    expect(asBuyer.statusCode).toBe(403);
    expect(asBuyer.json().code).toBe("FORBIDDEN");
    const anonymous = await upload(null, png);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe("UNAUTHORIZED");
    const crossSite = await upload(seller, png, { origin: "https://evil.example" });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().code).toBe("FORBIDDEN_ORIGIN");
    expect(await readdir(t.dataDir, { recursive: true })).toEqual(before);
  });
});

describe("uploads belong to their uploader", () => {
  const product = (images: string[]) => ({ name: "Owned Images", category: "software", price: 10, images });

  test("seller B cannot put seller A's upload on a product; A can, and so can an admin", async () => {
    const other = await createVerifiedAccount(t.app, t.dataDir, {
      email: "second.seller@example.com",
      accountType: "seller",
    });
    const sellerB = await signedInClient(t.app, other.email, other.password);
    const uploaded = await upload(seller, await photo(300, 200).png().toBuffer());
    expect(uploaded.statusCode).toBe(201);
    const { url, thumbnailUrl } = uploaded.json();

    for (const images of [[url], [thumbnailUrl], ["/uploads/products/nimbus-crm-pro-1.webp", url]]) {
      const refused = await sellerB.post("/api/manage/products", product(images));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        code: "IMAGE_NOT_YOURS",
        message: "You can only use images you uploaded yourself.",
      });
    }
    const own = await sellerB.post("/api/manage/products", product([]));
    expect(own.statusCode).toBe(201);
    const ownId = own.json().product.id;
    expect((await sellerB.patch(`/api/manage/products/${ownId}`, product([url]))).statusCode).toBe(403);

    const byA = await seller.post("/api/manage/products", product([url, thumbnailUrl]));
    expect(byA.statusCode).toBe(201);
    expect(byA.json().product.images).toEqual([url, thumbnailUrl]);

    // An admin may attach anyone's upload, and the owner of that product may then keep it.
    const byAdmin = await admin.patch(`/api/manage/products/${ownId}`, product([url]));
    expect(byAdmin.statusCode).toBe(200);
    const kept = await sellerB.patch(`/api/manage/products/${ownId}`, { ...product([url]), name: "Renamed" });
    expect(kept.statusCode).toBe(200);

    // Seeded demo images belong to no uploader and stay usable.
    const demo = await sellerB.post(
      "/api/manage/products",
      product(["/uploads/products/nimbus-crm-pro-1.webp"]),
    );
    expect(demo.statusCode).toBe(201);
  });
});
