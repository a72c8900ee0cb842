import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  licenseActivateSchema,
  licenseActivationAnswerSchema,
  licenseCheckAnswerSchema,
  licenseCheckSchema,
  licenseDeactivateSchema,
  licenseDeactivationAnswerSchema,
  licenseFileSchema,
  licenseKeySetSchema,
  licenseListSchema,
  licenseSchema,
} from "#domain/license-schemas";

const idParams = z.object({ id: z.uuid("Unknown license") });
const activationParams = z.object({
  id: z.uuid("Unknown license"),
  activationId: z.uuid("Unknown activation"),
});

/** What the web calls of the server's `licenses` module (`src/server/modules/licenses/routes.ts`). */
export const licensesEndpoints = {
  "GET /licenses": endpoint({ answer: licenseListSchema, errors: [] }),
  "DELETE /licenses/:id/activations/:activationId": endpoint({
    params: activationParams,
    answer: licenseSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_ACTIVATION_NOT_FOUND"],
  }),
  // An attachment for a direct link too; the web fetches it to report a refusal in words.
  "GET /licenses/:id/file": endpoint({
    params: idParams,
    answer: licenseFileSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_NOT_VALID"],
  }),
} as const;

/** Called by vendors' software, not by the web app. */
export const licensesExternalEndpoints = {
  "POST /licenses/validate": endpoint({
    body: licenseCheckSchema,
    answer: licenseCheckAnswerSchema,
    errors: [],
  }),
  "POST /licenses/activate": endpoint({
    body: licenseActivateSchema,
    answer: licenseActivationAnswerSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_NOT_VALID", "LICENSE_SEATS_FULL"],
  }),
  "POST /licenses/deactivate": endpoint({
    body: licenseDeactivateSchema,
    answer: licenseDeactivationAnswerSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_ACTIVATION_NOT_FOUND"],
  }),
  "GET /.well-known/stackbay-license-keys.json": endpoint({
    root: true,
    answer: licenseKeySetSchema,
    errors: [],
  }),
} as const;
