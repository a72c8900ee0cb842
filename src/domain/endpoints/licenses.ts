import { endpoint } from "#domain/endpoint";
import { licenseListSchema } from "#domain/license-schemas";

/** What the web calls of the server's `licenses` module (`src/server/modules/licenses/routes.ts`). */
export const licensesEndpoints = {
  "GET /licenses": endpoint({ answer: licenseListSchema, errors: [] }),
} as const;
