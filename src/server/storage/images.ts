import { randomUUID } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE } from "#domain/product-admin";
import { AppError } from "#server/errors";
import type { FileStorage } from "#server/storage/storage";

/**
 * Decoding allocates width × height × channels bytes whatever the file size, so a tiny file declaring
 * 20,000 × 20,000 pixels would take gigabytes; 40 megapixels covers any real product photo.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const DISPLAY_MAX_SIZE = 1600;
export const THUMBNAIL_SIZE = { width: 400, height: 300 } as const;

/** Raster formats a browser shows; decided from the bytes. SVG is never accepted (it can carry scripts). */
const ACCEPTED_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"]);

export const notAnImage = () => new AppError(400, "NOT_AN_IMAGE", IMAGE_TYPE_MESSAGE);
export const imageTooLarge = () => new AppError(413, "IMAGE_TOO_LARGE", IMAGE_SIZE_MESSAGE);
/**
 * Too many pixels is a 400 of its own rather than 413: the file may be small, so "less than 5MB" would
 * mislead; the message says what to change instead.
 */
const tooManyPixels = () =>
  new AppError(
    400,
    "IMAGE_DIMENSIONS_TOO_LARGE",
    `Image dimensions are too large (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels). Please resize it and try again.`,
  );

export type ProcessedImage = {
  display: { data: Buffer; width: number; height: number };
  thumbnail: Buffer;
};

/**
 * Checks that `input` really is a raster image and re-encodes it as WebP: turned upright by its EXIF
 * orientation, metadata (EXIF, GPS, ICC comments) dropped, fitted inside 1600 × 1600 without enlarging,
 * plus a 400 × 300 cropped thumbnail. Re-encoding means nothing of the original bytes is ever served.
 * A file that sniffs as an image but cannot be decoded counts as "not an image".
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const type = await fileTypeFromBuffer(input);
  if (!type || !ACCEPTED_TYPES.has(type.mime)) throw notAnImage();

  const source = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" });
  const refusal = (error: unknown) =>
    error instanceof Error && /pixel limit/i.test(error.message) ? tooManyPixels() : notAnImage();
  // Reads the header only, so a pixel bomb is refused before anything is decoded.
  await source.metadata().catch((error: unknown) => {
    throw refusal(error);
  });

  // Animated GIF/WebP keep their first frame (sharp's default).
  const upright = source.rotate();
  const [display, thumbnail] = await Promise.all([
    upright
      .clone()
      .resize(DISPLAY_MAX_SIZE, DISPLAY_MAX_SIZE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true }),
    upright
      .clone()
      .resize(THUMBNAIL_SIZE.width, THUMBNAIL_SIZE.height, { fit: "cover" })
      .webp({ quality: 80 })
      .toBuffer(),
  ]).catch((error: unknown) => {
    throw refusal(error);
  });
  return {
    display: { data: display.data, width: display.info.width, height: display.info.height },
    thumbnail,
  };
}

export type StoredImage = { url: string; thumbnailUrl: string; width: number; height: number };

/**
 * Stores a processed product image under server-made names (`products/<uuid>.webp` and
 * `products/<uuid>-thumb.webp`); the uploader's file name is never used, so it cannot pick a path.
 */
export async function storeProductImage(storage: FileStorage, input: Buffer): Promise<StoredImage> {
  const { display, thumbnail } = await processImage(input);
  const id = randomUUID();
  const url = await storage.put(`products/${id}.webp`, display.data, "image/webp");
  const thumbnailUrl = await storage.put(`products/${id}-thumb.webp`, thumbnail, "image/webp");
  return { url, thumbnailUrl, width: display.width, height: display.height };
}
