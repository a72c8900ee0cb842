import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { processImage, storeProductImage } from "#server/storage/images";
import { localStorage } from "#server/storage/storage";

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } });

describe("processImage", () => {
  test("fits a large photo inside 1600 × 1600 as WebP and makes a 400 × 300 thumbnail", async () => {
    const { display, thumbnail } = await processImage(await picture(3200, 1000).jpeg().toBuffer());
    expect(display).toMatchObject({ width: 1600, height: 500 });
    expect((await fileTypeFromBuffer(display.data))?.mime).toBe("image/webp");
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: "webp", width: 400, height: 300 });
  });

  test("never enlarges a small image", async () => {
    const { display } = await processImage(await picture(120, 80).png().toBuffer());
    expect(display).toMatchObject({ width: 120, height: 80 });
  });

  test("turns the picture upright by its EXIF orientation, then drops the metadata", async () => {
    const sideways = await picture(200, 100)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: "secret location" } })
      .toBuffer();
    expect((await sharp(sideways).metadata()).exif).toBeDefined();
    const { display } = await processImage(sideways);
    expect(display).toMatchObject({ width: 100, height: 200 });
    const meta = await sharp(display.data).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  test("accepts GIF, WebP and AVIF; keeps the first frame of an animation", async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 90, channels: 3, background } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame("red"), await frame("blue")], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const { display } = await processImage(animated);
    expect(display).toMatchObject({ width: 40, height: 90 });
    expect((await sharp(display.data).metadata()).pages ?? 1).toBe(1);
    for (const encoded of [picture(50, 50).webp(), picture(50, 50).avif()]) {
      expect((await processImage(await encoded.toBuffer())).display.width).toBe(50);
    }
  });

  test.each([
    ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ["a PHP script", Buffer.from("<?php system($_GET['c']); ?>")],
    ["a PDF", Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n")],
    ["nothing", Buffer.alloc(0)],
  ])("refuses %s as not an image", async (_name, bytes) => {
    await expect(processImage(bytes)).rejects.toMatchObject({ statusCode: 400, code: "NOT_AN_IMAGE" });
  });

  test("refuses image formats outside the list (TIFF) and a damaged PNG", async () => {
    const tiff = await picture(20, 20).tiff().toBuffer();
    await expect(processImage(tiff)).rejects.toMatchObject({ code: "NOT_AN_IMAGE" });
    const png = await picture(300, 300).png().toBuffer();
    const damaged = Buffer.concat([png.subarray(0, 60), Buffer.alloc(200, 7)]);
    await expect(processImage(damaged)).rejects.toMatchObject({ code: "NOT_AN_IMAGE" });
  });
});

describe("storeProductImage", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "stackbay-images-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("writes the image and its thumbnail under one generated name", async () => {
    const stored = await storeProductImage(localStorage(dir), await picture(800, 600).png().toBuffer());
    const id = stored.url.match(/^\/uploads\/products\/([0-9a-f-]{36})\.webp$/)?.[1];
    expect(id).toBeDefined();
    expect(stored).toEqual({
      url: `/uploads/products/${id}.webp`,
      thumbnailUrl: `/uploads/products/${id}-thumb.webp`,
      width: 800,
      height: 600,
    });
    expect((await readdir(path.join(dir, "products"))).sort()).toEqual([`${id}-thumb.webp`, `${id}.webp`]);
    const file = await readFile(path.join(dir, "products", `${id}.webp`));
    expect((await fileTypeFromBuffer(file))?.ext).toBe("webp");
  });
});
