import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { startS3rver } from "#server/test/s3";

let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
let seller: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  s3 = await startS3rver();
  t = await createTestApp({ seed: true, env: s3.env });
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function upload(client: ReturnType<typeof createClient>) {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c85028" } })
    .png()
    .toBuffer();
  const boundary = "----stackbays3test";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: "POST",
    url: "/api/uploads/images",
    payload,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, cookie: client.cookieHeader() },
  });
}

const product = (images: string[]) => ({ name: "Bucket Images", category: "software", price: 10, images });

describe("uploads with STORAGE_DRIVER=s3", () => {
  test("the upload route stores the WebP and its thumbnail in the bucket and answers their public URLs", async () => {
    expect(t.app.storage.driver).toBe("s3");
    const res = await upload(seller);
    expect(res.statusCode).toBe(201);
    const { url, thumbnailUrl } = res.json();
    const key = new RegExp(`^${s3.publicBaseUrl}/products/[0-9a-f-]{36}(-thumb)?\\.webp$`);
    expect(url).toMatch(key);
    expect(thumbnailUrl).toMatch(key);

    for (const stored of [url, thumbnailUrl]) {
      const served = await fetch(stored);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
      expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe("webp");
    }
  });

  test("bucket URLs go on products and logos with the same ownership rules; other addresses are refused", async () => {
    const { url, thumbnailUrl } = (await upload(seller)).json();
    const created = await seller.post("/api/manage/products", product([url, thumbnailUrl]));
    expect(created.statusCode).toBe(201);
    expect(created.json().product).toMatchObject({ images: [url, thumbnailUrl], imageUrl: url });

    const other = await createVerifiedAccount(t.app, t.dataDir, {
      email: "bucket.seller@example.com",
      accountType: "seller",
    });
    const sellerB = await signedInClient(t.app, other.email, other.password);
    const stolen = await sellerB.post("/api/manage/products", product([url]));
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().code).toBe("IMAGE_NOT_YOURS");

    // Neither another site nor a path outside the bucket passes for an upload, not even for an admin.
    for (const foreign of [
      "https://elsewhere.example/products/x.webp",
      `${s3.endpoint}/other-bucket/products/x.webp`,
      "/uploads/products/never-uploaded.webp",
    ]) {
      for (const client of [seller, admin]) {
        const refused = await client.post("/api/manage/products", product([foreign]));
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({
          code: "VALIDATION_ERROR",
          message: "Images must be uploaded to Stackbay",
        });
      }
    }

    const logo = await seller.request("PUT", "/api/seller/storefront", {
      name: "Quasar Labs",
      description: "Bookkeeping tools for small teams.",
      website: null,
      country: "DE",
      logoUrl: url,
    });
    expect(logo.statusCode).toBe(200);
    // A new logo of an untrusted seller waits for review (decision 0015): accepted, not yet shown.
    expect(logo.json().storefront.pendingChange).toMatchObject({ logoUrl: url, status: "pending" });
  });

  test("the Content-Security-Policy lets pages show images from the bucket's origin", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    const imgSrc = res.headers["content-security-policy"]
      ?.toString()
      .split(";")
      .find((d) => d.trim().startsWith("img-src"));
    expect(imgSrc).toContain(new URL(s3.publicBaseUrl).origin);
  });
});
