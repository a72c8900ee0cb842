import { endpoint } from "#domain/endpoint";
import { financeSummarySchema, periodSchema, reconciliationSchema } from "#domain/finance";

/** What the web calls of the server's `finance` module (`src/server/modules/finance/routes.ts`). */
export const financeEndpoints = {
  "GET /admin/finance": endpoint({ query: periodSchema, answer: financeSummarySchema, errors: [] }),
  "GET /admin/finance/reconciliation": endpoint({ answer: reconciliationSchema, errors: [] }),
} as const;
