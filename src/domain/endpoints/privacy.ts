import { accountExportSchema, deleteAccountSchema } from "#domain/accounts";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `privacy` module (`src/server/modules/privacy/routes.ts`). */
export const privacyEndpoints = {
  "DELETE /me": endpoint({
    body: deleteAccountSchema,
    answer: null,
    errors: ["ACCOUNT_DELETION_BLOCKED", "INVALID_PASSWORD"],
  }),
} as const;

/** Opened as a link (a JSON file to keep) rather than through `call`. */
export const privacyExternalEndpoints = {
  "GET /me/export": endpoint({ answer: accountExportSchema, errors: [] }),
} as const;
