import { deleteAccountSchema } from "#domain/accounts";
import { endpoint } from "#domain/endpoint";

export const privacyEndpoints = {
  "DELETE /me": endpoint({ body: deleteAccountSchema, answer: null, errors: ["ACCOUNT_DELETION_BLOCKED"] }),
} as const;
