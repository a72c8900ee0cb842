import { endpoint } from "#domain/endpoint";
import { uploadedImageSchema } from "#domain/product-admin";

export const uploadsEndpoints = {
  "POST /uploads/images": endpoint({ body: "multipart", answer: uploadedImageSchema, errors: ["NO_FILE"] }),
} as const;
