import type { UploadedImage } from "#domain/product-admin";
import { api } from "#web/lib/api";

/**
 * Sends one picture; the server checks its content, re-encodes it as WebP and answers with its URL.
 * The product form calls it for each new picture in turn when saving, so it has no hook of its own.
 */
export const uploadImage = (file: File) => {
  const body = new FormData();
  body.append("file", file);
  return api<UploadedImage>("/uploads/images", { method: "POST", body });
};
