import { endpoint } from "#domain/endpoint";
import { licenseListSchema } from "#domain/license-schemas";

export const licensesEndpoints = {
  "GET /licenses": endpoint({ answer: licenseListSchema, errors: [] }),
} as const;
