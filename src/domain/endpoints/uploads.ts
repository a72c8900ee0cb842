import { endpoint } from "#domain/endpoint";
import { uploadedImageSchema } from "#domain/product-admin";

/** What the web calls of the server's `uploads` module (`src/server/modules/uploads/routes.ts`). */
export const uploadsEndpoints = {
  "POST /uploads/images": endpoint({ body: "multipart", answer: uploadedImageSchema, errors: ["NO_FILE"] }),
} as const;
