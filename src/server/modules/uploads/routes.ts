import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { MAX_IMAGE_BYTES } from "#domain/product-admin";
import { requireAnyRole, signedInUser } from "#server/auth/guards";
import { AppError } from "#server/errors";
import { route } from "#server/http/route";
import { recordUploads } from "#server/modules/uploads/repository";
import { imageTooLarge, storeProductImage } from "#server/storage/images";

const noFile = () =>
  new AppError(400, "NO_FILE", "Please select an image file to upload (form field 'file').");

/** Product image uploads for sellers and admins. */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  // Multipart parsing exists only in this scope; every other route keeps accepting JSON alone.
  await app.register(multipart, {
    limits: {
      files: 1,
      // Busboy cuts a file off once it is *longer* than fileSize; one byte less makes exactly 5 MB too large.
      fileSize: MAX_IMAGE_BYTES - 1,
      fields: 2,
      fieldSize: 1024,
      parts: 3,
    },
    // The truncation is checked below, so the spec's message is answered rather than the plugin's.
    throwFileSizeLimit: false,
  });

  route(
    app,
    "POST /uploads/images",
    {
      tags: ["uploads"],
      summary: "Upload a product image; answers the URLs of the stored WebP and its thumbnail",
      description:
        "multipart/form-data with one file in the field `file`, under 5 MB. The type is sniffed from the bytes (JPEG, PNG, WebP, GIF, AVIF); the image is re-encoded to WebP (at most 1600 × 1600, metadata removed) with a 400 × 300 thumbnail, stored under a generated name.",
      onRequest: requireAnyRole("seller", "admin"),
      config: { rateLimit: { max: 60, timeWindow: "10 minutes" } },
    },
    async (request) => {
      if (!request.isMultipart()) throw noFile();
      const part = await request.file();
      if (part?.fieldname !== "file") throw noFile();
      const data = await part.toBuffer();
      if (part.file.truncated) throw imageTooLarge();
      if (data.length === 0) throw noFile();
      const image = await storeProductImage(app.storage, data);
      const me = signedInUser(request);
      await recordUploads(app.database.db, [image.url, image.thumbnailUrl], me.id);
      request.log.info({ url: image.url, bytes: data.length, by: me.id }, "image uploaded");
      return image;
    },
  );
};
