import { endpoint } from "#domain/endpoint";
import { uploadedImageSchema } from "#domain/product-admin";

/** What the web calls of the server's `uploads` module (`src/server/modules/uploads/routes.ts`). */
export const uploadsEndpoints = {
  "POST /uploads/images": endpoint({
    status: 201,
    body: "multipart",
    answer: uploadedImageSchema,
    errors: ["IMAGE_DIMENSIONS_TOO_LARGE", "IMAGE_TOO_LARGE", "NOT_AN_IMAGE", "NO_FILE"],
  }),
} as const;
