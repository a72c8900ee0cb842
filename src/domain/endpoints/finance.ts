import { endpoint } from "#domain/endpoint";
import { financeSummarySchema, periodSchema, reconciliationSchema } from "#domain/finance";

/** What the web calls of the server's `finance` module (`src/server/modules/finance/routes.ts`). */
export const financeEndpoints = {
  "GET /admin/finance": endpoint({ query: periodSchema, answer: financeSummarySchema, errors: [] }),
  "GET /admin/finance/reconciliation": endpoint({ answer: reconciliationSchema, errors: [] }),
} as const;

/** Opened as a link rather than through `call`. */
export const financeExternalEndpoints = {
  "GET /admin/finance/export.csv": endpoint({
    query: periodSchema,
    answer: { file: "text/csv; charset=utf-8" },
    errors: [],
  }),
} as const;
