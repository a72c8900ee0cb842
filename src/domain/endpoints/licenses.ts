import { endpoint } from "#domain/endpoint";
import { licenseCheckAnswerSchema, licenseCheckSchema, licenseListSchema } from "#domain/license-schemas";

/** What the web calls of the server's `licenses` module (`src/server/modules/licenses/routes.ts`). */
export const licensesEndpoints = {
  "GET /licenses": endpoint({ answer: licenseListSchema, errors: [] }),
} as const;

/** Called by vendors' software, not by the web app. */
export const licensesExternalEndpoints = {
  "POST /licenses/validate": endpoint({
    body: licenseCheckSchema,
    answer: licenseCheckAnswerSchema,
    errors: [],
  }),
} as const;
